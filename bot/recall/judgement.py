"""The relevance judgement: the probability that a recalled memory describes the same failure,
and the tier it is shown in (strong: the thread; weak: one line naming it; below: not shown).

The relevance floor (floor.py) judged each memory alone, on how much of the query it covers. A
responder's two lines of symptoms cover little of a pages-long postmortem, so a right memory
sat under the floor while it stood far ahead of every other candidate. The judgement reads what
separates a true match from a neighbour instead, each feature measured per query:

- relevance: the floor's absolute judgement (floor.judge);
- lead: how far its relevance stands above the best other candidate's (negative when behind);
- standout: how many standard deviations its relevance stands above the candidates' mean;
- agreement: the share of the independent signals that agree (same error signature, shared
  mechanism concepts, same service, close in meaning);
- head: the query's weight (idf) found in the memory's title and symptoms, not the whole document;
- meaning: closeness in meaning (floor.meaning_share; 0 with semantic recall off).

They are combined by a logistic model whose coefficients are data (bot/data/recall_judgement.json),
fitted on first reports of real incidents by organisation fold (bench/fit_recall_judgement.py,
which a team reruns on its own history). A new feature is a new entry in FEATURES and a refit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from statistics import fmean, pstdev

from bot.models import RecallMatch
from bot.recall.floor import DEFAULT_FLOOR, judge, meaning_share
from bot.recall.signals import Signals

JUDGEMENT_PATH = Path(__file__).resolve().parent.parent / "data" / "recall_judgement.json"
STRONG, WEAK, BELOW = "strong", "weak", "below"
MAX_STRONG = 5
"""A thread posts at most this many memories."""
MAX_WEAK = 3
"""The weak line names at most this many."""
STANDOUT_CAP = 5.0


@dataclass(frozen=True, slots=True)
class Context:
    """What a feature may read of one candidate: its signals, its relevance among the others'."""

    signals: Signals
    relevance: float
    others_best: float
    mean: float
    spread: float
    head: float
    score_lead: float
    """The fused score's distance to the best other candidate's (ranking's own margin)."""


def _agreement(s: Signals) -> float:
    parts = [s.signature, 1.0 if s.concepts > 0 else 0.0, s.same_service]
    if s.similarity is not None:
        parts.append(1.0 if meaning_share(s.similarity) > 0 else 0.0)
    return sum(parts) / len(parts)


FEATURES: dict[str, Callable[[Context], float]] = {
    "relevance": lambda c: c.relevance,
    "lead": lambda c: c.relevance - c.others_best,
    "standout": lambda c: min(STANDOUT_CAP, (c.relevance - c.mean) / c.spread) if c.spread > 0 else 0.0,
    "agreement": lambda c: _agreement(c.signals),
    "head": lambda c: c.head,
    "score_lead": lambda c: c.score_lead,
    "meaning": lambda c: meaning_share(c.signals.similarity),
}


@dataclass(frozen=True, slots=True)
class Judgement:
    coefficients: dict[str, float]
    intercept: float
    strong_from: float
    """Probability from which a memory is strong (posted in the thread)."""
    weak_from: float
    """Probability from which a memory is weak (named in the one line), if among the first MAX_WEAK."""
    fitted_on: dict[str, object] = field(default_factory=dict)
    floor: float = DEFAULT_FLOOR
    """A memory at or over the relevance floor (floor.py) stays strong: the judgement adds what
    the floor hid (a short report against a long postmortem); it takes nothing the floor posted
    away, so the bank's own figures (eval/incidents, jira-dev) cannot get worse than before."""

    def probability(self, features: dict[str, float]) -> float:
        z = self.intercept + sum(w * features.get(name, 0.0) for name, w in self.coefficients.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def tier(self, probability: float, position: int, relevance: float = 0.0) -> str:
        """position: 0-based place among the ranked matches (a weak line names the first few)."""
        if (probability >= self.strong_from or relevance >= self.floor) and position < MAX_STRONG:
            return STRONG
        if probability >= self.weak_from and position < MAX_WEAK:
            return WEAK
        return BELOW

    def as_json(self) -> dict[str, object]:
        return {"coefficients": self.coefficients, "intercept": self.intercept, "strong_from": self.strong_from,
                "weak_from": self.weak_from, "fitted_on": self.fitted_on, "floor": self.floor}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict) -> Judgement:
        unknown = set(data["coefficients"]) - set(FEATURES)
        if unknown:
            raise ValueError(f"recall judgement names unknown features: {sorted(unknown)}")
        return cls(
            {k: float(v) for k, v in data["coefficients"].items()}, float(data["intercept"]),
            float(data["strong_from"]), float(data["weak_from"]), dict(data.get("fitted_on", {})),
            float(data.get("floor", DEFAULT_FLOOR)),
        )  # fmt: skip


def settle(tiers: Sequence[str]) -> list[str]:
    """The tiers as shown: a weak line only when nothing is strong (a thread says it better)."""
    if STRONG in tiers:
        return [BELOW if t == WEAK else t for t in tiers]
    return list(tiers)


def split_by_tier(matches: Sequence[RecallMatch]) -> tuple[list[RecallMatch], list[RecallMatch], list[RecallMatch]]:
    """(strong, weak, below), each in recall order: what every surface shows (thread, /recall,
    App Home, the investigation, the CLI) is decided here and by the tiers the pipeline set."""
    return (
        [m for m in matches if m.tier == STRONG],
        [m for m in matches if m.tier == WEAK],
        [m for m in matches if m.tier == BELOW],
    )


@lru_cache(maxsize=8)
def load_judgement(path: Path = JUDGEMENT_PATH) -> Judgement:
    return Judgement.from_json(json.loads(path.read_text(encoding="utf-8")))


def _others_best(values: Sequence[float]) -> list[float]:
    """For each value, the best of the others (the runner-up for the best one)."""
    ordered = sorted(values, reverse=True)
    second = ordered[1] if len(ordered) > 1 else 0.0
    return [second if v == ordered[0] else ordered[0] for v in values]


def features_of(signals: Sequence[Signals], scores: Sequence[float]) -> list[dict[str, float]]:
    """Each candidate's features, read against the whole candidate list (one query's)."""
    relevances = [judge(s) for s in signals]
    if not relevances:
        return []
    mean, spread = fmean(relevances), pstdev(relevances)
    out = []
    for s, r, best, score, score_best in zip(
        signals, relevances, _others_best(relevances), scores, _others_best(scores), strict=True
    ):
        context = Context(s, r, best, mean, spread, s.head, score - score_best)
        out.append({name: round(f(context), 4) for name, f in FEATURES.items()})
    return out
