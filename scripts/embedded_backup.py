"""Back up and restore the embedded PostgreSQL's memory bank (no DATABASE_URL), with its own pg_dump.

    python scripts/embedded_backup.py dump memory.dump      # while the bot runs or not
    python scripts/embedded_backup.py restore memory.dump   # replaces what the embedded bank holds
    python scripts/embedded_backup.py drill                 # dump, restore into a scratch database, recall there, drop it

The embedded server is PostgreSQL 16 from the pgserver wheel, reached over a Unix socket in
INCIDENT_MEMORY_DATA_DIR: its own pg_dump and pg_restore (shipped in the same wheel) are used, as
a system pg_dump of another major version may refuse it. The server is started if no process
has it running, and stopped again when this script ends. A database named by DATABASE_URL (Fly
Postgres) is backed up with the usual pg_dump / pg_restore: see the README's "Backup and restore".
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.config import load_settings
from bot.memory.embedded import start_embedded

DRILL_QUERY = "users logged out, redis evicting keys"


def pg_tool(name: str) -> str:
    from pgserver._commands import POSTGRES_BIN_PATH  # the binaries of the embedded server's own version

    return str(POSTGRES_BIN_PATH / name)


def embedded_dsn() -> str:
    settings = load_settings()
    if settings.database_url:
        raise SystemExit("DATABASE_URL is set: back that database up with pg_dump (README: Backup and restore)")
    return start_embedded(settings.data_dir)


def in_database(dsn: str, name: str) -> str:
    return urlunsplit(urlsplit(dsn)._replace(path=f"/{name}"))


def run(argv: list[str]) -> None:
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{Path(argv[0]).name} failed: {done.stderr.strip()}")


def dump(dsn: str, file: Path) -> None:
    run([pg_tool("pg_dump"), "--format=custom", "--no-owner", f"--file={file}", f"--dbname={dsn}"])


def restore(dsn: str, file: Path) -> None:
    """Replace what the database holds by the dump (its tables are dropped first)."""
    if not file.is_file():
        raise SystemExit(f"{file}: no such file")
    run([pg_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--single-transaction", f"--dbname={dsn}",
         str(file)])  # fmt: skip


async def _memories(dsn: str) -> int:
    conn = await asyncpg.connect(dsn)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM memories"))
    finally:
        await conn.close()


async def _scratch(dsn: str, name: str, *, create: bool) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"' if create else f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def drill(dsn: str) -> str:
    """Dump, restore into a scratch database, recall there (as the CLI does), drop it."""
    name = f"im_restore_drill_{uuid.uuid4().hex[:8]}"
    scratch = in_database(dsn, name)
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "memory.dump"
        dump(dsn, file)
        asyncio.run(_scratch(dsn, name, create=True))
        try:
            restore(scratch, file)
            before, after = asyncio.run(_memories(dsn)), asyncio.run(_memories(scratch))
            recalled = subprocess.run(
                [sys.executable, "-m", "bot.cli", "recall", DRILL_QUERY], capture_output=True, text=True,
                env={**os.environ, "DATABASE_URL": scratch},
            )  # fmt: skip
        finally:
            asyncio.run(_scratch(dsn, name, create=False))
    if before != after or recalled.returncode != 0:
        raise SystemExit(f"the restored copy differs: {before} memories, {after} restored; {recalled.stderr.strip()}")
    return f"{after} memories restored and recalled from a scratch copy; first recalled:\n{recalled.stdout[:400]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="action", required=True)
    sub.add_parser("dump", help="write the embedded memory bank to FILE").add_argument("file", type=Path)
    sub.add_parser("restore", help="replace the embedded memory bank by FILE").add_argument("file", type=Path)
    sub.add_parser("drill", help="dump, restore into a scratch database, recall there, drop it")
    args = parser.parse_args(argv)
    dsn = embedded_dsn()
    if args.action == "dump":
        dump(dsn, args.file)
        print(f"wrote {args.file}")
    elif args.action == "restore":
        restore(dsn, args.file)
        print(f"restored {args.file}: {asyncio.run(_memories(dsn))} memories")
    else:
        print(drill(dsn))
    return 0


if __name__ == "__main__":
    sys.exit(main())
