"""Fusion: fold a candidate's signals into one non-negative score and its components.

Relevance is additive: lexical BM25 (normalised to the best candidate) plus the evidence that
needs no shared word — the same error signature, the same mechanism (incident vocabulary
concepts), and, when semantic recall is on, the similarity in meaning of the two texts. The other signals are
soft multipliers, so none of them can lift an unrelated memory above a related one on its own
(a hard service filter measured worse than a ×1.2 boost). A new signal is one more weight here
and one more field in Signals.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from bot.recall.signals import Signals


@dataclass(frozen=True, slots=True)
class FusionWeights:
    # additive relevance
    signature: float = 0.3
    concepts: float = 0.35
    semantic: float = 1.0  # tuned on jira-dev (docs/BENCHMARKS.md); 0 without embeddings
    same_alert: float = 1.0  # as much as the best lexical match: the same alert is the same failure
    # multipliers
    same_service: float = 0.2
    truth: float = 0.3
    recency: float = 0.3  # jira-dev: MRR@10 0.578 → 0.607 when age is taken at the incident's time
    feedback: float = 0.2


DEFAULT_WEIGHTS = FusionWeights()


def relevance(signals: Signals, weights: FusionWeights = DEFAULT_WEIGHTS) -> float:
    score = signals.lexical + weights.signature * signals.signature + weights.concepts * signals.concepts
    if signals.semantic is not None:
        score += weights.semantic * signals.semantic
    if signals.same_alert:
        score += weights.same_alert * signals.same_alert
    return score


def fuse(signals: Signals, weights: FusionWeights = DEFAULT_WEIGHTS) -> tuple[float, dict[str, float]]:
    multipliers = {
        "same_service": 1.0 + weights.same_service * signals.same_service,
        # centred so a neutral value multiplies by 1
        "truth": 1.0 + weights.truth * (signals.truth - 0.6),
        "recency": 1.0 + weights.recency * (signals.recency - 0.5),
        "feedback": 1.0 + weights.feedback * (signals.feedback - 0.5) * 2.0,
    }
    score = relevance(signals, weights)
    for factor in multipliers.values():
        score *= max(0.0, factor)
    # without embeddings the components are what they always were; numbers only (not head_found's terms)
    components = {name: round(value, 4) for name, value in asdict(signals).items() if isinstance(value, int | float)}
    components["score"] = round(max(0.0, score), 6)
    return max(0.0, score), components
