"""The recall pipeline: candidates → signals → fusion → reasons, top k by score."""

from __future__ import annotations

from typing import Protocol

from bot.memory.recall.candidates import Candidate
from bot.memory.recall.concepts import Vocabulary, load_vocabulary
from bot.memory.recall.document import QueryTerms, query_terms
from bot.memory.recall.floor import judge
from bot.memory.recall.fusion import DEFAULT_WEIGHTS, FusionWeights, fuse
from bot.memory.recall.reasons import explain
from bot.memory.recall.signals import measure
from bot.memory.recall.tokens import surface_forms
from bot.models import RecallMatch, RecallQuery, TruthState, utcnow


class CandidateSource(Protocol):
    async def candidates(self, query: RecallQuery, terms: QueryTerms, *, pool_size: int = ...) -> list[Candidate]: ...


class Recaller:
    def __init__(
        self, source: CandidateSource, weights: FusionWeights = DEFAULT_WEIGHTS, vocabulary: Vocabulary | None = None
    ) -> None:
        self._source = source
        self._weights = weights
        self.vocabulary = vocabulary or load_vocabulary()

    async def recall(self, query: RecallQuery) -> list[RecallMatch]:
        # ages are taken at the incident's time: a replay of 2012 asks what was recent in 2012
        now = query.occurred_before or utcnow()
        terms = query_terms(query, self.vocabulary)
        surfaces = surface_forms(query.title, query.text, query.error_message)
        candidates = await self._source.candidates(query, terms)
        signals = measure(query, candidates, now, terms.concepts)
        scored = []
        for candidate, signal in zip(candidates, signals, strict=True):
            score, components = fuse(signal, self._weights)
            scored.append((score, candidate, signal, components))
        # ties break on the memory's identity so the same query always answers the same way
        scored.sort(key=lambda s: (-s[0], s[1].memory.incident_id))
        return [
            RecallMatch(
                memory=candidate.memory,
                score=round(score, 6),
                score_components=components,
                relevance=judge(signal),
                reasons=explain(query, candidate, signal, now, surfaces),
                successor_id=candidate.memory.superseded_by
                if candidate.memory.truth_state is TruthState.SUPERSEDED
                else None,
            )
            for score, candidate, signal, components in scored[: query.limit]
        ]
