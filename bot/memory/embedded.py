"""The embedded default: a PostgreSQL 16 of our own (the pgserver wheel), kept in the data folder.

Several processes may share one data folder: each attaches to the server already running there.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import signal
import warnings
from pathlib import Path

from bot.errors import StoreUnavailable

log = logging.getLogger(__name__)

# PostgreSQL's Unix socket lives in the data folder; its path must stay under ~100 characters.
MAX_DATA_DIR_CHARS = 80


class EmbeddedPostgresError(StoreUnavailable):
    pass


def start_embedded(data_dir: Path) -> str:
    """Start (or attach to) the embedded server and return its connection URL."""
    pg_dir = (data_dir / "pg").resolve()
    if len(str(pg_dir)) > MAX_DATA_DIR_CHARS:
        raise EmbeddedPostgresError(
            f"the data folder path {pg_dir} is too long for PostgreSQL's socket "
            f"(over {MAX_DATA_DIR_CHARS} characters): set INCIDENT_MEMORY_DATA_DIR to a shorter folder"
        )
    pg_dir.parent.mkdir(parents=True, exist_ok=True)
    _forget_dead_handles(pg_dir)
    try:
        with warnings.catch_warnings():
            # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI): harmless here
            warnings.simplefilter("ignore")
            import pgserver  # imported here: only the embedded default needs it

            server = pgserver.get_server(pg_dir)
    except Exception as exc:  # noqa: BLE001 - pgserver raises plain exceptions with the server log
        raise EmbeddedPostgresError(f"could not start the embedded PostgreSQL in {pg_dir}: {exc}") from exc
    _stop_undisturbed()
    log.info("embedded PostgreSQL: data in %s", pg_dir)
    return server.get_uri()


_stopping_registered = False


def _stop_undisturbed() -> None:
    """pgserver stops the server from an atexit hook (`pg_ctl stop`, when no other process uses
    it). A second Ctrl-C or SIGTERM landing then would kill pg_ctl and leave the server running:
    from then on, this process ignores both (atexit runs this before pgserver's hook, registered
    earlier, and pg_ctl inherits it)."""
    global _stopping_registered  # noqa: PLW0603 - once per process
    if _stopping_registered:
        return
    _stopping_registered = True

    def ignore_signals() -> None:
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, signal.SIG_IGN)

    atexit.register(ignore_signals)


def _forget_dead_handles(pg_dir: Path) -> None:
    """pgserver stops the server when the last process using it exits, counting the processes in
    a file; one that was killed (SIGKILL, a crash) stays counted and the server would then never
    stop. Processes that no longer exist are forgotten before we attach."""
    handles = pg_dir / ".handle_pids.json"
    try:
        pids = json.loads(handles.read_text())
    except (OSError, ValueError):
        return
    alive = [pid for pid in pids if isinstance(pid, int) and process_alive(pid)]
    if alive != pids:
        handles.write_text(json.dumps(alive))
        log.info("embedded PostgreSQL: forgot %d processes that exited without detaching", len(pids) - len(alive))


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
