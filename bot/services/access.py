"""The policy (bot.policy) applied to what is stored: which memory or incident may be seen from
a channel, and who may change what the team treats as true. Services call this; handlers do not.
"""

from __future__ import annotations

from bot.errors import MemoryNotFound
from bot.memory.incidents import IncidentStore
from bot.memory.port import MemoryStore
from bot.models import IncidentRecord, MemoryRecord, incident_of
from bot.policy import Act, Actor, Reviewers, declarer_rights, may, require, visible_in


def memory_visible(memory: MemoryRecord, channel_id: str | None, *, channel_isolated: bool = False) -> bool:
    return visible_in(
        is_private=memory.is_private, home_channel=memory.channel_id, channel_id=channel_id,
        channel_isolated=channel_isolated,
    )  # fmt: skip


def incident_visible(incident: IncidentRecord, channel_id: str | None) -> bool:
    return visible_in(is_private=incident.is_private, home_channel=incident.channel, channel_id=channel_id)


class Access:
    def __init__(self, memory: MemoryStore, incidents: IncidentStore, reviewers: Reviewers) -> None:
        self._memory = memory
        self._incidents = incidents
        self.reviewers = reviewers

    async def memory(
        self, team_id: str, incident_id: str, channel_id: str | None, *, channel_isolated: bool | None = None
    ) -> MemoryRecord:
        """The memory as seen from `channel_id`. A private channel's memory seen from anywhere
        else is not found: its existence is not told either; nor is any other channel's memory
        seen from an isolated channel (`channel_isolated`; None: as its latest incident says)."""
        memory = await self._memory.get(team_id, incident_id)
        if memory.channel_id != channel_id and channel_isolated is None and channel_id:
            latest = await self._incidents.latest_in_channel(team_id, channel_id)
            channel_isolated = latest is not None and latest.is_isolated
        if not memory_visible(memory, channel_id, channel_isolated=bool(channel_isolated)):
            raise MemoryNotFound(incident_id, team_id)
        return memory

    async def declarer(self, team_id: str, incident_id: str) -> str | None:
        """Who declared the incident a memory was kept from (None: imported, or detected)."""
        incident = await self._incidents.get(team_id, incident_id)
        if incident is None and incident_of(incident_id) != incident_id:  # a hypothesis or a revision
            incident = await self._incidents.get(team_id, incident_of(incident_id))
        return incident.declared_by if incident is not None else None

    async def require(self, actor: Actor, act: Act, memory: MemoryRecord) -> None:
        """NotAllowed (saying who can) unless `actor` may do `act` to `memory` (verifying: never
        the author of its resolution, the person who confirmed it)."""
        declared_by = await self.declarer(memory.team_id, memory.incident_id)
        author = memory.verified_by if act is Act.VERIFY else None
        require(actor, act, declared_by=declared_by, reviewers=self.reviewers, author=author)

    def require_for_incident(
        self, actor: Actor, act: Act, incident: IncidentRecord, *, in_channel: bool = False, author: str | None = None
    ) -> None:
        require(
            actor, act, declared_by=incident.declared_by, reviewers=self.reviewers, in_channel=in_channel, author=author
        )

    def may_close(self, actor: Actor, incident: IncidentRecord, *, in_channel: bool) -> bool:
        """Whether `actor`'s resolution closes `incident` (else it is kept as a hypothesis)."""
        return may(actor, Act.RESOLVE, declared_by=incident.declared_by, in_channel=in_channel)

    async def take_declarer_rights(self, incident: IncidentRecord, user_id: str, *, in_channel: bool) -> IncidentRecord:
        """A member of an undeclared incident's channel acts in it (speaks, resolves): the first
        takes the declarer's rights (bot/policy.py `declarer_rights`). Anyone else takes nothing."""
        if declarer_rights(incident.declared_by) is not None or not in_channel:
            return incident
        return await self._incidents.claim_declarer(incident.team, incident.incident_id, user_id) or incident
