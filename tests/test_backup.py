"""Backup and restore of the embedded PostgreSQL as the README tells it: dump the memory bank,
lose the data folder, restore the dump into a new one, and recall from it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bot.config import PROJECT_ROOT

# Not marked `embedded`: it never reads TEST_DATABASE_URL (the commands run on the embedded
# PostgreSQL of their own data folder), so `.ci/run`'s second, embedded step would run it as is.
SCRIPT = PROJECT_ROOT / "scripts" / "embedded_backup.py"


def run(*argv: str, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, *argv], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, f"{argv}: {done.stdout[-1000:]}\n{done.stderr[-2000:]}"
    return done.stdout


def test_a_dump_of_the_embedded_bank_restores_into_a_new_data_folder_and_recalls(tmp_path: Path) -> None:
    data = Path(tempfile.mkdtemp(prefix="imb-", dir="/tmp"))  # short: the socket lives inside
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"} | {"INCIDENT_MEMORY_DATA_DIR": str(data)}
    backup = tmp_path / "memory.dump"
    try:
        run("-m", "bot.cli", "import", "examples/", env=env)
        assert "wrote" in run(str(SCRIPT), "dump", str(backup), env=env)
        assert "10 memories restored and recalled" in run(str(SCRIPT), "drill", env=env)

        shutil.rmtree(data)  # the disk is lost
        data.mkdir()
        assert "10 memories" in run(str(SCRIPT), "restore", str(backup), env=env)
        recalled = run("-m", "bot.cli", "recall", "users", "logged", "out,", "redis", "evicting", "keys", env=env)
        assert recalled.startswith("1. INC-2024-0318")
    finally:
        shutil.rmtree(data, ignore_errors=True)
