"""The Postgres adapter for incidents in progress: open incidents, their timelines, and the
Slack events already handled. SQL lives here, beside the memory store's."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

import asyncpg

from bot.errors import StoreUnavailable
from bot.memory.pool import acquire
from bot.models import Incident, IncidentRecord, IncidentStatus, TimelineEntry
from bot.text_limits import INCIDENT_MESSAGES

_COLUMNS = """incident_id, team_id, channel_id, channel_name, is_private, title, service, severity,
              symptoms, error_message, declared_by, status, recall_thread_ts, started_at, resolved_at,
              is_isolated"""


class IncidentStore(Protocol):
    async def open_incident(
        self, team_id: str, channel_id: str, incident: Incident, *, channel_name: str | None,
        is_private: bool, declared_by: str | None, is_isolated: bool = False,
    ) -> tuple[IncidentRecord, bool]: ...  # fmt: skip
    async def open_in_channel(self, team_id: str, channel_id: str) -> IncidentRecord | None: ...
    async def latest_in_channel(self, team_id: str, channel_id: str) -> IncidentRecord | None: ...
    async def get(self, team_id: str, incident_id: str) -> IncidentRecord | None: ...
    async def set_recall_thread(self, team_id: str, incident_id: str, thread_ts: str) -> None: ...
    async def mark_resolved(self, team_id: str, incident_id: str) -> IncidentRecord | None: ...
    async def claim_declarer(self, team_id: str, incident_id: str, user_id: str) -> IncidentRecord | None: ...
    async def append_message(
        self, team_id: str, channel_id: str, message_ts: str, author: str, text: str, at: datetime,
        *, event_id: str | None,
    ) -> bool: ...  # fmt: skip
    async def claim_event(self, team_id: str, event_id: str) -> bool: ...
    async def timeline(self, team_id: str, incident_id: str, *, limit: int = 500) -> list[TimelineEntry]: ...
    async def first_message(self, team_id: str, incident_id: str) -> TimelineEntry | None: ...
    async def timeline_size(self, team_id: str, incident_id: str) -> tuple[int, int]: ...
    async def forget(self, team_id: str, incident_id: str, *, purged_by: str) -> int | None: ...
    async def prune_events(self, older_than_hours: float) -> int: ...
    async def prune_timelines(self, resolved_days_ago: float) -> int: ...


def _incident(row: asyncpg.Record) -> IncidentRecord:
    return IncidentRecord(
        incident_id=row["incident_id"], team=row["team_id"], channel=row["channel_id"],
        channel_name=row["channel_name"], is_private=row["is_private"], title=row["title"],
        service=row["service"], severity=row["severity"], symptoms=row["symptoms"],
        error_message=row["error_message"], declared_by=row["declared_by"],
        status=IncidentStatus(row["status"]), recall_thread_ts=row["recall_thread_ts"],
        started_at=row["started_at"], resolved_at=row["resolved_at"], is_isolated=row["is_isolated"],
    )  # fmt: skip


async def mark_resolved_in(conn: asyncpg.Connection, team_id: str, incident_id: str) -> IncidentRecord | None:
    """Mark the incident resolved on `conn` (in the caller's transaction, if any); None when
    there is no such incident."""
    row = await conn.fetchrow(
        f"""UPDATE incidents SET status = 'resolved', resolved_at = coalesce(resolved_at, now())
            WHERE team_id = $1 AND incident_id = $2 RETURNING {_COLUMNS}""",
        team_id, incident_id,
    )  # fmt: skip
    return _incident(row) if row else None


class PostgresIncidentStore:
    def __init__(self, pool: asyncpg.Pool, *, max_messages: int = INCIDENT_MESSAGES) -> None:
        self._pool = pool
        self.max_messages = max_messages  # past it, the oldest messages are dropped (and counted)

    async def open_incident(
        self, team_id: str, channel_id: str, incident: Incident, *, channel_name: str | None = None,
        is_private: bool = False, declared_by: str | None = None, is_isolated: bool = False,
    ) -> tuple[IncidentRecord, bool]:  # fmt: skip
        """Open an incident for the channel; (the channel's open incident, whether it is new)."""
        async with acquire(self._pool) as conn, conn.transaction():
            row = await conn.fetchrow(
                f"""INSERT INTO incidents (pk, incident_id, team_id, channel_id, channel_name, is_private,
                        title, service, severity, symptoms, error_message, declared_by, is_isolated)
                    VALUES (nextval('incidents_pk_seq'),
                            'INC-' || to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD') || '-' || currval('incidents_pk_seq'),
                            $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                    ON CONFLICT (team_id, channel_id) WHERE status = 'open' DO NOTHING
                    RETURNING {_COLUMNS}""",
                team_id, channel_id, channel_name, is_private, incident.title, incident.service,
                incident.severity, incident.symptoms, incident.error_message, declared_by, is_isolated,
            )  # fmt: skip
            if row is not None:
                return _incident(row), True
            existing = await self._open(conn, team_id, channel_id)
            if existing is None:  # resolved between the two statements: very unlikely; try once more
                raise StoreUnavailable("the channel's incident changed while opening it; try again")
            return existing, False

    async def _open(self, conn: asyncpg.Connection, team_id: str, channel_id: str) -> IncidentRecord | None:
        row = await conn.fetchrow(
            f"SELECT {_COLUMNS} FROM incidents WHERE team_id = $1 AND channel_id = $2 AND status = 'open'",
            team_id, channel_id,
        )  # fmt: skip
        return _incident(row) if row else None

    async def open_in_channel(self, team_id: str, channel_id: str) -> IncidentRecord | None:
        async with acquire(self._pool) as conn:
            return await self._open(conn, team_id, channel_id)

    async def latest_in_channel(self, team_id: str, channel_id: str) -> IncidentRecord | None:
        """The open incident, or else the most recently resolved one (resolving twice is allowed)."""
        async with acquire(self._pool) as conn:
            row = await conn.fetchrow(
                f"""SELECT {_COLUMNS} FROM incidents WHERE team_id = $1 AND channel_id = $2
                    ORDER BY (status = 'open') DESC, started_at DESC, pk DESC LIMIT 1""",
                team_id, channel_id,
            )  # fmt: skip
        return _incident(row) if row else None

    async def get(self, team_id: str, incident_id: str) -> IncidentRecord | None:
        async with acquire(self._pool) as conn:
            row = await conn.fetchrow(
                f"SELECT {_COLUMNS} FROM incidents WHERE team_id = $1 AND incident_id = $2", team_id, incident_id
            )
        return _incident(row) if row else None

    async def set_recall_thread(self, team_id: str, incident_id: str, thread_ts: str) -> None:
        async with acquire(self._pool) as conn:
            await conn.execute(
                "UPDATE incidents SET recall_thread_ts = $3 WHERE team_id = $1 AND incident_id = $2",
                team_id, incident_id, thread_ts,
            )  # fmt: skip

    async def mark_resolved(self, team_id: str, incident_id: str) -> IncidentRecord | None:
        async with acquire(self._pool) as conn:
            return await mark_resolved_in(conn, team_id, incident_id)

    async def claim_declarer(self, team_id: str, incident_id: str, user_id: str) -> IncidentRecord | None:
        """`user_id` takes the declarer's rights over an incident nobody declared; the incident
        as it is then (its declarer unchanged when it had one: the first who acted keeps them)."""
        async with acquire(self._pool) as conn:
            row = await conn.fetchrow(
                f"""UPDATE incidents SET declared_by = coalesce(declared_by, $3)
                    WHERE team_id = $1 AND incident_id = $2 RETURNING {_COLUMNS}""",
                team_id, incident_id, user_id,
            )  # fmt: skip
        return _incident(row) if row else None

    async def claim_event(self, team_id: str, event_id: str) -> bool:
        """True the first time an event is seen (across every instance), False for a repeat."""
        async with acquire(self._pool) as conn:
            return await self._claim(conn, team_id, event_id)

    async def _claim(self, conn: asyncpg.Connection, team_id: str, event_id: str) -> bool:
        claimed = await conn.fetchval(
            """INSERT INTO slack_events (team_id, event_id) VALUES ($1, $2)
               ON CONFLICT DO NOTHING RETURNING true""",
            team_id, event_id,
        )  # fmt: skip
        return bool(claimed)

    async def append_message(
        self, team_id: str, channel_id: str, message_ts: str, author: str, text: str, at: datetime,
        *, event_id: str | None = None,
    ) -> bool:  # fmt: skip
        """Append a channel message to its incident's timeline, once: the open incident's, or else
        (the incident was closed) the latest one's, as a late note — never dropped.

        The event claim and the append share one transaction: a delivery that fails half-way
        leaves no claim behind, so Slack's retry is still handled.
        """
        async with acquire(self._pool) as conn, conn.transaction():
            if event_id is not None and not await self._claim(conn, team_id, event_id):
                return False
            incident_pk = await conn.fetchval(
                """INSERT INTO timeline_entries (incident_pk, team_id, channel_id, message_ts, author, text, at, late)
                   SELECT pk, team_id, channel_id, $3, $4, $5, $6, status <> 'open' FROM incidents
                   WHERE team_id = $1 AND channel_id = $2
                     AND NOT EXISTS (SELECT 1 FROM deleted_messages d  -- deleted before it arrived
                                     WHERE d.team_id = $1 AND d.channel_id = $2 AND d.message_ts = $3)
                   ORDER BY (status = 'open') DESC, started_at DESC, pk DESC LIMIT 1
                   ON CONFLICT (team_id, channel_id, message_ts) DO NOTHING RETURNING incident_pk""",
                team_id, channel_id, message_ts, author, text, at,
            )  # fmt: skip
            if incident_pk is None:
                return False
            # past the cap the oldest message goes: what is kept per incident stays bounded
            dropped = await conn.fetchval(
                """WITH doomed AS (SELECT id FROM timeline_entries WHERE incident_pk = $1
                                   ORDER BY at DESC, id DESC OFFSET $2),
                        gone AS (DELETE FROM timeline_entries WHERE id IN (SELECT id FROM doomed) RETURNING 1)
                   SELECT count(*) FROM gone""",
                incident_pk, self.max_messages,
            )  # fmt: skip
            # an open incident's "quiet for N hours" counts from here (a late note changes nothing)
            await conn.execute(
                """UPDATE incidents SET timeline_dropped = timeline_dropped + $3,
                          last_message_at = CASE WHEN status = 'open' THEN greatest(last_message_at, $2)
                                                 ELSE last_message_at END
                   WHERE pk = $1""",
                incident_pk, at, dropped,
            )  # fmt: skip
            return True

    async def timeline(self, team_id: str, incident_id: str, *, limit: int = 500) -> list[TimelineEntry]:
        """The newest `limit` entries, oldest first."""
        async with acquire(self._pool) as conn:
            rows = await conn.fetch(
                """SELECT author, text, at, message_ts, late FROM (
                       SELECT t.author, t.text, t.at, t.id, t.message_ts, t.late FROM timeline_entries t
                       JOIN incidents i ON i.pk = t.incident_pk
                       WHERE i.team_id = $1 AND i.incident_id = $2
                       ORDER BY t.at DESC, t.id DESC LIMIT $3) newest
                   ORDER BY at, id""",
                team_id, incident_id, limit,
            )  # fmt: skip
        return [
            TimelineEntry(author=r["author"], text=r["text"], at=r["at"], message_ts=r["message_ts"], late=r["late"])
            for r in rows
        ]

    async def first_message(self, team_id: str, incident_id: str) -> TimelineEntry | None:
        """The oldest message of the incident's timeline that is not a late note (what was first
        reported: bot/drafting/first_report.py), however long the timeline; None when none is kept,
        or when messages were dropped past the cap: the oldest kept is then not the first report."""
        async with acquire(self._pool) as conn:
            row = await conn.fetchrow(  # one statement: a trim between two queries cannot slip in
                """SELECT t.author, t.text, t.at, t.message_ts, t.late FROM timeline_entries t
                   JOIN incidents i ON i.pk = t.incident_pk
                   WHERE i.team_id = $1 AND i.incident_id = $2 AND NOT t.late AND i.timeline_dropped = 0
                   ORDER BY t.at, t.id LIMIT 1""",
                team_id, incident_id,
            )  # fmt: skip
        if row is None:
            return None
        return TimelineEntry(
            author=row["author"], text=row["text"], at=row["at"], message_ts=row["message_ts"], late=row["late"]
        )

    async def timeline_size(self, team_id: str, incident_id: str) -> tuple[int, int]:
        """(messages kept, messages dropped past the cap) of the incident's timeline."""
        async with acquire(self._pool) as conn:
            row = await conn.fetchrow(
                """SELECT (SELECT count(*) FROM timeline_entries t WHERE t.incident_pk = i.pk) AS kept,
                          i.timeline_dropped AS dropped
                   FROM incidents i WHERE i.team_id = $1 AND i.incident_id = $2""",
                team_id, incident_id,
            )  # fmt: skip
        return (row["kept"], row["dropped"]) if row else (0, 0)

    async def forget(self, team_id: str, incident_id: str, *, purged_by: str) -> int | None:
        """Delete the incident and its timeline, recording who did (never what it said); the
        number of timeline messages deleted, or None when there was no such incident."""
        async with acquire(self._pool) as conn, conn.transaction():
            pk = await conn.fetchval(
                "SELECT pk FROM incidents WHERE team_id = $1 AND incident_id = $2 FOR UPDATE", team_id, incident_id
            )
            if pk is None:
                return None
            messages = await conn.fetchval("SELECT count(*) FROM timeline_entries WHERE incident_pk = $1", pk)
            await conn.execute("DELETE FROM incidents WHERE pk = $1", pk)  # the timeline goes with it
            await conn.execute(
                """INSERT INTO purge_records (team_id, incident_id, what, purged_by, detail)
                   VALUES ($1, $2, 'incident', $3, $4)""",
                team_id, incident_id, purged_by, {"timeline_messages": messages},
            )  # fmt: skip
            return messages

    async def prune_events(self, older_than_hours: float) -> int:
        """Forget Slack event ids older than Slack's retries (they only guard against repeats)."""
        async with acquire(self._pool) as conn:
            deleted = await conn.fetchval(
                """WITH gone AS (DELETE FROM slack_events WHERE received_at < now() - make_interval(secs => $1)
                   RETURNING 1) SELECT count(*) FROM gone""",
                older_than_hours * 3600.0,
            )
        return int(deleted)

    async def prune_timelines(self, resolved_days_ago: float) -> int:
        """Delete the channel messages of incidents resolved over `resolved_days_ago` days ago
        (the memory keeps what was confirmed; the raw chatter goes)."""
        async with acquire(self._pool) as conn:
            deleted = await conn.fetchval(
                """WITH gone AS (
                       DELETE FROM timeline_entries t USING incidents i
                       WHERE t.incident_pk = i.pk AND i.status = 'resolved'
                         AND i.resolved_at < now() - make_interval(secs => $1)
                       RETURNING 1)
                   SELECT count(*) FROM gone""",
                resolved_days_ago * 86400.0,
            )
        return int(deleted)
