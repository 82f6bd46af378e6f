"""Signals: what each candidate has going for it, each a number in [0, 1]."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from bot.recall.candidates import Candidate
from bot.models import RecallQuery, TruthState

# A verified fix outranks an unverified guess with the same text.
TRUTH_WEIGHT: dict[TruthState, float] = {
    TruthState.VERIFICATION_CONFIRMED: 1.0,
    TruthState.HUMAN_CONFIRMED: 0.9,
    TruthState.UNCONFIRMED_HYPOTHESIS: 0.6,
    TruthState.SUPERSEDED: 0.5,
    TruthState.REJECTED: 0.0,
}
RECENCY_HALF_LIFE_DAYS = 365.0


@dataclass(frozen=True, slots=True)
class Signals:
    lexical: float
    signature: float
    """1 when the memory failed with the same error signature."""
    concepts: float
    """Share of the query's incident vocabulary concepts the memory names too."""
    same_service: float
    truth: float
    recency: float
    feedback: float


def _same(a: str | None, b: str | None) -> bool:
    return bool(a and b and a.strip().lower() == b.strip().lower())


def measure(
    query: RecallQuery, candidates: list[Candidate], now: datetime, query_concepts: tuple[str, ...] = ()
) -> list[Signals]:
    top = max((c.lexical for c in candidates), default=0.0) or 1.0
    out: list[Signals] = []
    for c in candidates:
        m = c.memory
        when = m.happened_at  # None: an undated imported postmortem, neither new nor old
        age_days = max(0.0, (now - when).total_seconds() / 86400.0) if when else RECENCY_HALF_LIFE_DAYS
        votes = c.helpful_votes - c.not_relevant_votes
        out.append(
            Signals(
                lexical=c.lexical / top,
                signature=1.0 if c.same_signature else 0.0,
                concepts=len(c.shared_concepts) / len(query_concepts) if query_concepts else 0.0,
                same_service=1.0 if _same(query.service, m.service) else 0.0,
                truth=TRUTH_WEIGHT[m.truth_state],
                recency=math.pow(0.5, age_days / RECENCY_HALF_LIFE_DAYS),
                feedback=0.5 + 0.5 * math.tanh(votes / 2.0),
            )
        )
    return out
