"""The judgement's three tiers along its curve, for `replay --target-absent` (docs/REPLAY.md).

A team choosing its own thresholds reads here what each would give: at each probability p taken
as strong_from, how often the right memory is posted in a thread and shown at all, and, with it
removed, how often a false thread is posted and anything is shown; at each p taken as weak_from,
how often the right memory is shown and anything is shown with it removed. Every figure is the
product's own answer (Judgement.tiers) under those thresholds, from what the replay judged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from bot.recall.judgement import BELOW, STRONG, Judgement


class Judged(Protocol):
    """A replayed case as judged (bot.replay_report.CaseResult): its tiers again under other thresholds."""

    meaning: bool
    query_phrases: float

    def retiered(self, judgement: Judgement) -> tuple[list[str], list[str]]: ...

    def right_tier(self, tiers: Sequence[str] | None = None) -> str: ...

    def absent_shown(self, tiers: Sequence[str] | None = None) -> str: ...


PROBABILITY_STEPS = tuple(round(0.05 * i, 2) for i in range(1, 20))
"""The judgement curve's steps (bot/replay_report.py reads them from here)."""


def _as_strong(judgement: Judgement, p: float) -> Judgement:
    return replace(judgement, strong_from=p, weak_from=min(judgement.weak_from, p))


def _as_weak(judgement: Judgement, p: float) -> Judgement:
    # the weak line is the weak model's when the model has one (Judgement.weak) and the case kept its
    # probabilities, else the model's own: both move
    weak = None if judgement.weak is None else replace(judgement.weak, weak_from=p)
    return replace(judgement, weak_from=p, weak=weak)


def tier_curve(results: Sequence[Judged], judgement: Judgement) -> list[dict[str, float]]:
    """At each step p: strong_from = p (weak_from the case's model's, or p if lower): right memory
    strong / shown (strong among the first 5, weak among the first 3), removed: strong / anything
    shown; weak_from = p (strong_from the model's): right memory shown, removed: anything shown."""
    n = len(results) or 1
    out = []
    for p in PROBABILITY_STEPS:
        point: dict[str, float] = {"probability": p}
        for name, at in (("strong", _as_strong), ("weak", _as_weak)):
            tiers = [r.retiered(at(judgement.for_query(r.meaning, r.query_phrases), p)) for r in results]
            right = [r.right_tier(present) for r, (present, _) in zip(results, tiers, strict=True)]
            gone = [r.absent_shown(absent) for r, (_, absent) in zip(results, tiers, strict=True)]
            if name == "strong":
                point["strong_right_strong"] = round(right.count(STRONG) / n, 4)
                point["strong_absent_strong"] = round(gone.count(STRONG) / n, 4)
            point[f"{name}_right_shown"] = round(sum(t != BELOW for t in right) / n, 4)
            point[f"{name}_absent_shown"] = round(sum(t != BELOW for t in gone) / n, 4)
        out.append(point)
    return out


def tier_curve_text(curve: list[dict[str, float]]) -> list[str]:
    lines = ["tiers along it   p as strong_from: right strong / shown; removed strong / anything"
             "   p as weak_from: right shown; removed anything"]  # fmt: skip
    lines += [
        f"{c['probability']:11.2f}  {c['strong_right_strong']:24.3f} / {c['strong_right_shown']:.3f};"
        f" {c['strong_absent_strong']:.3f} / {c['strong_absent_shown']:.3f}"
        f"  {c['weak_right_shown']:20.3f}; {c['weak_absent_shown']:.3f}"
        for c in curve
    ]
    return lines
