"""Known patterns (approved rules that fired on the incident) as the investigation sees them:
PAST context, cited by rule id, under the same rules as past memories — what to check, never
what caused today's incident."""

from __future__ import annotations

from collections.abc import Sequence

from bot.investigation.models import Check, FailedPreviousAction, KnownPatternNote
from bot.investigation.text import clip
from bot.rules.model import Rule

FIELD_CLIP = 600
ITEMS_IN_PROMPT = 5


def _dead_end(action: str, why: str) -> str:
    return f"{action} — {why}" if why else action


def pattern_note(rule: Rule) -> KnownPatternNote:
    return KnownPatternNote(
        rule_id=rule.id,
        headline=rule.known_pattern_line(),
        checks=[clip(c, FIELD_CLIP) for c in rule.checks],
        dead_ends=[clip(_dead_end(d.action, d.why_it_failed), FIELD_CLIP) for d in rule.dead_ends],
    )


def pattern_view(rule: Rule) -> dict[str, object]:
    """What the prompt shows of a rule."""
    replay = rule.replay
    return {
        "id": rule.id,
        "headline": rule.known_pattern_line(),
        "title": rule.title,
        "checks": [clip(c, FIELD_CLIP) for c in rule.checks[:ITEMS_IN_PROMPT]],
        "dead_ends": [
            {
                "action": clip(d.action, FIELD_CLIP),
                "why": clip(d.why_it_failed, FIELD_CLIP),
                "seen_in": ", ".join(d.seen_in),
            }
            for d in rule.dead_ends[:ITEMS_IN_PROMPT]
        ],
        "replay": (
            f"on past incidents it fired correctly {len(replay.hits)} times, on another cause "
            f"{len(replay.false_fires)} times, and missed {len(replay.misses)}"
            if replay
            else "not replayed"
        ),
    }


def pattern_checks(rules: Sequence[Rule]) -> list[Check]:
    """The offline investigator's checks from known patterns, each citing its rule."""
    return [
        Check(
            action=clip(check, FIELD_CLIP),
            why=f"Suggested by known pattern {rule.id} (reviewed by {rule.reviewed_by}): context for what to check, not a verdict.",
            memory_ids=[rule.id],
        )
        for rule in rules
        for check in rule.checks
    ]


def pattern_dead_ends(rules: Sequence[Rule]) -> list[FailedPreviousAction]:
    return [
        FailedPreviousAction(
            action=d.action,
            why_it_failed=d.why_it_failed or f"why it failed was not recorded in {rule.id}",
            memory_id=rule.id,
        )
        for rule in rules
        for d in rule.dead_ends
    ]
