"""Purging an incident for good: its memory (and, as told, the memories it superseded) and its
channel timeline. Looked at first (`plan`), so that a person can be asked; then done, with a
content-free record of who purged which id and when (kept by each store)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.errors import MemoryNotFound, PurgeRefused
from bot.memory.incidents import IncidentStore
from bot.memory.port import MemoryStore, SupersededHandling
from bot.models import MemoryRecord
from bot.policy import Act, Actor, Reviewers, require


@dataclass(frozen=True, slots=True)
class PurgePlan:
    team_id: str
    incident_id: str
    memory: MemoryRecord | None
    incident: bool  # the bot tracked it in a channel: the incident and its timeline go too
    declared_by: str | None
    superseded: list[str] = field(default_factory=list)  # memories this one supersedes


@dataclass(frozen=True, slots=True)
class PurgeResult:
    purged: list[str]  # memories, the asked-for one first
    restored: list[str]
    timeline_messages: int | None  # None: there was no incident


class PurgeService:
    def __init__(self, memory: MemoryStore, incidents: IncidentStore, *, reviewers: Reviewers | None = None) -> None:
        self._memory = memory
        self._incidents = incidents
        self._reviewers = reviewers or Reviewers()

    async def plan(self, team_id: str, incident_id: str) -> PurgePlan:
        """What purging `incident_id` would delete; MemoryNotFound when there is nothing."""
        try:
            memory: MemoryRecord | None = await self._memory.get(team_id, incident_id)
        except MemoryNotFound:
            memory = None
        incident = await self._incidents.get(team_id, incident_id)
        if memory is None and incident is None:
            raise MemoryNotFound(incident_id, team_id)
        superseded = await self._memory.superseded_by(team_id, incident_id) if memory else []
        return PurgePlan(
            team_id, incident_id, memory, incident is not None, incident.declared_by if incident else None, superseded
        )

    async def purge(self, plan: PurgePlan, *, by: Actor, superseded: SupersededHandling) -> PurgeResult:
        """NotAllowed unless the policy lets `by`; PurgeRefused (nothing purged) when the memory
        supersedes others and `superseded` is REFUSE."""
        require(by, Act.PURGE, declared_by=plan.declared_by, reviewers=self._reviewers)
        if plan.superseded and superseded is SupersededHandling.REFUSE:
            raise PurgeRefused(plan.incident_id, plan.superseded)
        purged: list[str] = []
        restored: list[str] = []
        if plan.memory is not None:
            outcome = await self._memory.purge(plan.team_id, plan.incident_id, purged_by=by.id, superseded=superseded)
            purged, restored = outcome.purged, outcome.restored
        messages = await self._incidents.forget(plan.team_id, plan.incident_id, purged_by=by.id)
        return PurgeResult(purged, restored, messages)
