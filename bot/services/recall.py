"""Recall for an incident or for free text, with conflicts flagged (never blended)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.memory.port import FeedbackKind, MemoryStore
from bot.memory.recall.conflicts import conflict_clusters
from bot.memory.recall.floor import DEFAULT_FLOOR, split_at_floor
from bot.models import IncidentRecord, RecallMatch, RecallQuery, TruthState
from bot.observability import Metrics, bind


@dataclass(frozen=True, slots=True)
class RecallResult:
    matches: list[RecallMatch]
    """What a responder is shown: the recalled memories at or above the relevance floor."""
    conflicts: dict[str, list[list[str]]] = field(default_factory=dict)
    """service → incident_ids of shown memories grouped by the root cause they name, for the
    services whose shown memories name two or more (groups disagree; one group's members agree)"""
    under_floor: list[RecallMatch] = field(default_factory=list)
    """Recalled but not relevant enough to show."""


class RecallService:
    def __init__(
        self, memory: MemoryStore, *, limit: int = 5, floor: float = DEFAULT_FLOOR, metrics: Metrics | None = None
    ) -> None:
        self._memory = memory
        self._limit = limit
        self._floor = floor
        self._metrics = metrics

    async def _run(self, query: RecallQuery, kind: str) -> RecallResult:
        if self._metrics is None:
            matches = await self._memory.recall(query)
        else:
            with self._metrics.timed(self._metrics.recall_latency, kind=kind):
                matches = await self._memory.recall(query)
        shown, under = split_at_floor(matches, self._floor)
        return RecallResult(shown, conflict_clusters(shown), under)

    async def for_incident(self, incident: IncidentRecord) -> RecallResult:
        bind(incident=incident.incident_id)
        # the incident's own memory (resolved before, now recalled in its channel) is not "past"
        query = RecallQuery.for_incident(incident, incident.team, limit=self._limit, exclude_ids=[incident.incident_id])
        return await self._run(query, "incident")

    async def for_text(self, team_id: str, channel_id: str | None, text: str) -> RecallResult:
        return await self._run(RecallQuery(team_id=team_id, title=text, channel_id=channel_id, limit=self._limit), "text")

    async def feedback(self, team_id: str, incident_id: str, user_id: str, kind: FeedbackKind) -> None:
        await self._memory.record_feedback(team_id, incident_id, user_id, kind)

    async def reject(self, team_id: str, incident_id: str, user_id: str, reason: str):  # noqa: ANN201
        return await self._memory.transition(team_id, incident_id, TruthState.REJECTED, actor=user_id, reason=reason)

    async def memory(self, team_id: str, incident_id: str):  # noqa: ANN201
        return await self._memory.get(team_id, incident_id)
