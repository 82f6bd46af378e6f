"""Applies migrations/NNNN_name.sql in order, each once, under an advisory lock.

Two instances starting together are safe: the second waits for the lock, then finds nothing
left to apply. A migration file that changed after it was applied stops everything: the
database no longer matches the code that describes it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.memory.jobqueue import install_job_queue

MIGRATION_LOCK = 7_242_130_501  # arbitrary, fixed: the advisory lock key of this app's migrations
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class MigrationError(Exception):
    pass


@dataclass(frozen=True, slots=True)
class Migration:
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


def load_migrations(directory: Path) -> list[Migration]:
    if not directory.is_dir():
        raise MigrationError(f"migrations folder {directory} does not exist")
    files = sorted(p for p in directory.iterdir() if p.suffix == ".sql")
    bad = [p.name for p in files if not _NAME.match(p.name)]
    if bad:
        raise MigrationError(f"migration files must be named NNNN_name.sql: {', '.join(bad)}")
    return [Migration(p.name, p.read_text(encoding="utf-8")) for p in files]


async def apply_migrations(conn: asyncpg.Connection, directory: Path) -> list[str]:
    """Apply what is pending; return the names applied now."""
    migrations = load_migrations(directory)
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await conn.execute(
            """CREATE TABLE IF NOT EXISTS schema_migrations (
                   name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"""
        )
        applied = {r["name"]: r["checksum"] for r in await conn.fetch("SELECT name, checksum FROM schema_migrations")}
        changed = [m.name for m in migrations if m.name in applied and applied[m.name] != m.checksum]
        if changed:
            raise MigrationError(
                f"applied migrations changed since they ran: {', '.join(changed)}; "
                "add a new migration instead of editing an applied one"
            )
        done: list[str] = []
        for migration in migrations:
            if migration.name in applied:
                continue
            async with conn.transaction():
                await conn.execute(migration.sql)
                await conn.execute(
                    "INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)", migration.name, migration.checksum
                )
            done.append(migration.name)
        # the job queue's tables belong to pgqueuer: installed, or upgraded to the version in use
        await install_job_queue(conn)
        return done
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
