"""A candidate's kin: the other candidates written in its own vocabulary (issue 27, r27-orgwords).

With the right memory removed, what still posts a thread is mostly the same organisation's other incidents,
found on the names every memory of that organisation says (its product, its hosts, its sprint): a word rare
in the bank is common among one team's incidents (docs/BENCHMARKS.md, issue 27, r27-recur2). The store knows
no organisation (a bank is one workspace's; a memory's service is what a declaration said, mostly nothing), so
a candidate's kin are read off the candidate list itself: the other candidates whose whole text is close to its
own once the query's words are left out, each shared term weighted by how few candidates say it (the same
organisation's incidents share its product, host, people and repository names, which few others say). A query
term the candidate's kin say too is the organisation's word, not evidence of the same failure; `discounted`
weighs each of the candidate's query terms by the share of its kin that do not say it.
"""

from __future__ import annotations

import math
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping, Sequence

from bot.models import MemoryRecord
from bot.recall.document import memory_document

KIN_FROM = (0.1, 0.15)
"""Cosine (the candidates' term sets, query words out, weighted by log(candidates / candidates saying the term))
from which another candidate is kin; one value per reading (features.FEATURES' kin_rare, kin_rare_15)."""
VOCABULARIES_KEPT = 8_192
_vocabularies: OrderedDict[tuple[str, str, str], frozenset[str]] = OrderedDict()


def vocabulary(memory: MemoryRecord) -> frozenset[str]:
    """The terms recall indexes for a memory (document.memory_document), kept for the next query: the same
    memories come back query after query, and a postmortem is long."""
    key = (memory.team_id, memory.incident_id, memory.updated_at.isoformat())
    found = _vocabularies.get(key)
    if found is None:
        found = frozenset(memory_document(memory).terms)
        _vocabularies[key] = found
        if len(_vocabularies) > VOCABULARIES_KEPT:
            _vocabularies.popitem(last=False)
    else:
        _vocabularies.move_to_end(key)
    return found


def kin_of(
    vocabularies: Sequence[frozenset[str]], query: frozenset[str], leading: Sequence[int],
    twins: Callable[[int, int], bool], kin_from: float,
) -> list[list[int]]:  # fmt: skip
    """For each of the `leading` candidates, its kin: the other candidates whose terms (the query's left out) are
    within `kin_from` of its own (cosine, each term weighted by log(candidates / candidates saying it)²); the
    others' lists are empty. A near-duplicate (one incident written twice) is no kin: it says every word the
    candidate says."""
    n = len(vocabularies)
    said = Counter(t for v in vocabularies for t in v)
    weight = {t: math.log(n / c) ** 2 for t, c in said.items() if c < n and t not in query}
    norms = [math.sqrt(sum(weight.get(t, 0.0) for t in v)) for v in vocabularies]
    out: list[list[int]] = [[] for _ in vocabularies]
    for i in leading:
        if norms[i] <= 0:
            continue
        out[i] = [
            j
            for j, v in enumerate(vocabularies)
            if j != i and norms[j] > 0 and not twins(i, j)
            and sum(weight.get(t, 0.0) for t in vocabularies[i] & v) >= kin_from * norms[i] * norms[j]
        ]  # fmt: skip
    return out


def shares_of(
    vocabularies: Sequence[frozenset[str]], query: frozenset[str], kin: Sequence[list[int]]
) -> list[dict[str, float]]:
    """Each candidate's query terms mapped to the share of its kin (kin_of) saying them too (no kin: no entry)."""
    return [
        {t: sum(t in vocabularies[j] for j in found) / len(found) for t in vocabularies[i] & query} if found else {}
        for i, found in enumerate(kin)
    ]


def kin_shares(
    vocabularies: Sequence[frozenset[str]], query: frozenset[str], leading: Sequence[int],
    twins: Callable[[int, int], bool], kin_from: float,
) -> list[dict[str, float]]:  # fmt: skip
    """For each of the `leading` candidates, each query term it says mapped to the share of its kin that say it
    too (no kin: no entry); the others' mappings are empty."""
    return shares_of(vocabularies, query, kin_of(vocabularies, query, leading, twins, kin_from))


def discounted(found: Sequence[tuple[str, float]], shares: Mapping[str, float]) -> list[float]:
    """Each (term, idf) weighed by the share of the candidate's kin that do not say the term."""
    return [w * (1.0 - shares.get(t, 0.0)) for t, w in found]


def exclusive_weights(
    found: Sequence[Sequence[tuple[str, float]]], openings: Sequence[frozenset[str]], kin: Sequence[list[int]]
) -> list[float]:
    """For each candidate with kin, the weight of the query terms its opening holds (`found`: Signals.head_found)
    that none of its kin's openings hold: the words that pick this memory out of its own team's memories (issue 27,
    r27-open). A candidate without kin reads 0: it has no siblings to be told from (its opening's words stay in
    head_rare), and a model weighing this feature then moves only memories the same team's incidents surround."""
    out = []
    for terms, siblings in zip(found, kin, strict=True):
        held = frozenset().union(*(openings[j] for j in siblings)) if siblings else frozenset()
        out.append(sum((w for t, w in terms if t not in held), 0.0) if siblings else 0.0)
    return out
