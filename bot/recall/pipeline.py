"""The recall pipeline: candidates → signals → fusion → floor → reasons, top k by score.

Every match carries its relevance (floor.judge), probability and tier (judgement.py); what is
shown is what the tiers say (judgement.split_by_tier), so replay and `recall --all` can still
see what fell below.

Pure: the query's terms go to a store, which answers with candidates (bot/memory/search.py in
PostgreSQL); `rank` does the rest. The composition (ask the store, then rank) is
bot/services/recall.py.
"""

from __future__ import annotations

from bot.models import RecallMatch, RecallQuery, TruthState, utcnow
from bot.recall.candidates import Candidate
from bot.recall.concepts import Vocabulary, load_vocabulary
from bot.recall.document import QueryTerms, query_terms
from bot.recall.features import features_of
from bot.recall.floor import judge
from bot.recall.fusion import DEFAULT_WEIGHTS, FusionWeights, fuse
from bot.recall.judgement import Judgement, load_judgement
from bot.recall.judgement_rules import rule_of
from bot.recall.reasons import explain
from bot.recall.signals import measure, opening_terms
from bot.recall.tokens import surface_forms


class Recaller:
    def __init__(
        self, weights: FusionWeights = DEFAULT_WEIGHTS, vocabulary: Vocabulary | None = None,
        judgement: Judgement | None = None,
    ) -> None:  # fmt: skip
        self._weights = weights
        self.judgement = judgement or load_judgement()
        self.vocabulary = vocabulary or load_vocabulary()

    def with_floor(self, floor: float) -> Recaller:
        """The same recall with another relevance floor (RECALL_FLOOR) under the judgement."""
        if floor == self.judgement.floor:
            return self
        return Recaller(self._weights, self.vocabulary, self.judgement.with_floor(floor))

    def terms(self, query: RecallQuery) -> QueryTerms:
        """What the store searches with: the query's terms, error signature and concepts."""
        return query_terms(query, self.vocabulary)

    def rank(self, query: RecallQuery, terms: QueryTerms, candidates: list[Candidate]) -> list[RecallMatch]:
        """The store's candidates, measured, fused, explained, best `query.limit` first."""
        # ages are taken at the incident's time: a replay of 2012 asks what was recent in 2012
        now = query.occurred_before or utcnow()
        surfaces = surface_forms(query.title, query.text, query.error_message)
        signals = measure(query, candidates, now, terms.concepts)
        fused = [fuse(signal, self._weights) for signal in signals]
        # the judgement reads each candidate against all the others (its lead, how it stands out)
        evidence = features_of(signals, [score for score, _ in fused], [opening_terms(c.memory) for c in candidates])
        scored = [
            (score, candidate, signal, components, features)
            for candidate, signal, (score, components), features in zip(
                candidates, signals, fused, evidence, strict=True
            )
        ]
        # ties break on the memory's identity so the same query always answers the same way
        scored.sort(key=lambda s: (-s[0], s[1].memory.incident_id))
        # a query recalled with meaning is judged by the model fitted with meaning (judgement.py)
        # a short query (a first report) by the model that reads its phrases (judgement.Judgement.short)
        judgement = self.judgement.for_query(
            any(s.similarity is not None for s in signals), signals[0].query_phrases if signals else 0.0
        )
        shown = scored[: query.limit]
        probabilities = [judgement.probability(features) for *_, features in shown]
        relevances = [judge(signal) for _, _, signal, _, _ in shown]
        rules = [
            rule_of(r, components, features) for r, (*_, components, features) in zip(relevances, shown, strict=True)
        ]
        # the weak line by the model's weak model when it has one (Judgement.weak), the thread by the model
        weak = None if judgement.weak is None else [judgement.weak.probability(features) for *_, features in shown]
        tiers = judgement.tiers(probabilities, relevances, [tier for tier, _ in rules], weak)
        out = []
        for (score, candidate, signal, components, features), probability, relevance, tier, rule, line in zip(
            shown, probabilities, relevances, tiers, rules, weak or [None] * len(shown), strict=True
        ):
            out.append(
                RecallMatch(
                    memory=candidate.memory,
                    score=round(score, 6),
                    score_components=components,
                    relevance=relevance,
                    probability=round(probability, 4),
                    tier=tier,
                    rule=judgement.rule_behind(tier, probability, relevance, rule, line),
                    weak_probability=None if line is None else round(line, 4),
                    evidence=features,
                    parts=_parts(judgement, features),
                    reasons=explain(query, candidate, signal, now, surfaces),
                    successor_id=candidate.memory.superseded_by
                    if candidate.memory.truth_state is TruthState.SUPERSEDED
                    else None,
                )
            )
        return out


def _parts(judgement: Judgement, features: dict[str, float]) -> dict[str, float]:
    """What makes the probability: each read feature times its weight, then the intercept."""
    terms = {name: round(weight * features.get(name, 0.0), 3) for name, weight in judgement.coefficients.items()}
    return terms | {"intercept": round(judgement.intercept, 3)}
