"""Connections to the memory bank's database, shared by every Postgres adapter.

Callers of an adapter see the memory bank's own errors, never the driver's: a database that does
not answer is StoreUnavailable, one that refuses a statement is StoreFailed.
"""

from __future__ import annotations

import json
from typing import Any

import asyncpg

from bot.errors import StoreBusy, StoreFailed, StoreUnavailable

ACQUIRE_TIMEOUT_S = 10.0

# Columns of `memories` written from a MemoryDraft, in insert order.
DRAFT_COLUMNS = (
    "team_id", "incident_id", "title", "service", "severity", "symptoms", "error_message",
    "root_cause", "diagnosis", "resolution", "failed_attempts", "lesson", "notes", "source",
    "truth_state", "verified_by", "verified_by_name", "verified_at", "verification_note", "tags", "alerts", "channel_id",
    "is_private", "occurred_at", "resolved_at", "superseded_by",
)  # fmt: skip


def _encode_jsonb(value: Any) -> str:
    # A str is already JSON text: the job queue (pgqueuer) sends its headers encoded.
    return value if isinstance(value, str) else json.dumps(value, default=_model_json)


def _model_json(value: Any) -> Any:
    # a draft's list of models (its alerts) is written as their JSON
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    raise TypeError(f"{type(value).__name__} is not JSON")


async def _init_connection(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec("jsonb", encoder=_encode_jsonb, decoder=json.loads, schema="pg_catalog")


async def create_pool(dsn: str, *, min_size: int = 1, max_size: int = 10) -> asyncpg.Pool:
    try:
        return await asyncpg.create_pool(
            dsn, min_size=min_size, max_size=max_size, init=_init_connection, command_timeout=30
        )
    except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
        raise StoreUnavailable(f"cannot connect to the database: {exc}") from exc


class acquire:  # noqa: N801 - used like a function: `async with acquire(pool) as conn`
    """A pooled connection whose failures come out as the memory bank's errors."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._cm: Any = None

    async def __aenter__(self) -> asyncpg.Connection:
        self._cm = self._pool.acquire(timeout=ACQUIRE_TIMEOUT_S)
        try:
            return await self._cm.__aenter__()
        except TimeoutError as exc:
            if self._pool.get_idle_size() == 0 and self._pool.get_size() >= self._pool.get_max_size():
                raise StoreBusy(f"every database connection stayed busy for {ACQUIRE_TIMEOUT_S:.0f} s") from exc
            raise StoreUnavailable(f"the database does not answer: {exc or 'timeout'}") from exc
        except (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError) as exc:
            raise StoreUnavailable(f"the database does not answer: {exc}") from exc

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        await self._cm.__aexit__(exc_type, exc, tb)
        if isinstance(exc, (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError)):
            raise StoreUnavailable(f"the database does not answer: {exc}") from exc
        if isinstance(exc, asyncpg.PostgresError):
            raise StoreFailed(f"the database refused the change: {exc}") from exc
