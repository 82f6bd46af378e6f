"""Starts `incident-memory demo` processes for tests/test_demo.py's interrupt test, the program
imported once: each fresh interpreter spent ~1.5 s of CPU importing it (the app, the reader's cue
lists) before the demo did anything, ten times per test. This process imports what `python -m
bot.cli demo` imports, then for each line read on stdin (`demo FILE` or `ready FILE`) forks a
child as a terminal starts a program: its own session (a signal sent to its process group reaches
it and what it starts, nothing else), SIGINT not ignored (this process is started so), stdout and
stderr into FILE. It prints the child's pid, then, once the child has ended, its exit code as
Popen gives it. A `demo` child runs the program as `python -m bot.cli demo` does (`bot.cli.run()`,
whose SystemExit ends the forked interpreter, atexit hooks such as pgserver's stop of the embedded
PostgreSQL included); a `ready` child readies the embedded cluster (see `ready`).
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading

import asyncpg

import bot.cli
import bot.demo  # noqa: F401 - imported by `demo` itself: the app, the reader
from bot.config import Settings
from bot.memory.database import with_database
from bot.memory.embedded import start_embedded
from bot.memory.migrate import apply_migrations

if threading.active_count() != 1:  # a fork keeps only the thread that forks
    raise SystemExit(f"the demo starter cannot fork: imports started threads {threading.enumerate()}")


def ready() -> None:
    """Starts the embedded server (initdb when the cluster is not made), migrates template1 (each
    demo's CREATE DATABASE copies it, so the demo's migrations find nothing to apply: 17 migrations
    were 1-2 s of each demo) and turns fsync off (a DROP DATABASE and the server's stop wait for a
    checkpoint), then exits: the server stops as when a demo ends. The cluster keeps the same three
    databases initdb makes; the test's other demos run on a cluster as a user has it."""
    settings = Settings()
    dsn = with_database(start_embedded(settings.data_dir), "template1")

    async def migrate() -> None:
        conn = await asyncpg.connect(dsn)
        try:
            await apply_migrations(conn, settings.migrations_dir)
            await conn.execute("ALTER SYSTEM SET fsync = off")
        finally:
            await conn.close()

    asyncio.run(migrate())
    sys.exit(0)


def _child(command: str, out: str) -> None:
    """In the forked child: never returns."""
    os.setsid()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    sink = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(sink, 1)
    os.dup2(sink, 2)
    os.close(null)
    os.close(sink)
    if command == "ready":
        ready()
    sys.argv = ["incident-memory", "demo"]
    bot.cli.run()


def main() -> None:
    for line in sys.stdin:
        command, out = line.split(maxsplit=1)
        pid = os.fork()
        if pid == 0:
            _child(command, out.strip())
        print(pid, flush=True)
        print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)


if __name__ == "__main__":
    main()
