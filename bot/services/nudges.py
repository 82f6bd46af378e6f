"""No incident closes silently: the bot asks once for what was learned, and reminds the declarer
once a day later at most.

An ask is triggered by words that say it is over ("resolved", "all clear", "mitigated"), by every
alert of the incident resolving, by a channel quiet for RESOLUTION_NUDGE_AFTER_H hours, or by the
channel's archiving (then by direct message to the declarer). Every nudge is a stored row first (bot/memory/nudges.py): it survives a
restart and is sent once however many instances run.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.config import Settings
from bot.jobs.reading import INLINE, ReadingPool, ReadingTooLong
from bot.memory.nudges import DueNudge, NudgeStore
from bot.models import IncidentRecord, IncidentStatus
from bot.reader.over import says_it_is_over

log = logging.getLogger(__name__)

ASK = "ask"
REMINDER = "reminder"


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a nudge goes: the incident's channel, or a person's direct messages."""

    channel: str
    direct: bool


class NudgeService:
    def __init__(
        self, store: NudgeStore, *, quiet_hours: float, reminder_after_h: float = 24.0, lease_s: float = 120.0,
        reading: ReadingPool = INLINE,
    ) -> None:  # fmt: skip
        self._store = store
        self.reading = reading
        self.quiet_hours = quiet_hours
        self.reminder_after_h = reminder_after_h
        self.lease_s = lease_s

    @classmethod
    def from_settings(cls, settings: Settings, store: NudgeStore, reading: ReadingPool = INLINE) -> NudgeService:
        return cls(
            store, quiet_hours=settings.resolution_nudge_after_h,
            reminder_after_h=settings.resolution_reminder_after_h, reading=reading,
        )  # fmt: skip

    async def heard(self, incident: IncidentRecord, text: str) -> bool:
        """A channel message: True when it says the incident is over and no ask was made yet."""
        if incident.status is not IncidentStatus.OPEN:
            return False
        # the caller stored the message cut to READ_MESSAGE_CHARS: that is what is read
        try:
            said = await self.reading.run(
                'The "is it over?" check', says_it_is_over, text, size=len(text), max_chars=len(text)
            )
        except ReadingTooLong as exc:  # the message is kept; only this ask is not made
            log.warning("%s; no resolution nudge for this message", exc)
            return False
        if not said:
            return False
        return await self._store.request(incident.team, incident.incident_id, "said_fixed")

    async def alerts_resolved(self, incident: IncidentRecord) -> bool:
        """Every alert that opened or joined the incident has resolved: ask once for its outcome."""
        if incident.status is not IncidentStatus.OPEN:
            return False
        return await self._store.request(incident.team, incident.incident_id, "alerts_resolved")

    async def archived(self, team_id: str, channel_id: str) -> IncidentRecord | None:
        """The channel was archived with its incident open: the declarer will be asked."""
        incident = await self._store.mark_archived(team_id, channel_id)
        if incident is not None:
            await self._store.request(team_id, incident.incident_id, "archived")
        return incident

    async def claim_due(self, limit: int = 20) -> list[DueNudge]:
        """Asks for channels quiet too long are made due, then the due nudges this instance
        holds for its lease."""
        await self._store.schedule_quiet(self.quiet_hours)
        return await self._store.claim_due(lease_s=self.lease_s, limit=limit)

    @staticmethod
    def destination(due: DueNudge) -> Destination | None:
        """The ask goes to the channel while it is not archived; the reminder (and an ask for an
        archived channel) to the declarer. None: nobody to ask (a detected incident's channel
        was archived: no declarer)."""
        if due.step == ASK and not due.channel_archived:
            return Destination(due.incident.channel, direct=False)
        if due.incident.declared_by:
            return Destination(due.incident.declared_by, direct=True)
        return None

    async def sent(self, due: DueNudge, destination: Destination, message_ts: str | None) -> None:
        await self._store.mark_sent(
            due.incident.team, due.incident.incident_id, due.step, sent_to=destination.channel, message_ts=message_ts,
            reminder_after_h=self.reminder_after_h if due.step == ASK else None,
        )  # fmt: skip

    async def skip(self, due: DueNudge, why: str) -> None:
        await self._store.skip(due.incident.team, due.incident.incident_id, due.step, why)

    async def failed(self, due: DueNudge) -> None:
        """Sending failed: the next sweep tries again."""
        await self._store.release(due.incident.team, due.incident.incident_id, due.step)

    async def nudges(self, incident: IncidentRecord) -> list[dict]:
        return await self._store.nudges(incident.team, incident.incident_id)
