"""Recall for an incident or for free text, with conflicts flagged (never blended)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.memory.port import FeedbackKind, MemoryStore
from bot.recall.conflicts import find_conflicts
from bot.models import IncidentRecord, RecallMatch, RecallQuery, TruthState
from bot.observability import Metrics, bind


@dataclass(frozen=True, slots=True)
class RecallResult:
    matches: list[RecallMatch]
    conflicts: dict[str, list[str]] = field(default_factory=dict)
    """service → incident_ids of recalled memories that name different root causes"""


class RecallService:
    def __init__(self, memory: MemoryStore, *, limit: int = 5, metrics: Metrics | None = None) -> None:
        self._memory = memory
        self._limit = limit
        self._metrics = metrics

    async def _run(self, query: RecallQuery, kind: str) -> RecallResult:
        if self._metrics is None:
            matches = await self._memory.recall(query)
        else:
            with self._metrics.timed(self._metrics.recall_latency, kind=kind):
                matches = await self._memory.recall(query)
        return RecallResult(matches, find_conflicts(matches))

    async def for_incident(self, incident: IncidentRecord) -> RecallResult:
        bind(incident=incident.incident_id)
        query = RecallQuery.for_incident(incident, incident.team, limit=self._limit + 1)
        result = await self._run(query, "incident")
        # the incident's own memory (resolved before, now recalled in its channel) is not "past";
        # one extra was asked for so that dropping it still leaves `limit`
        past = [m for m in result.matches if m.memory.incident_id != incident.incident_id][: self._limit]
        return RecallResult(past, find_conflicts(past))

    async def for_text(self, team_id: str, channel_id: str | None, text: str) -> RecallResult:
        return await self._run(RecallQuery(team_id=team_id, title=text, channel_id=channel_id, limit=self._limit), "text")

    async def feedback(self, team_id: str, incident_id: str, user_id: str, kind: FeedbackKind) -> None:
        await self._memory.record_feedback(team_id, incident_id, user_id, kind)

    async def reject(self, team_id: str, incident_id: str, user_id: str, reason: str):  # noqa: ANN201
        return await self._memory.transition(team_id, incident_id, TruthState.REJECTED, actor=user_id, reason=reason)

    async def memory(self, team_id: str, incident_id: str):  # noqa: ANN201
        return await self._memory.get(team_id, incident_id)
