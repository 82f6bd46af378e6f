"""The job queue's PostgreSQL side: durable work in the same database as the memory.

Jobs are rows of pgqueuer's tables (a maintained Postgres-backed queue: retries with backoff,
a heartbeat that hands a dead worker's job to another, NOTIFY so idle workers wake at once).
Its schema is installed or upgraded with this app's migrations, under the same advisory lock.
"""

from __future__ import annotations

from datetime import timedelta

import asyncpg
from pgqueuer import Queries
from pgqueuer.db import AsyncpgDriver, AsyncpgPoolDriver
from pgqueuer.domain.settings import DBSettings
from pydantic import BaseModel

from bot.errors import StoreFailed, StoreUnavailable


async def install_job_queue(conn: asyncpg.Connection) -> None:
    """Create pgqueuer's tables, or bring them to what the installed pgqueuer expects."""
    queries = Queries(AsyncpgDriver(conn))
    if await queries.schema_is_installed():
        await queries.upgrade()
    else:
        await queries.install()


class PostgresJobQueue:
    """Enqueue work for the workers. A `dedupe_key` makes a second enqueue of the same work
    (Slack delivering an event twice, a button pressed twice) a no-op while the first waits."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._queries = Queries(AsyncpgPoolDriver(pool))

    async def enqueue(
        self, kind: str, payload: BaseModel, *, dedupe_key: str | None = None, delay_s: float | None = None,
        headers: dict[str, str] | None = None,
    ) -> bool:  # fmt: skip
        """True when queued now, False when the same dedupe_key is already waiting. `headers`
        travel with the job (the log context of the request that started it)."""
        try:
            ids = await self._queries.enqueue(
                kind,
                payload.model_dump_json().encode(),
                dedupe_key=dedupe_key,
                execute_after=timedelta(seconds=delay_s) if delay_s else None,
                headers=headers or None,
                on_conflict="skip",
            )
        except (TimeoutError, OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError) as exc:
            raise StoreUnavailable(f"the database does not answer: {exc}") from exc
        except asyncpg.PostgresError as exc:
            raise StoreFailed(f"the database refused the job: {exc}") from exc
        return ids[0] is not None

    async def waiting(self, dedupe_key: str) -> bool:
        """Whether work with this dedupe_key is queued or running (what a second enqueue would skip)."""
        return await self._any_waiting("dedupe_key = $1", dedupe_key)

    async def waiting_under(self, prefix: str) -> bool:
        """Whether any work whose dedupe_key starts with `prefix` is queued or running (the messages
        of one channel still on their way into its timeline)."""
        escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        return await self._any_waiting("dedupe_key LIKE $1", escaped + "%")

    async def _any_waiting(self, condition: str, value: str) -> bool:
        table = DBSettings().queue_table
        try:
            return bool(
                await self._pool.fetchval(
                    f"SELECT EXISTS (SELECT 1 FROM {table} WHERE {condition} AND status IN ('queued', 'picked'))", value
                )
            )
        except (TimeoutError, OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError) as exc:
            raise StoreUnavailable(f"the database does not answer: {exc}") from exc

    async def pending(self) -> dict[str, int]:
        """Jobs waiting or running, by kind (for /metrics and tests)."""
        counts: dict[str, int] = {}
        for row in await self._queries.queue_size():
            counts[row.entrypoint] = counts.get(row.entrypoint, 0) + row.count
        return counts
