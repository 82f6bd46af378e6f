"""The embedded default: a PostgreSQL 16 of our own (the pgserver wheel), kept in the data folder.

Several processes may share one data folder: each attaches to the server already running there.
"""

from __future__ import annotations

import logging
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
    try:
        with warnings.catch_warnings():
            # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI): harmless here
            warnings.simplefilter("ignore")
            import pgserver  # imported here: only the embedded default needs it

            server = pgserver.get_server(pg_dir)
    except Exception as exc:  # noqa: BLE001 - pgserver raises plain exceptions with the server log
        raise EmbeddedPostgresError(f"could not start the embedded PostgreSQL in {pg_dir}: {exc}") from exc
    log.info("embedded PostgreSQL: data in %s", pg_dir)
    return server.get_uri()
