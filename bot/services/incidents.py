"""Declaring, detecting and watching incidents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from bot.memory.incidents import IncidentStore
from bot.memory.message_changes import PostgresMessageChanges
from bot.models import MAX_TEXT, Incident, IncidentRecord
from bot.observability import Metrics, bind
from bot.services.access import incident_visible


@dataclass(frozen=True, slots=True)
class ChannelInfo:
    id: str
    name: str
    is_private: bool = False
    topic: str = ""
    purpose: str = ""
    is_member: bool = True  # whether the bot is in it (it can only post where it is)
    is_isolated: bool = False  # kept to itself: Slack Connect, or guests (GUEST_CHANNELS=isolated)


def _clip(text: str | None) -> str | None:
    return text[:MAX_TEXT] if text else None


def incident_from_channel(channel: ChannelInfo) -> Incident:
    """An incident named after its channel: `inc-checkout-timeouts` → "checkout timeouts"."""
    words = re.sub(r"^inc[-_]?", "", channel.name, flags=re.IGNORECASE).replace("-", " ").replace("_", " ").strip()
    title = channel.topic.strip() or words or channel.name
    symptoms = "\n".join(x for x in (channel.purpose.strip(), words if channel.topic.strip() else "") if x)
    return Incident(title=_clip(title) or channel.name, symptoms=_clip(symptoms), channel=channel.id)


class IncidentService:
    def __init__(
        self, incidents: IncidentStore, channel_pattern: str, *, metrics: Metrics | None = None,
        request_claims: IncidentStore | None = None, changes: PostgresMessageChanges | None = None,
    ) -> None:  # fmt: skip
        self._incidents = incidents
        self._changes = changes
        # the replay claim runs before the ack: on the request path's own connections when given
        self._claims = request_claims or incidents
        self._pattern = re.compile(channel_pattern)
        self._metrics = metrics

    def is_incident_channel(self, name: str | None) -> bool:
        return bool(name and self._pattern.search(name))

    async def declare(
        self, team_id: str, channel: ChannelInfo, incident: Incident, *, declared_by: str | None
    ) -> tuple[IncidentRecord, bool]:
        opened = await self._incidents.open_incident(
            team_id, channel.id, incident.model_copy(update={"channel": channel.id, "team": team_id}),
            channel_name=channel.name, is_private=channel.is_private, declared_by=declared_by,
            is_isolated=channel.is_isolated,
        )  # fmt: skip
        bind(incident=opened[0].incident_id)
        return opened

    async def detect(self, team_id: str, channel: ChannelInfo) -> tuple[IncidentRecord, bool] | None:
        """Open an incident for a channel whose name matches the pattern (unless one is open)."""
        if not self.is_incident_channel(channel.name):
            return None
        return await self.declare(team_id, channel, incident_from_channel(channel), declared_by=None)

    async def record_message(
        self, team_id: str, channel_id: str, message_ts: str, author: str, text: str, at: datetime,
        *, event_id: str | None,
    ) -> bool:  # fmt: skip
        """False when the store had seen this event (or message) already: a repeat, dropped."""
        appended = await self._incidents.append_message(
            team_id, channel_id, message_ts, author, text, at, event_id=event_id
        )
        if not appended and self._metrics is not None:
            self._metrics.events_deduplicated.inc()
        return appended

    async def message_deleted(self, team_id: str, channel_id: str, message_ts: str) -> int:
        """A message deleted in Slack leaves the timeline, the marks and the stored drafts."""
        return await self._changes.deleted(team_id, channel_id, message_ts) if self._changes else 0

    async def message_edited(self, team_id: str, channel_id: str, message_ts: str, text: str) -> int:
        """An edited message is its new text wherever it is stored."""
        return await self._changes.edited(team_id, channel_id, message_ts, text) if self._changes else 0

    async def prune_message_text(self, resolved_days_ago: float) -> int:
        """Marks and drafts (message text) of incidents resolved long ago, as prune_timelines."""
        return await self._changes.prune(resolved_days_ago) if self._changes else 0

    async def claim_request(self, team_id: str, key: str) -> bool:
        """True the first time a signed request is seen by any instance (replays are False).
        Kept with the event ids, and forgotten with them."""
        return await self._claims.claim_event(team_id, key)

    async def open_in(self, team_id: str, channel_id: str) -> IncidentRecord | None:
        incident = await self._incidents.open_in_channel(team_id, channel_id)
        if incident is not None:
            bind(incident=incident.incident_id)
        return incident

    async def latest_in(self, team_id: str, channel_id: str) -> IncidentRecord | None:
        return await self._incidents.latest_in_channel(team_id, channel_id)

    async def get(self, team_id: str, incident_id: str) -> IncidentRecord | None:
        return await self._incidents.get(team_id, incident_id)

    async def get_from(self, team_id: str, incident_id: str, channel_id: str | None) -> IncidentRecord | None:
        """The incident as acted on from `channel_id`: a private channel's only from there."""
        incident = await self._incidents.get(team_id, incident_id)
        return incident if incident is not None and incident_visible(incident, channel_id) else None

    async def remember_recall_thread(self, incident: IncidentRecord, thread_ts: str) -> None:
        await self._incidents.set_recall_thread(incident.team, incident.incident_id, thread_ts)

    async def timeline(self, incident: IncidentRecord):  # noqa: ANN201 - list[TimelineEntry]
        return await self._incidents.timeline(incident.team, incident.incident_id)

    async def unread(self, incident: IncidentRecord, read: int) -> str | None:
        """What an investigation that read `read` messages says about the ones it did not: the
        oldest, past what it reads or what the incident keeps (TIMELINE_MAX_MESSAGES)."""
        kept, dropped = await self._incidents.timeline_size(incident.team, incident.incident_id)
        left_out = kept - read + dropped
        if left_out <= 0:
            return None
        why = []
        if kept > read:
            why.append(f"an investigation reads the newest {read:,}")
        if dropped:
            why.append(f"the incident keeps only its newest {kept:,} (TIMELINE_MAX_MESSAGES)")
        return f"The {left_out:,} oldest channel messages were not read: {' and '.join(why)}."

    async def prune_events(self, older_than_hours: float = 24.0) -> int:
        return await self._incidents.prune_events(older_than_hours)

    async def prune_timelines(self, resolved_days_ago: float) -> int:
        """The channel messages of incidents resolved long ago, and the marks and drafts that
        hold their words: retention covers every table with message text."""
        pruned = await self._incidents.prune_timelines(resolved_days_ago)
        return pruned + await self.prune_message_text(resolved_days_ago)
