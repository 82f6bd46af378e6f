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

from bot.models import RecallMatch, TruthState
from bot.recall.concepts import Vocabulary, load_vocabulary
from bot.recall.tokens import stem, tokenize

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


def _clusters(matches: Sequence[RecallMatch], vocabulary: Vocabulary | None) -> dict[str, list[list[RecallMatch]]]:
    """service → its memories grouped by root cause (each group one explanation, recall order),
    for the services whose memories name at least two causes. A cause that only points at
    another ("Same … as before") joins no group: it names nothing to disagree with."""
    by_service: dict[str, tuple[str, list[list[RecallMatch]]]] = {}
    for match in matches:
        memory = match.memory
        cause = memory.root_cause or ""
        if memory.truth_state in _NO_VOICE or not memory.service or not cause or _POINTER.match(cause):
            continue
        _, clusters = by_service.setdefault(memory.service.strip().casefold(), (memory.service.strip(), []))
        for cluster in clusters:
            if same_cause(cause, cluster[0].memory.root_cause or "", vocabulary):
                cluster.append(match)
                break
        else:
            clusters.append([match])
    return {spelling: clusters for spelling, clusters in by_service.values() if len(clusters) > 1}


def conflict_groups(
    matches: Sequence[RecallMatch], vocabulary: Vocabulary | None = None
) -> dict[str, tuple[list[RecallMatch], list[RecallMatch]]]:
    """service → (its memories in conflict, in recall order; one representative per cause)."""
    out: dict[str, tuple[list[RecallMatch], list[RecallMatch]]] = {}
    for service, clusters in _clusters(matches, vocabulary).items():
        members = {m.memory.incident_id for cluster in clusters for m in cluster}
        out[service] = ([m for m in matches if m.memory.incident_id in members], [c[0] for c in clusters])
    return out


def conflict_clusters(
    matches: Sequence[RecallMatch], vocabulary: Vocabulary | None = None
) -> dict[str, list[list[str]]]:
    """service → incident_ids grouped by the root cause they name, when a service's memories
    name two or more: memories in one group agree, any two groups disagree."""
    return {
        service: [[m.memory.incident_id for m in c] for c in clusters]
        for service, clusters in _clusters(matches, vocabulary).items()
    }


def find_conflicts(matches: Sequence[RecallMatch], vocabulary: Vocabulary | None = None) -> dict[str, list[str]]:
    """service → incident_ids (in recall order) of its memories, when they name ≥ 2 root causes."""
    return {
        service: [m.memory.incident_id for m in members]
        for service, (members, _) in conflict_groups(matches, vocabulary).items()
    }
