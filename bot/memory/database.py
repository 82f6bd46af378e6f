"""Opening the memory bank: the configured database or the embedded one, migrated."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.background import to_the_end
from bot.config import Settings
from bot.errors import MemoryError_, StoreUnavailable
from bot.memory.embedded import process_alive, start_embedded
from bot.memory.incidents import PostgresIncidentStore
from bot.memory.migrate import apply_migrations
from bot.memory.pool import create_pool
from bot.memory.postgres import PostgresMemoryStore
from bot.recall.concepts import load_vocabulary

log = logging.getLogger(__name__)


class DatabaseNotConfigured(MemoryError_):
    """On a platform whose disk does not survive a deploy, the embedded default would lose memory."""


async def database_url(settings: Settings) -> str:
    if settings.database_url:
        return settings.database_url
    if settings.fly_app_name:
        raise DatabaseNotConfigured(
            f"DATABASE_URL is not set on the Fly.io app {settings.fly_app_name!r}: the embedded PostgreSQL would "
            "live on the machine's temporary disk and lose every memory at the next deploy. Attach a database "
            "(`fly postgres attach <app>-db`, which sets DATABASE_URL) and deploy again."
        )
    return await asyncio.to_thread(start_embedded, settings.data_dir)


def _where(dsn: str) -> str:
    parts = urlsplit(dsn)
    host = parts.hostname or "the local socket"
    return f"{host}:{parts.port or 5432}{parts.path or ''}"


def unreachable(settings: Settings, dsn: str, exc: BaseException) -> StoreUnavailable:
    """One line: where we tried, what the driver said, and what to do about it."""
    reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if settings.database_url:
        fix = "check DATABASE_URL (host, port, user, password, database), or unset it to use the embedded PostgreSQL"
        where = _where(dsn)
    else:
        fix = "check INCIDENT_MEMORY_DATA_DIR, or set DATABASE_URL to a PostgreSQL server"
        where = f"the embedded PostgreSQL in {settings.data_dir / 'pg'}"
    return StoreUnavailable(f"cannot connect to the database at {where} ({reason}): {fix}")


CONNECT_ERRORS = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError, ValueError)


async def migrate(dsn: str, settings: Settings) -> list[str]:
    try:
        conn = await asyncpg.connect(dsn, timeout=10)
    except CONNECT_ERRORS as exc:
        raise unreachable(settings, dsn, exc) from exc
    try:
        return await apply_migrations(conn, settings.migrations_dir)
    finally:
        await conn.close()


async def _pool(settings: Settings, dsn: str, **kw: int) -> asyncpg.Pool:
    try:
        return await create_pool(dsn, **kw)
    except StoreUnavailable as exc:
        raise unreachable(settings, dsn, exc.__cause__ or exc) from exc
    except CONNECT_ERRORS as exc:  # an invalid DSN is the driver's ValueError
        raise unreachable(settings, dsn, exc) from exc


@asynccontextmanager
async def open_store(settings: Settings, *, run_migrations: bool = True) -> AsyncIterator[PostgresMemoryStore]:
    dsn = await database_url(settings)
    if run_migrations:
        await migrate(dsn, settings)
    pool = await _pool(settings, dsn)
    store = PostgresMemoryStore(pool, vocabulary=load_vocabulary(settings.incident_memory_concepts_path))
    try:
        await store.reindex_terms()  # after a tokenizer change: one read when nothing is stale
        yield store
    finally:
        await store.close()
        await pool.close()


@asynccontextmanager
async def open_store_read_only(settings: Settings) -> AsyncIterator[PostgresMemoryStore | None]:
    """The memory bank to read (import --dry-run), or None when there is none to read: the
    database cannot be reached or holds no memory bank, or the embedded one was never created
    (starting it would create it). Nothing is migrated; writing is the caller's to refuse."""
    if not settings.database_url and not (settings.data_dir / "pg").is_dir():
        yield None
        return
    try:
        dsn = await database_url(settings)
        pool = await _pool(settings, dsn, max_size=2)
    except MemoryError_:
        yield None
        return
    try:
        async with pool.acquire() as conn:
            migrated = await conn.fetchval("SELECT to_regclass('memories') IS NOT NULL")
        store = PostgresMemoryStore(pool, vocabulary=load_vocabulary(settings.incident_memory_concepts_path))
        yield store if migrated else None
    finally:
        await pool.close()


@asynccontextmanager
async def open_incident_store(settings: Settings) -> AsyncIterator[PostgresIncidentStore]:
    """The incidents in progress (for the CLI: the bot's own runtime opens its stores together)."""
    dsn = await database_url(settings)
    pool = await _pool(settings, dsn, max_size=2)
    try:
        yield PostgresIncidentStore(pool)
    finally:
        await pool.close()


def with_database(dsn: str, name: str) -> str:
    return urlunsplit(urlsplit(dsn)._replace(path="/" + name))


# A throwaway database's name carries the creating process's id, so that a later run can tell
# one left behind by a process that was killed (SIGKILL, a power cut) from one still in use.
_THROWAWAY = re.compile(r"^(?P<prefix>[a-z_]+)_p(?P<pid>\d+)_[0-9a-f]{12}$")


async def _drop(admin_dsn: str, name: str) -> None:
    admin = await asyncpg.connect(admin_dsn, timeout=10)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


async def drop_stale_throwaways(admin_dsn: str, prefix: str) -> list[str]:
    """Drop the throwaway databases of `prefix` whose process is gone and that nobody uses."""
    admin = await asyncpg.connect(admin_dsn, timeout=10)
    try:
        rows = await admin.fetch(
            "SELECT d.datname, (SELECT count(*) FROM pg_stat_activity a WHERE a.datname = d.datname) AS users "
            "FROM pg_database d WHERE d.datname LIKE $1",
            prefix.replace("_", r"\_") + r"\_p%",
        )
    finally:
        await admin.close()
    stale = []
    for row in rows:
        match = _THROWAWAY.match(row["datname"])
        if match and match["prefix"] == prefix and not row["users"] and not process_alive(int(match["pid"])):
            stale.append(row["datname"])
    for name in stale:
        await _drop(admin_dsn, name)
        log.info("dropped %s, left behind by an earlier run", name)
    return stale


@asynccontextmanager
async def throwaway_database(admin_dsn: str, migrations: Path, *, prefix: str = "im_throwaway") -> AsyncIterator[str]:
    """A freshly migrated database on the same server, dropped afterwards whatever happens —
    an error, Ctrl-C, SIGTERM (replay and the demo never touch the live memory). Ones an earlier
    run could not drop (it was killed) are dropped first."""
    await drop_stale_throwaways(admin_dsn, prefix)
    name = f"{prefix}_p{os.getpid()}_{uuid.uuid4().hex[:12]}"
    dsn = with_database(admin_dsn, name)
    try:
        admin = await asyncpg.connect(admin_dsn, timeout=10)
        try:
            await admin.execute(f'CREATE DATABASE "{name}"')
        finally:
            await admin.close()
        conn = await asyncpg.connect(dsn)
        try:
            await apply_migrations(conn, migrations)
        finally:
            await conn.close()
        yield dsn
    finally:
        await to_the_end(_drop(admin_dsn, name))
