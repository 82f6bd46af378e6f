"""The offline investigator: the same structure, built deterministically from the memories alone.

It has no model, so it never claims to see anything in the current evidence: every hypothesis
needs evidence, and the summary only restates what was declared and said in the channel.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.investigation.conflicts import detect_conflicts
from bot.investigation.models import (
    MAX_ITEMS,
    Check,
    FailedPreviousAction,
    FallbackReason,
    Findings,
    Hypothesis,
    HypothesisStatus,
    Investigation,
    InvestigatorKind,
    PreviousAction,
    TimelineEntry,
)
from bot.investigation.patterns import pattern_checks, pattern_dead_ends, pattern_note
from bot.investigation.prompt import when
from bot.investigation.text import clip
from bot.models import Incident, MemoryRecord, RecallMatch, TruthState
from bot.recall.conflicts import same_cause
from bot.rules.model import Rule

FIELD_CLIP = 600
_NOT_AN_OUTCOME = (TruthState.REJECTED, TruthState.SUPERSEDED)


_TRUTH_WORDS = {
    TruthState.VERIFICATION_CONFIRMED: "a verified fix",
    TruthState.HUMAN_CONFIRMED: "confirmed, not independently verified",
    TruthState.UNCONFIRMED_HYPOTHESIS: "an unconfirmed guess, not an established outcome",
    TruthState.SUPERSEDED: "superseded, not an established outcome",
    TruthState.REJECTED: "rejected, not an established outcome",
}


def _truth_label(memory: MemoryRecord) -> str:
    """The truth state in words, for a sentence ("a verified fix"), never its raw name."""
    return _TRUTH_WORDS[memory.truth_state]


def _sentence(text: str) -> str:
    return text if text.rstrip().endswith((".", "!", "?", "…")) else f"{text}."


def _summary(incident: Incident, timeline: list[TimelineEntry]) -> str:
    parts = [_sentence(incident.title)]
    declared = [("Service", incident.service), ("Severity", incident.severity)]
    declared += [("Symptoms", incident.symptoms), ("Error", incident.error_message)]
    parts += [_sentence(f"{label}: {clip(value, FIELD_CLIP)}") for label, value in declared if value]
    if timeline:
        latest = max(timeline, key=lambda e: e.at)
        n = len(timeline)
        parts.append(
            f"{n} channel message{'s' if n != 1 else ''}; latest from {latest.author} "
            f"at {when(latest.at)}: “{clip(latest.text, 300)}”"
        )
    else:
        parts.append("No channel messages yet.")
    return clip(" ".join(parts), 2900)


def _check(memory: MemoryRecord) -> Check | None:
    # what to do now; the past root cause itself is a hypothesis, never repeated here
    label = f"{memory.incident_id} ({_truth_label(memory)})"
    if memory.diagnosis:
        action = f"Repeat the check that found the cause in {memory.incident_id}"
        why = _sentence(f"In {label} it was found by: {clip(memory.diagnosis, FIELD_CLIP)}")
    elif memory.root_cause:
        action = f"Look in the current evidence for the signs of {memory.incident_id}'s root cause (see the hypotheses)"
        why = f"{label} recorded its root cause but not how it was found."
    else:
        return None
    if memory.corrections:
        latest = memory.corrections[-1]
        why += f" An unverified addition by {latest.shown_author}: {clip(latest.text, FIELD_CLIP)}"
    return Check(action=action, why=why, memory_ids=[memory.incident_id])


def _hypotheses(outcomes: list[MemoryRecord]) -> list[Hypothesis]:
    # one hypothesis per distinct root cause, citing every memory that names it
    groups: list[list[MemoryRecord]] = []
    for memory in (m for m in outcomes if m.root_cause):
        for group in groups:
            if same_cause(group[0].root_cause or "", memory.root_cause or ""):
                group.append(memory)
                break
        else:
            groups.append([memory])
    return [
        Hypothesis(
            statement=f"Possible, to be checked against current evidence: {clip(group[0].root_cause or '', FIELD_CLIP)}",
            current_evidence=[],
            related_memory_ids=[m.incident_id for m in group],
            status=HypothesisStatus.NEEDS_EVIDENCE,
        )
        for group in groups
    ]


def _open_questions(
    incident: Incident, timeline: list[TimelineEntry], memories: list[RecallMatch], conflicts: bool
) -> list[str]:
    questions = []
    if conflicts:
        questions.append("Which of the conflicting past root causes, if any, shows in the current evidence?")
    if not timeline:
        questions.append("Nothing has been said in the channel yet: what do responders see now?")
    if not incident.service:
        questions.append("Which service is affected?")
    if not incident.error_message:
        questions.append("Is there an error message or log line from the current incident?")
    if not memories:
        questions.append("No past incident was recalled: what does the current evidence point to?")
    questions.append("What changed just before this started (deploys, configuration, traffic)?")
    return questions


# Without a model to judge relevance, only memories that scored near the best one suggest what
# to check; a distant fifth match (a TLS renewal for a database timeout) would only distract.
# Relative, never absolute: the best match always counts.
RELEVANT_SHARE_OF_TOP = 0.3


def _relevant(memories: list[RecallMatch]) -> list[RecallMatch]:
    top = max((m.score for m in memories), default=0.0)
    return [m for m in memories if m.score >= RELEVANT_SHARE_OF_TOP * top]


def offline_findings(
    incident: Incident, timeline: list[TimelineEntry], memories: list[RecallMatch], known_patterns: Sequence[Rule] = ()
) -> Findings:
    usable = [m.memory for m in _relevant(memories) if m.memory.truth_state is not TruthState.REJECTED]
    outcomes = [m for m in usable if m.truth_state not in _NOT_AN_OUTCOME]
    # a reviewed pattern's checks first: several confirmed incidents agree on them
    checks = pattern_checks(known_patterns) + [c for c in map(_check, outcomes) if c is not None]
    conflicts = detect_conflicts(memories)
    return Findings(
        current_summary=_summary(incident, timeline),
        checks_to_run=checks[:MAX_ITEMS],
        hypotheses=_hypotheses(outcomes)[:MAX_ITEMS],
        successful_previous_actions=[
            PreviousAction(action=clip(m.resolution, 2900), memory_id=m.incident_id) for m in outcomes if m.resolution
        ][:MAX_ITEMS],
        failed_previous_actions=(
            pattern_dead_ends(known_patterns)
            + [
                FailedPreviousAction(
                    action=a.action,
                    why_it_failed=a.why_it_failed or f"why it failed was not recorded in {m.incident_id}",
                    memory_id=m.incident_id,
                )
                for m in usable
                for a in m.failed_attempts
            ]
        )[:MAX_ITEMS],
        conflicts=conflicts[:MAX_ITEMS],
        open_questions=_open_questions(incident, timeline, memories, bool(conflicts)),
    )


class OfflineInvestigator:
    """Deterministic; used when no API key is set, and as every fallback of the model."""

    def answer(
        self,
        incident: Incident,
        timeline: list[TimelineEntry],
        memories: list[RecallMatch],
        *,
        note: str | None = None,
        reason: FallbackReason | None = None,
        known_patterns: Sequence[Rule] = (),
    ) -> Investigation:
        findings = offline_findings(incident, timeline, memories, known_patterns)
        return Investigation(
            **findings.model_dump(),
            investigator=InvestigatorKind.OFFLINE,
            note=note,
            fallback_reason=reason,
            known_patterns=[pattern_note(r) for r in known_patterns],
        )

    async def investigate(
        self,
        incident: Incident,
        timeline: list[TimelineEntry],
        memories: list[RecallMatch],
        *,
        channel_is_private: bool | None = None,
        known_patterns: Sequence[Rule] = (),
    ) -> Investigation:
        return self.answer(incident, timeline, memories, known_patterns=known_patterns)

    async def aclose(self) -> None:
        """Nothing to release: the offline investigator holds no connection."""
