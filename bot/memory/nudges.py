"""The Postgres adapter for resolution nudges: at most one ask and one reminder per incident.

A nudge is a row before it is a message: triggers insert it (a second insert is a no-op, so two
bot instances, or "resolved" said twice, make one row), and a sender claims due rows with a
lease (`FOR UPDATE SKIP LOCKED`: two instances never claim the same one), posts, then marks it
sent. A restart loses nothing: an unsent row is claimed again once its lease runs out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.memory.incidents import _COLUMNS, _incident
from bot.memory.pool import acquire
from bot.models import IncidentRecord

_INCIDENT_COLUMNS = ", ".join(f"i.{c.strip()}" for c in _COLUMNS.split(","))


@dataclass(frozen=True, slots=True)
class DueNudge:
    incident: IncidentRecord
    step: str  # "ask" | "reminder"
    reason: str  # "said_fixed" | "quiet" | "archived" | "reminder"
    channel_archived: bool


class NudgeStore(Protocol):
    async def request(self, team_id: str, incident_id: str, reason: str) -> bool: ...
    async def schedule_quiet(self, quiet_hours: float) -> int: ...
    async def claim_due(self, *, lease_s: float, limit: int = 20) -> list[DueNudge]: ...
    async def mark_sent(
        self,
        team_id: str,
        incident_id: str,
        step: str,
        *,
        sent_to: str,
        message_ts: str | None,
        reminder_after_h: float | None,
    ) -> None: ...
    async def skip(self, team_id: str, incident_id: str, step: str, why: str) -> None: ...
    async def release(self, team_id: str, incident_id: str, step: str) -> None: ...
    async def mark_archived(self, team_id: str, channel_id: str) -> IncidentRecord | None: ...
    async def nudges(self, team_id: str, incident_id: str) -> list[dict]: ...


class PostgresNudgeStore:
    def __init__(self, pool) -> None:  # noqa: ANN001 - asyncpg.Pool
        self._pool = pool

    async def request(self, team_id: str, incident_id: str, reason: str) -> bool:
        """Ask for the incident's outcome now (unless it was asked already, or is resolved)."""
        async with acquire(self._pool) as conn:
            inserted = await conn.fetchval(
                """INSERT INTO resolution_nudges (incident_pk, step, reason)
                   SELECT pk, 'ask', $3 FROM incidents WHERE team_id = $1 AND incident_id = $2 AND status = 'open'
                   ON CONFLICT DO NOTHING RETURNING true""",
                team_id, incident_id, reason,
            )  # fmt: skip
        return bool(inserted)

    async def schedule_quiet(self, quiet_hours: float) -> int:
        """An ask for every open incident whose channel has been quiet this long; how many."""
        async with acquire(self._pool) as conn:
            count = await conn.fetchval(
                """WITH asked AS (
                       INSERT INTO resolution_nudges (incident_pk, step, reason)
                       SELECT pk, 'ask', 'quiet' FROM incidents
                       WHERE status = 'open'
                         AND coalesce(last_message_at, started_at) < now() - make_interval(secs => $1)
                       ON CONFLICT DO NOTHING RETURNING 1)
                   SELECT count(*) FROM asked""",
                quiet_hours * 3600.0,
            )  # fmt: skip
        return int(count)

    async def claim_due(self, *, lease_s: float, limit: int = 20) -> list[DueNudge]:
        """Due nudges this instance now holds for `lease_s` seconds. Nudges of incidents resolved
        meanwhile are skipped here, never sent."""
        async with acquire(self._pool) as conn, conn.transaction():
            await conn.execute(
                """UPDATE resolution_nudges n SET skipped = 'resolved'
                   FROM incidents i WHERE i.pk = n.incident_pk AND i.status = 'resolved'
                     AND n.sent_at IS NULL AND n.skipped IS NULL"""
            )
            rows = await conn.fetch(
                f"""WITH due AS (
                        SELECT incident_pk, step FROM resolution_nudges
                        WHERE sent_at IS NULL AND skipped IS NULL AND due_at <= now()
                          AND (claimed_until IS NULL OR claimed_until < now())
                        ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED),
                    claimed AS (
                        UPDATE resolution_nudges n SET claimed_until = now() + make_interval(secs => $1)
                        FROM due WHERE n.incident_pk = due.incident_pk AND n.step = due.step
                        RETURNING n.incident_pk, n.step, n.reason)
                    SELECT c.step, c.reason, i.channel_archived_at IS NOT NULL AS archived, {_INCIDENT_COLUMNS}
                    FROM claimed c JOIN incidents i ON i.pk = c.incident_pk""",
                lease_s, limit,
            )  # fmt: skip
        return [DueNudge(_incident(r), r["step"], r["reason"], r["archived"]) for r in rows]

    async def mark_sent(
        self, team_id: str, incident_id: str, step: str, *, sent_to: str, message_ts: str | None,
        reminder_after_h: float | None,
    ) -> None:  # fmt: skip
        """Sent: never again. After the ask, the one reminder is due `reminder_after_h` later."""
        async with acquire(self._pool) as conn, conn.transaction():
            pk = await conn.fetchval(
                """UPDATE resolution_nudges n SET sent_at = now(), sent_to = $4, message_ts = $5, claimed_until = NULL
                   FROM incidents i WHERE i.pk = n.incident_pk AND i.team_id = $1 AND i.incident_id = $2 AND n.step = $3
                   RETURNING n.incident_pk""",
                team_id, incident_id, step, sent_to, message_ts,
            )  # fmt: skip
            if pk is not None and step == "ask" and reminder_after_h is not None:
                await conn.execute(
                    """INSERT INTO resolution_nudges (incident_pk, step, reason, due_at)
                       VALUES ($1, 'reminder', 'reminder', now() + make_interval(secs => $2)) ON CONFLICT DO NOTHING""",
                    pk, reminder_after_h * 3600.0,
                )  # fmt: skip

    async def skip(self, team_id: str, incident_id: str, step: str, why: str) -> None:
        async with acquire(self._pool) as conn:
            await conn.execute(
                """UPDATE resolution_nudges n SET skipped = $4, claimed_until = NULL
                   FROM incidents i WHERE i.pk = n.incident_pk AND i.team_id = $1 AND i.incident_id = $2 AND n.step = $3""",
                team_id, incident_id, step, why,
            )  # fmt: skip

    async def release(self, team_id: str, incident_id: str, step: str) -> None:
        """Sending failed: let the next sweep try again."""
        async with acquire(self._pool) as conn:
            await conn.execute(
                """UPDATE resolution_nudges n SET claimed_until = NULL
                   FROM incidents i WHERE i.pk = n.incident_pk AND i.team_id = $1 AND i.incident_id = $2 AND n.step = $3
                     AND n.sent_at IS NULL""",
                team_id, incident_id, step,
            )  # fmt: skip

    async def mark_archived(self, team_id: str, channel_id: str) -> IncidentRecord | None:
        """The channel's open incident, now known to be archived (None: no open incident)."""
        async with acquire(self._pool) as conn:
            row = await conn.fetchrow(
                f"""UPDATE incidents SET channel_archived_at = coalesce(channel_archived_at, now())
                    WHERE team_id = $1 AND channel_id = $2 AND status = 'open' RETURNING {_COLUMNS}""",
                team_id, channel_id,
            )  # fmt: skip
        return _incident(row) if row else None

    async def nudges(self, team_id: str, incident_id: str) -> list[dict]:
        """The incident's nudges as stored (for the operator and the tests)."""
        async with acquire(self._pool) as conn:
            rows = await conn.fetch(
                """SELECT n.step, n.reason, n.due_at, n.sent_at, n.sent_to, n.message_ts, n.skipped
                   FROM resolution_nudges n JOIN incidents i ON i.pk = n.incident_pk
                   WHERE i.team_id = $1 AND i.incident_id = $2 ORDER BY n.due_at""",
                team_id, incident_id,
            )  # fmt: skip
        return [dict(r) for r in rows]

    async def awaiting_outcome(self, team_id: str, *, limit: int = 20) -> list[tuple[IncidentRecord, datetime | None]]:
        """Open incidents of the team, oldest first, with when they were last asked."""
        async with acquire(self._pool) as conn:
            rows = await conn.fetch(
                f"""SELECT {_INCIDENT_COLUMNS}, (SELECT max(sent_at) FROM resolution_nudges n WHERE n.incident_pk = i.pk) AS asked
                    FROM incidents i WHERE i.team_id = $1 AND i.status = 'open' ORDER BY i.started_at LIMIT $2""",
                team_id, limit,
            )  # fmt: skip
        return [(_incident(r), r["asked"]) for r in rows]
