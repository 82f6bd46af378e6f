"""Opening the memory bank: the configured database or the embedded one, migrated."""

from __future__ import annotations

import asyncio
import uuid
from contextlib import asynccontextmanager
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.config import Settings
from bot.memory.embedded import start_embedded
from bot.errors import MemoryError_, StoreUnavailable
from bot.memory.migrate import apply_migrations
from bot.recall.concepts import load_vocabulary
from bot.memory.incidents import PostgresIncidentStore
from bot.memory.pool import create_pool
from bot.memory.postgres import PostgresMemoryStore


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


async def migrate(dsn: str, settings: Settings) -> list[str]:
    try:
        conn = await asyncpg.connect(dsn, timeout=10)
    except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
        raise StoreUnavailable(f"cannot connect to the database: {exc}") from exc
    try:
        return await apply_migrations(conn, settings.migrations_dir)
    finally:
        await conn.close()


@asynccontextmanager
async def open_store(settings: Settings, *, run_migrations: bool = True) -> AsyncIterator[PostgresMemoryStore]:
    dsn = await database_url(settings)
    if run_migrations:
        await migrate(dsn, settings)
    pool = await create_pool(dsn)
    store = PostgresMemoryStore(pool, vocabulary=load_vocabulary(settings.incident_memory_concepts_path))
    try:
        await store.reindex_terms()  # after a tokenizer change: one read when nothing is stale
        yield store
    finally:
        await store.close()
        await pool.close()


@asynccontextmanager
async def open_incident_store(settings: Settings) -> AsyncIterator[PostgresIncidentStore]:
    """The incidents in progress (for the CLI: the bot's own runtime opens its stores together)."""
    pool = await create_pool(await database_url(settings), max_size=2)
    try:
        yield PostgresIncidentStore(pool)
    finally:
        await pool.close()


def with_database(dsn: str, name: str) -> str:
    return urlunsplit(urlsplit(dsn)._replace(path="/" + name))


@asynccontextmanager
async def throwaway_database(admin_dsn: str, migrations: Path, *, prefix: str = "im_throwaway") -> AsyncIterator[str]:
    """A freshly migrated database on the same server, dropped afterwards whatever happens
    (replay and the demo never touch the live memory)."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(admin_dsn)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    dsn = with_database(admin_dsn, name)
    try:
        conn = await asyncpg.connect(dsn)
        try:
            await apply_migrations(conn, migrations)
        finally:
            await conn.close()
        yield dsn
    finally:
        admin = await asyncpg.connect(admin_dsn)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()
