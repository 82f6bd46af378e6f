"""Limits on cost: how many investigations and drafted resolutions a person and a channel may
start in an hour (INVESTIGATIONS_PER_PERSON_PER_HOUR … DRAFTS_PER_CHANNEL_PER_HOUR). A refusal is
a sentence for the person: what the limit is, which setting holds it, and when they can again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from math import ceil

import asyncpg

from bot.config import Settings
from bot.memory.limits import Admission, PostgresWorkLimits
from bot.observability import Metrics
from bot.observability.store import count_store_errors

INVESTIGATION = "investigation"
DRAFT = "draft"
_WORDS = {INVESTIGATION: ("investigation", "start"), DRAFT: ("drafted resolution", "ask for")}


@dataclass(frozen=True, slots=True)
class Limits:
    investigations_per_person: int = 6
    investigations_per_channel: int = 20
    drafts_per_person: int = 6
    drafts_per_channel: int = 20


@dataclass(frozen=True, slots=True)
class Ticket:
    """An admitted request (`refusal` None), or why it was not."""

    request_id: int | None
    refusal: str | None = None


class WorkLimits:
    def __init__(self, store: PostgresWorkLimits, limits: Limits | None = None) -> None:
        self._store = store
        self.limits = limits or Limits()

    @classmethod
    def from_settings(cls, settings: Settings, pool: asyncpg.Pool, metrics: Metrics) -> WorkLimits:
        return cls(
            count_store_errors(PostgresWorkLimits(pool), metrics, name="limits"),
            Limits(
                settings.investigations_per_person_per_hour, settings.investigations_per_channel_per_hour,
                settings.drafts_per_person_per_hour, settings.drafts_per_channel_per_hour,
            ),
        )  # fmt: skip

    async def admit(self, kind: str, team_id: str, user_id: str, channel_id: str) -> Ticket:
        per_person, per_channel = (
            (self.limits.investigations_per_person, self.limits.investigations_per_channel)
            if kind == INVESTIGATION
            else (self.limits.drafts_per_person, self.limits.drafts_per_channel)
        )
        admission = await self._store.admit(
            team_id, kind, user_id, channel_id, per_person=per_person, per_channel=per_channel
        )
        if admission.request_id is not None:
            return Ticket(admission.request_id)
        return Ticket(None, refusal(kind, admission))

    async def refund(self, ticket: Ticket) -> None:
        if ticket.request_id is not None:
            await self._store.refund(ticket.request_id)


def refusal(kind: str, admission: Admission, now: datetime | None = None) -> str:
    thing, verb = _WORDS[kind]
    things = thing if admission.used == 1 else thing + "s"
    setting = f"{kind.upper()}S_PER_{(admission.refused_by or 'person').upper()}_PER_HOUR"
    who = "You have" if admission.refused_by == "person" else "This channel has"
    wait = ""
    if admission.free_at is not None:
        minutes = max(1, ceil((admission.free_at - (now or datetime.now(UTC))).total_seconds() / 60))
        wait = f" You can {verb} another in {minutes} minute{'s' if minutes != 1 else ''}."
    return (
        f"{who} {'started' if kind == INVESTIGATION else 'asked for'} {admission.used} {things} in the last hour, "
        f"the most allowed ({setting}), so this one was not started.{wait}"
    )
