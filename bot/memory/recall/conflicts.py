"""Conflicts: recalled memories of one service that name different root causes.

Recall is context, not a verdict: when two memories of the same service disagree on the root
cause, the reader is shown a conflict instead of a blend. Rejected memories (known wrong) and
superseded ones (replaced) take no part; wording alone (case, spacing, a final full stop) does
not make a conflict.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.models import RecallMatch, TruthState

_NO_VOICE = (TruthState.REJECTED, TruthState.SUPERSEDED)


def _normalized(text: str) -> str:
    return " ".join(text.casefold().split()).rstrip(".!")


def find_conflicts(matches: Sequence[RecallMatch]) -> dict[str, list[str]]:
    """service → incident_ids (in recall order) of its memories, when they name ≥ 2 root causes.

    Services are grouped without regard to case; a conflict is keyed by the service as the
    first such memory spells it.
    """
    groups: dict[str, tuple[str, list[str], set[str]]] = {}
    for match in matches:
        memory = match.memory
        if memory.truth_state in _NO_VOICE or not memory.service or not memory.root_cause:
            continue
        key = memory.service.strip().casefold()
        spelling, ids, causes = groups.setdefault(key, (memory.service.strip(), [], set()))
        ids.append(memory.incident_id)
        causes.add(_normalized(memory.root_cause))
    return {spelling: ids for spelling, ids, causes in groups.values() if len(causes) > 1}
