"""Migrations apply each file once, in order, safely from several processes at once."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.config import PROJECT_ROOT
from bot.memory.migrate import MigrationError, apply_migrations

MIGRATIONS = PROJECT_ROOT / "migrations"


async def _applied(dsn: str) -> list[str]:
    conn = await asyncpg.connect(dsn)
    try:
        return [r["name"] for r in await conn.fetch("SELECT name FROM schema_migrations ORDER BY name")]
    finally:
        await conn.close()


async def test_two_cli_migrates_at_once_apply_each_migration_once(empty_database_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": empty_database_url}
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.cli",
            "migrate",
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        for _ in range(2)
    ]
    outputs = [await p.communicate() for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    said = sorted(out.decode().strip() for out, _ in outputs)
    expected = sorted(p.name for p in MIGRATIONS.glob("*.sql"))
    # exactly one process applied the files; the other found the database up to date
    assert said == sorted(["database is up to date", "applied: " + ", ".join(expected)])
    assert await _applied(empty_database_url) == expected


async def test_migrating_again_applies_nothing(empty_database_url: str) -> None:
    conn = await asyncpg.connect(empty_database_url)
    try:
        first = await apply_migrations(conn, MIGRATIONS)
        second = await apply_migrations(conn, MIGRATIONS)
    finally:
        await conn.close()
    assert first and second == []


async def test_a_changed_applied_migration_stops_everything(empty_database_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, folder)
    conn = await asyncpg.connect(empty_database_url)
    try:
        await apply_migrations(conn, folder)
        first = sorted(folder.glob("*.sql"))[0]
        first.write_text(first.read_text() + "\n-- edited after it ran\n")
        (folder / "9999_later.sql").write_text("CREATE TABLE later (id int);")
        with pytest.raises(MigrationError, match=first.name):
            await apply_migrations(conn, folder)
        # and the pending one was not applied behind its back
        assert await conn.fetchval("SELECT to_regclass('later')") is None
    finally:
        await conn.close()


async def test_a_failing_migration_leaves_nothing_half_applied(empty_database_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_ok.sql").write_text("CREATE TABLE ok (id int);")
    (folder / "0002_broken.sql").write_text("CREATE TABLE half (id int); SELECT no_such_function();")
    conn = await asyncpg.connect(empty_database_url)
    try:
        with pytest.raises(asyncpg.PostgresError):
            await apply_migrations(conn, folder)
        assert await conn.fetchval("SELECT to_regclass('half')") is None
        assert [r["name"] for r in await conn.fetch("SELECT name FROM schema_migrations")] == ["0001_ok.sql"]
    finally:
        await conn.close()


def test_badly_named_migration_files_are_refused(tmp_path: Path) -> None:
    (tmp_path / "create_things.sql").write_text("SELECT 1;")
    from bot.memory.migrate import load_migrations

    with pytest.raises(MigrationError, match="NNNN_name.sql"):
        load_migrations(tmp_path)
