"""Conflicting memories: the same service, different root causes. Shown as a conflict, never blended."""

from __future__ import annotations

from bot.investigation.models import Conflict
from bot.investigation.text import clip, similarity
from bot.models import RecallMatch, TruthState

# Below this word overlap two root causes are different explanations, not two wordings of one.
SAME_CAUSE_SIMILARITY = 0.5
EVIDENCE_NEEDED = (
    "More current evidence is needed to tell which of these, if any, applies now: "
    "look in the current incident for the signs each root cause would leave."
)
_NOT_AN_OUTCOME = (TruthState.REJECTED, TruthState.SUPERSEDED)


def detect_conflicts(memories: list[RecallMatch]) -> list[Conflict]:
    by_service: dict[str, list[RecallMatch]] = {}
    for match in memories:
        memory = match.memory
        if memory.service and memory.root_cause and memory.truth_state not in _NOT_AN_OUTCOME:
            by_service.setdefault(memory.service.casefold(), []).append(match)

    conflicts: list[Conflict] = []
    for group in by_service.values():
        # one representative memory per distinct root cause, in recall order
        distinct: list[RecallMatch] = []
        for match in group:
            cause = match.memory.root_cause or ""
            if all(similarity(cause, d.memory.root_cause or "") < SAME_CAUSE_SIMILARITY for d in distinct):
                distinct.append(match)
        if len(distinct) < 2:
            continue
        causes = "; ".join(f"{m.memory.incident_id}: {clip(m.memory.root_cause or '', 400)}" for m in distinct)
        conflicts.append(
            Conflict(
                memory_ids=[m.memory.incident_id for m in group],
                description=clip(f"Past memories for service {group[0].memory.service} name different root causes. {causes}", 2900),
                evidence_needed=EVIDENCE_NEEDED,
            )
        )
    return conflicts
