"""Conflicts: recalled memories of one service that name different root causes.

Recall is context, not a verdict: when two memories of the same service disagree on the root
cause, the reader is shown a conflict instead of a blend. Rejected memories (known wrong) and
superseded ones (replaced) take no part. Two causes disagree only when they are about different
mechanisms, never because they are worded differently: "a connection held across provider
calls" and "a connection leaked in the refund worker" both exhaust the pool. What a cause is
about is read from the incident vocabulary (concepts.py) first, and from the things it names
(its content words) when the vocabulary does not know it. A cause that only points at another
("Same keepalive mismatch as before") never disagrees. This is the one place that decides; the
Slack thread and both investigators use it. Its precision and recall are measured on
eval/incidents/conflict_pairs.jsonl (tests/test_conflicts.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.memory.recall.concepts import Vocabulary, load_vocabulary
from bot.memory.recall.tokens import stem, tokenize
from bot.models import RecallMatch, TruthState

# Causes the vocabulary cannot place are the same explanation when this share of the shorter
# one's content words appears in the other.
SAME_SUBJECT_OVERLAP = 0.34
_NO_VOICE = (TruthState.REJECTED, TruthState.SUPERSEDED)
_POINTER = re.compile(r"^\s*(?:the\s+)?(?:same|again|as before|as in|like in|recurrence of|repeat of)\b", re.I)
# words any cause may use: they say that something went wrong, not what
_CAUSAL = frozenset(
    stem(w)
    for w in """cause caused causing because due root issue problem failure failed fail error errors
    happened made make led lead leading result resulted which when under after until""".split()
)


def _subject(cause: str) -> set[str]:
    return {t for t in tokenize(cause) if t not in _CAUSAL and not t.isdigit()}


def same_cause(a: str, b: str, vocabulary: Vocabulary | None = None) -> bool:
    """Whether two root causes are one explanation (so recalling both is no conflict)."""
    if " ".join(a.casefold().split()) == " ".join(b.casefold().split()):
        return True
    if _POINTER.match(a) or _POINTER.match(b):
        return True  # it defers to an earlier cause instead of naming one
    vocabulary = vocabulary or load_vocabulary()
    ca, cb = set(vocabulary.detect(a)), set(vocabulary.detect(b))
    if ca and cb:
        return bool(ca & cb)
    sa, sb = _subject(a), _subject(b)
    if not sa or not sb:
        return False
    return len(sa & sb) / min(len(sa), len(sb)) >= SAME_SUBJECT_OVERLAP


def conflict_groups(
    matches: Sequence[RecallMatch], vocabulary: Vocabulary | None = None
) -> dict[str, tuple[list[RecallMatch], list[RecallMatch]]]:
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
            cause = match.memory.root_cause or ""
            if not any(same_cause(cause, d.memory.root_cause or "", vocabulary) for d in distinct):
                distinct.append(match)
        if len(distinct) > 1:
            # only the memories that disagree with another are in conflict
            members = [m for m in members if any(
                not same_cause(m.memory.root_cause or "", d.memory.root_cause or "", vocabulary) for d in distinct)]  # fmt: skip
            out[spelling] = (members, distinct)
    return out


def find_conflicts(matches: Sequence[RecallMatch], vocabulary: Vocabulary | None = None) -> dict[str, list[str]]:
    """service → incident_ids (in recall order) of its memories, when they name ≥ 2 root causes."""
    return {service: [m.memory.incident_id for m in members] for service, (members, _) in conflict_groups(matches, vocabulary).items()}
