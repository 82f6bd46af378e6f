"""How a candidate stands against its neighbours on what its opening shares with the query
(features.features_of reads these; issue 27).

A neighbour of the right memory shares the query's common incident words ("outage", "latency",
"customers") as much as the right one does; the right memory's opening also holds the words that
name this failure (a product, a component, a region), which its neighbours do not. Two readings,
each per candidate and against the other candidates of one query:

- exclusive: the weight of the query's terms its opening holds and no other of the best-scoring
  candidates' openings holds (a near-duplicate, one incident written twice, is not counted as an
  other);
- views_first: in how many of three views of the candidate list it comes first (the share of the
  query's weight in its opening, the rare weight there, the query's phrases it says): independent
  readings agreeing on the same memory.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.recall.signals import Signals


def exclusive(signals: Sequence[Signals], best: Sequence[int], twins: Callable[[int, int], bool]) -> list[float]:
    """For each candidate, the weight (in terms no memory holds) of its opening's query terms that
    no other of the `best` candidates' openings holds, its twins aside."""
    found = [frozenset(t for t, _ in s.head_found) for s in signals]
    out = []
    for i, s in enumerate(signals):
        others: set[str] = set()
        for j in best:
            if j != i and not twins(i, j):
                others |= found[j]
        out.append(sum(w for t, w in s.head_found if t not in others))
    return out


def views_first(signals: Sequence[Signals]) -> list[float]:
    """For each candidate, the share of three views in which it comes first (its value over 0 and
    at least every other candidate's): head, head_rarity, phrase_share."""
    views: list[Callable[[Signals], float]] = [lambda s: s.head, lambda s: s.head_rarity, lambda s: s.phrase_share]
    firsts = [0] * len(signals)
    for view in views:
        values = [view(s) for s in signals]
        top = max(values, default=0.0)
        for i, v in enumerate(values):
            firsts[i] += v > 0 and v >= top
    return [f / len(views) for f in firsts]
