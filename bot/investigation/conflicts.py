"""Conflicting memories: the same service, different root causes. Shown as a conflict, never blended."""

from __future__ import annotations

from bot.investigation.models import Conflict
from bot.investigation.text import clip
from bot.models import RecallMatch
from bot.recall.conflicts import conflict_groups

EVIDENCE_NEEDED = (
    "More current evidence is needed to tell which of these, if any, applies now: "
    "look in the current incident for the signs each root cause would leave."
)


def detect_conflicts(memories: list[RecallMatch]) -> list[Conflict]:
    """The recall's conflicts (bot.recall.conflicts decides), worded for an investigation."""
    conflicts: list[Conflict] = []
    for service, (members, distinct) in conflict_groups(memories).items():
        causes = (
            "; ".join(
                f"{m.memory.incident_id}: {clip(m.memory.root_cause or '', 400).rstrip().rstrip('.')}" for m in distinct
            )
            + "."
        )
        conflicts.append(
            Conflict(
                memory_ids=[m.memory.incident_id for m in members],
                description=clip(f"Past memories for service {service} name different root causes. {causes}", 2900),
                evidence_needed=EVIDENCE_NEEDED,
            )
        )
    return conflicts
