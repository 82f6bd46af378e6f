"""What a replay measured (bot/replay.py runs it; docs/REPLAY.md): each case's ranked memories,
relevances, tiers and probabilities, and the report of them: Recall@1/5, MRR@10, latency, the
floor's and the judgement's curves, as `incident-memory replay` prints them and benches read them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.models import RecallMatch, RecallQuery
from bot.recall.floor import DEFAULT_FLOOR
from bot.recall.judgement import BELOW, STRONG, WEAK, Judgement, load_judgement
from bot.replay_tiers import PROBABILITY_STEPS, tier_curve, tier_curve_text

TOP_K = 10
POSTED = 5
"""How many memories a thread posts at most: what the floor figures count."""
FLOOR_STEPS = tuple(round(0.05 * i, 2) for i in range(21))


@dataclass(frozen=True, slots=True)
class ReplayCase:
    id: str
    query: RecallQuery
    relevant: frozenset[str]
    flags: dict[str, Any] = field(default_factory=dict)
    """Extra keys of the case line (e.g. near_identical_text), for subset figures."""


@dataclass(frozen=True, slots=True)
class CaseResult:
    case: ReplayCase
    ranked: tuple[str, ...]
    latency_ms: float
    matches: tuple[RecallMatch, ...] = ()
    relevances: tuple[float, ...] = ()
    """The absolute relevance of each ranked memory (floor.py)."""
    absent: tuple[float, ...] | None = None
    """Target-absent mode: the relevances of what would be posted with the true matches removed."""
    tiers: tuple[str, ...] = ()
    """The judgement's tier of each ranked memory (bot/recall/judgement.py)."""
    absent_matches: tuple[RecallMatch, ...] = ()
    """Target-absent mode with keep_matches: what recall returned with the true matches removed."""
    absent_tiers: tuple[str, ...] = ()
    probabilities: tuple[float, ...] = ()
    """The judgement's probability of each ranked memory."""
    absent_probabilities: tuple[float, ...] = ()
    rules: tuple[str, ...] = ()
    """The tier the judgement's rules give each ranked memory at least (judgement_rules.by_rule)."""
    absent_rules: tuple[str, ...] = ()
    meaning: bool = False
    """Recalled with meaning (judged by the semantic model)."""
    query_phrases: float = 0.0
    """The query's phrases' weight (Signals.query_phrases): whether the short-query model judged it."""
    weak_probabilities: tuple[float, ...] | None = None
    """The weak model's probability of each ranked memory (Judgement.weak; None without one)."""
    absent_weak_probabilities: tuple[float, ...] | None = None

    def right_tier(self, tiers: Sequence[str] | None = None) -> str:
        """The tier the true match is shown in: strong, weak, or below (not shown, or not ranked)."""
        tiers = self.tiers if tiers is None else tiers
        return next(
            (t for m, t in zip(self.ranked, tiers, strict=False) if m in self.case.relevant and t != BELOW), BELOW
        )

    def absent_shown(self, tiers: Sequence[str] | None = None) -> str:
        """Target-absent mode: strong if anything is posted, weak if only a weak line, else below."""
        tiers = self.absent_tiers if tiers is None else tiers
        return STRONG if STRONG in tiers else (WEAK if WEAK in tiers else BELOW)

    def retiered(self, judgement: Judgement) -> tuple[list[str], list[str]]:
        """The tiers (target present, target absent) under other thresholds, from what was judged."""
        return (judgement.tiers(self.probabilities, self.relevances, self.rules, self.weak_probabilities),
                judgement.tiers(self.absent_probabilities, self.absent or (), self.absent_rules,
                                self.absent_weak_probabilities))  # fmt: skip

    @property
    def rank(self) -> int | None:
        """1-based rank of the first true match in the top 10, or None."""
        return next((i for i, m in enumerate(self.ranked[:TOP_K], start=1) if m in self.case.relevant), None)

    def reaches(self, probability: float, top: int) -> bool:
        """A true match among the first `top` has at least this probability."""
        return any(
            m in self.case.relevant and p >= probability
            for m, p in zip(self.ranked[:top], self.probabilities[:top], strict=False)
        )

    def passes(self, floor: float) -> bool:
        """A true match would be posted: in the top POSTED and at or above the floor."""
        return any(
            m in self.case.relevant and r >= floor
            for m, r in zip(self.ranked[:POSTED], self.relevances[:POSTED], strict=False)
        )

    def false_alarm(self, floor: float) -> bool:
        """With the true matches absent, something would still be posted."""
        return any(r >= floor for r in (self.absent or ())[:POSTED])


@dataclass(frozen=True, slots=True)
class FloorPoint:
    floor: float
    present_pass_rate: float
    """Cases whose true match is posted (top POSTED, at or above the floor)."""
    absent_false_alarm_rate: float | None
    """Cases that post anything once their true matches are removed (target-absent mode)."""

    def as_json(self) -> dict[str, Any]:
        return {"floor": self.floor, "present_pass_rate": self.present_pass_rate,
                "absent_false_alarm_rate": self.absent_false_alarm_rate}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Metrics:
    recall_at_1: float
    recall_at_5: float
    mrr_at_10: float
    cases: int

    @classmethod
    def of(cls, ranks: list[int | None]) -> Metrics:
        n = len(ranks) or 1
        return cls(
            recall_at_1=round(sum(1 for r in ranks if r == 1) / n, 4),
            recall_at_5=round(sum(1 for r in ranks if r is not None and r <= 5) / n, 4),
            mrr_at_10=round(sum(1.0 / r for r in ranks if r is not None and r <= TOP_K) / n, 4),
            cases=len(ranks),
        )


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


@dataclass(frozen=True, slots=True)
class ReplayReport:
    metrics: Metrics
    latency_ms_p50: float
    latency_ms_p95: float
    results: tuple[CaseResult, ...]
    floor: float = DEFAULT_FLOOR

    @classmethod
    def of(cls, results: list[CaseResult], floor: float = DEFAULT_FLOOR) -> ReplayReport:
        latencies = [r.latency_ms for r in results]
        return cls(
            metrics=Metrics.of([r.rank for r in results]),
            latency_ms_p50=round(percentile(latencies, 50), 2),
            latency_ms_p95=round(percentile(latencies, 95), 2),
            results=tuple(results),
            floor=floor,
        )

    @property
    def target_absent(self) -> bool:
        return any(r.absent is not None for r in self.results)

    def at_floor(self, floor: float) -> FloorPoint:
        n = len(self.results) or 1
        return FloorPoint(
            floor=floor,
            present_pass_rate=round(sum(r.passes(floor) for r in self.results) / n, 4),
            absent_false_alarm_rate=round(sum(r.false_alarm(floor) for r in self.results) / n, 4)
            if self.target_absent
            else None,
        )

    def tier_figures(self) -> dict[str, float]:
        """The judgement's three tiers (strong, weak, nothing) as a responder would meet them."""
        n = len(self.results) or 1
        first = [r for r in self.results if r.rank == 1]
        out = {
            "right_strong": sum(r.right_tier() == STRONG for r in self.results) / n,
            "right_shown": sum(r.right_tier() != BELOW for r in self.results) / n,
            "first_strong": sum(r.right_tier() == STRONG for r in first) / (len(first) or 1),
            "first_shown": sum(r.right_tier() != BELOW for r in first) / (len(first) or 1),
        }
        if self.target_absent:
            out["absent_strong"] = sum(r.absent_shown() == STRONG for r in self.results) / n
            out["absent_shown"] = sum(r.absent_shown() != BELOW for r in self.results) / n
        return {k: round(v, 4) for k, v in out.items()}

    def curve(self) -> list[FloorPoint]:
        return [self.at_floor(f) for f in FLOOR_STEPS]

    def judgement_curve(self) -> list[dict[str, float]]:
        """The judgement along its probability: at each step p, the share of cases whose right
        memory reaches p among the first POSTED, and, target absent, the share where anything
        does. strong_from and weak_from (bot/data/recall_judgement.json) are points of this curve
        (the weak line reads the first three only: the best probability is nearly always there)."""
        n = len(self.results) or 1
        out = []
        for p in PROBABILITY_STEPS:
            point = {"probability": p, "right": round(sum(r.reaches(p, POSTED) for r in self.results) / n, 4)}
            if self.target_absent:
                point["absent"] = round(
                    sum(any(q >= p for q in r.absent_probabilities[:POSTED]) for r in self.results) / n, 4
                )
            out.append(point)
        return out

    def tier_curve(self, judgement: Judgement | None = None) -> list[dict[str, float]]:
        """The three tiers along the judgement's curve (bot/replay_tiers.py)."""
        return tier_curve(self.results, judgement or load_judgement().with_floor(self.floor))

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "recall_at_1": self.metrics.recall_at_1,
            "recall_at_5": self.metrics.recall_at_5,
            "mrr_at_10": self.metrics.mrr_at_10,
            "cases": self.metrics.cases,
            "latency_ms_p50": self.latency_ms_p50,
            "latency_ms_p95": self.latency_ms_p95,
        }
        if self.target_absent:  # the keys of REPLAY.md stay as they are without the mode
            out.update(self.at_floor(self.floor).as_json())
            out["floor_curve"] = [p.as_json() for p in self.curve()]
            out["tiers"] = self.tier_figures()
            out["judgement_curve"] = self.judgement_curve()
            out["tier_curve"] = self.tier_curve()
        return out

    def subset(self, flag: str, value: object) -> Metrics | None:
        """Figures for the cases whose `flag` equals `value`, if any case carries the flag."""
        if not any(flag in r.case.flags for r in self.results):
            return None
        return Metrics.of([r.rank for r in self.results if r.case.flags.get(flag) == value])

    def text(self) -> str:
        m = self.metrics
        lines = [
            f"cases       {m.cases}",
            f"Recall@1    {m.recall_at_1:.3f}",
            f"Recall@5    {m.recall_at_5:.3f}",
            f"MRR@10      {m.mrr_at_10:.3f}",
            f"latency ms  p50 {self.latency_ms_p50:.1f}  p95 {self.latency_ms_p95:.1f}",
        ]
        point = self.at_floor(self.floor)
        lines.append(f"floor {self.floor:.2f}  right memory posted {point.present_pass_rate:.3f}"
                     + (f"  false alarms (target absent) {point.absent_false_alarm_rate:.3f}"
                        if point.absent_false_alarm_rate is not None else ""))  # fmt: skip
        if self.target_absent:
            lines.append("floor  posted(present)  false-alarm(absent)")
            lines += [
                f"{p.floor:5.2f}  {p.present_pass_rate:15.3f}  {p.absent_false_alarm_rate:19.3f}" for p in self.curve()
            ]
        t = self.tier_figures()
        lines.append(f"judgement  right memory strong {t['right_strong']:.3f}  shown {t['right_shown']:.3f}"
                     f"  (ranked first: strong {t['first_strong']:.3f}  shown {t['first_shown']:.3f})")  # fmt: skip
        if "absent_strong" in t:
            lines.append(
                f"judgement  target absent: strong {t['absent_strong']:.3f}  anything shown {t['absent_shown']:.3f}"
            )
            lines.append("probability  right memory reaches it (top 5)  anything does (target absent)")
            lines += [
                f"{c['probability']:11.2f}  {c['right']:29.3f}  {c['absent']:29.3f}" for c in self.judgement_curve()
            ]
            lines += tier_curve_text(self.tier_curve())
        distinct = self.subset("near_identical_text", False)
        if distinct is not None:
            lines.append(
                f"without near-identical re-filings ({distinct.cases} cases): R@1 {distinct.recall_at_1:.3f}"
                f"  R@5 {distinct.recall_at_5:.3f}  MRR@10 {distinct.mrr_at_10:.3f}"
            )
        return "\n".join(lines)
