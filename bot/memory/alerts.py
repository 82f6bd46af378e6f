"""The Postgres adapter for alert webhooks: each delivery stored once (before its 2xx), its
alerts by name and labels, and which of them joined which incident's timeline."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import asyncpg

from bot.alerts.model import Alert, AlertBatch, Source, Status
from bot.memory.pool import acquire
from bot.memory.search import recurring
from bot.models import MAX_ALERTS as MAX_MEMORY_ALERTS
from bot.models import MemoryAlert, RecallQuery


@dataclass(frozen=True, slots=True)
class Received:
    delivery_id: int
    new: bool  # False: the same delivery was stored before (a retry or a repeat)
    processed: bool  # the stored one was already handled: nothing more to do


@dataclass(frozen=True, slots=True)
class StoredAlert:
    id: int
    alert: Alert


@dataclass(frozen=True, slots=True)
class StoredDelivery:
    id: int
    batch: AlertBatch
    alert_ids: tuple[int, ...]
    processed: bool


def _alert(row: asyncpg.Record) -> Alert:
    return Alert(
        key=row["alert_key"], status=Status(row["status"]), name=row["name"], labels=row["labels"],
        annotations=row["annotations"], starts_at=row["starts_at"], ends_at=row["ends_at"], url=row["url"],
    )  # fmt: skip


_ALERT_COLUMNS = "a.id, a.alert_key, a.status, a.name, a.labels, a.annotations, a.starts_at, a.ends_at, a.url"


class PostgresAlertStore:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def receive(self, batch: AlertBatch) -> Received:
        """Store the delivery and its alerts in one transaction, once per dedupe key."""
        async with acquire(self._pool) as conn, conn.transaction():
            delivery_id = await conn.fetchval(
                """INSERT INTO alert_deliveries (source, dedupe_key, status, common_labels, truncated)
                   VALUES ($1, $2, $3, $4, $5) ON CONFLICT (source, dedupe_key) DO NOTHING RETURNING id""",
                batch.source.value, batch.dedupe_key, batch.status.value, batch.common_labels, batch.truncated,
            )  # fmt: skip
            if delivery_id is None:
                row = await conn.fetchrow(
                    "SELECT id, processed_at FROM alert_deliveries WHERE source = $1 AND dedupe_key = $2",
                    batch.source.value, batch.dedupe_key,
                )  # fmt: skip
                return Received(row["id"], new=False, processed=row["processed_at"] is not None)
            await conn.executemany(
                """INSERT INTO alerts (delivery_id, source, alert_key, status, name, labels, annotations,
                                       starts_at, ends_at, url)
                   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)""",
                [
                    (delivery_id, batch.source.value, a.key, a.status.value, a.name, a.labels, a.annotations,
                     a.starts_at, a.ends_at, a.url)
                    for a in batch.alerts
                ],
            )  # fmt: skip
        return Received(delivery_id, new=True, processed=False)

    async def delivery(self, delivery_id: int) -> StoredDelivery | None:
        async with acquire(self._pool) as conn:
            head = await conn.fetchrow("SELECT * FROM alert_deliveries WHERE id = $1", delivery_id)
            if head is None:
                return None
            rows = await conn.fetch(
                f"SELECT {_ALERT_COLUMNS} FROM alerts a WHERE a.delivery_id = $1 ORDER BY a.id", delivery_id
            )
        batch = AlertBatch(
            source=Source(head["source"]), dedupe_key=head["dedupe_key"], status=Status(head["status"]),
            alerts=tuple(_alert(r) for r in rows), common_labels=head["common_labels"], truncated=head["truncated"],
        )  # fmt: skip
        return StoredDelivery(delivery_id, batch, tuple(r["id"] for r in rows), head["processed_at"] is not None)

    async def news(self, delivery_id: int, team_id: str, incident_id: str) -> list[StoredAlert]:
        """The alerts of this delivery not yet in the incident's timeline in this state (an alert
        applied by another delivery, same status and start, is old news); marked as applied.
        Asked again for the same delivery (a job's rerun), the same answer."""
        async with acquire(self._pool) as conn, conn.transaction():
            rows = await conn.fetch(
                f"""WITH incident AS (SELECT pk FROM incidents WHERE team_id = $2 AND incident_id = $3),
                    fresh AS (
                        SELECT a.id FROM alerts a WHERE a.delivery_id = $1 AND NOT EXISTS (
                            SELECT 1 FROM alerts o WHERE o.applied AND o.delivery_id <> $1
                              AND o.source = a.source AND o.alert_key = a.alert_key AND o.status = a.status
                              AND o.starts_at IS NOT DISTINCT FROM a.starts_at
                              AND o.incident_pk = (SELECT pk FROM incident)))
                    UPDATE alerts a SET applied = true, incident_pk = (SELECT pk FROM incident)
                    FROM fresh WHERE a.id = fresh.id
                    RETURNING {_ALERT_COLUMNS}""",
                delivery_id, team_id, incident_id,
            )  # fmt: skip
        return [StoredAlert(r["id"], _alert(r)) for r in sorted(rows, key=lambda r: r["id"])]

    async def incident_of(self, source: Source, keys: list[str]) -> tuple[str, str] | None:
        """(team, incident id) of the open incident these alerts fired into, if any."""
        async with acquire(self._pool) as conn:
            row = await conn.fetchrow(
                """SELECT i.team_id, i.incident_id FROM alerts a JOIN incidents i ON i.pk = a.incident_pk
                   WHERE a.source = $1 AND a.alert_key = ANY($2::text[]) AND a.applied AND i.status = 'open'
                   ORDER BY a.id DESC LIMIT 1""",
                source.value, keys,
            )  # fmt: skip
        return (row["team_id"], row["incident_id"]) if row else None

    async def fired_for(self, team_id: str, incident_id: str) -> list[MemoryAlert]:
        """The distinct alerts (name + labels) that joined the incident's timeline, first fired
        first: what its memory keeps at resolution."""
        async with acquire(self._pool) as conn:
            rows = await conn.fetch(
                """SELECT a.name, a.labels, min(a.id) AS first FROM alerts a JOIN incidents i ON i.pk = a.incident_pk
                   WHERE i.team_id = $1 AND i.incident_id = $2 AND a.applied
                   GROUP BY a.name, a.labels ORDER BY first LIMIT $3""",
                team_id, incident_id, MAX_MEMORY_ALERTS,
            )  # fmt: skip
        return [MemoryAlert(name=r["name"], labels=r["labels"]) for r in rows]

    async def recurring(self, query: RecallQuery, service: str, names: list[str], since: datetime) -> list[str]:
        """The confirmed memories of `service` whose incident fired one of these alert names since
        `since` (bot.memory.search.recurring), newest first."""
        async with acquire(self._pool) as conn:
            return await recurring(conn, query, service, names, since)

    async def all_resolved(self, team_id: str, incident_id: str) -> bool:
        """Whether every alert that joined the incident is resolved now (its latest state)."""
        async with acquire(self._pool) as conn:
            return bool(
                await conn.fetchval(
                    """WITH latest AS (
                           SELECT DISTINCT ON (a.source, a.alert_key) a.status FROM alerts a
                           JOIN incidents i ON i.pk = a.incident_pk
                           WHERE i.team_id = $1 AND i.incident_id = $2 AND a.applied
                           ORDER BY a.source, a.alert_key, a.id DESC)
                       SELECT count(*) > 0 AND bool_and(status = 'resolved') FROM latest""",
                    team_id,
                    incident_id,
                )  # fmt: skip
            )

    async def finish(
        self, delivery_id: int, outcome: str, *, channel_id: str | None = None, team_id: str | None = None,
        incident_id: str | None = None,
    ) -> None:  # fmt: skip
        async with acquire(self._pool) as conn:
            await conn.execute(
                """UPDATE alert_deliveries SET processed_at = coalesce(processed_at, now()), outcome = $2,
                       channel_id = $3,
                       incident_pk = (SELECT pk FROM incidents WHERE team_id = $4 AND incident_id = $5)
                   WHERE id = $1""",
                delivery_id, outcome, channel_id, team_id, incident_id,
            )  # fmt: skip

    async def counts(self) -> dict[str, int]:
        """Deliveries stored, by outcome ("pending" until handled): for the operator and tests."""
        async with acquire(self._pool) as conn:
            rows = await conn.fetch(
                "SELECT coalesce(outcome, 'pending') AS outcome, count(*) AS n FROM alert_deliveries GROUP BY 1"
            )
        return {r["outcome"]: r["n"] for r in rows}
