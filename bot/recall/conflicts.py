"""Conflicts: recalled memories of one service that name different root causes.

Recall is context, not a verdict: when two memories of the same service disagree on the root
cause, the reader is shown a conflict instead of a blend. Rejected memories (known wrong) and
superseded ones (replaced) take no part. Two root causes are the same explanation when they
share most of their words (wording, case and punctuation alone never make a conflict). This is
the one place that decides; the Slack thread and both investigators use it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.recall.tokens import tokenize
from bot.models import RecallMatch, TruthState

# Below this word overlap (Jaccard) two root causes are different explanations, not two
# wordings of one.
SAME_CAUSE_SIMILARITY = 0.5
_NO_VOICE = (TruthState.REJECTED, TruthState.SUPERSEDED)


def same_cause(a: str, b: str) -> bool:
    ta, tb = set(tokenize(a)), set(tokenize(b))
    if not ta or not tb:
        return " ".join(a.casefold().split()) == " ".join(b.casefold().split())
    return len(ta & tb) / len(ta | tb) >= SAME_CAUSE_SIMILARITY


def conflict_groups(matches: Sequence[RecallMatch]) -> dict[str, tuple[list[RecallMatch], list[RecallMatch]]]:
    """service → (its memories with a root cause, one representative per distinct cause),
    for the services whose memories name at least two causes. Recall order is kept; a service
    is keyed as its first memory spells it, grouped without regard to case."""
    groups: dict[str, tuple[str, list[RecallMatch]]] = {}
    for match in matches:
        memory = match.memory
        if memory.truth_state in _NO_VOICE or not memory.service or not memory.root_cause:
            continue
        spelling, members = groups.setdefault(memory.service.strip().casefold(), (memory.service.strip(), []))
        members.append(match)
    out: dict[str, tuple[list[RecallMatch], list[RecallMatch]]] = {}
    for spelling, members in groups.values():
        distinct: list[RecallMatch] = []
        for match in members:
            if not any(same_cause(match.memory.root_cause or "", d.memory.root_cause or "") for d in distinct):
                distinct.append(match)
        if len(distinct) > 1:
            out[spelling] = (members, distinct)
    return out


def find_conflicts(matches: Sequence[RecallMatch]) -> dict[str, list[str]]:
    """service → incident_ids (in recall order) of its memories, when they name ≥ 2 root causes."""
    return {service: [m.memory.incident_id for m in members] for service, (members, _) in conflict_groups(matches).items()}
