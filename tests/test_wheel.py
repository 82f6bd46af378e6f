"""The package as an operator installs it without a checkout: a wheel built from this repository,
installed offline into a fresh venv, runs `migrate` and `demo` (its migrations, templates and
data travel inside the wheel)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import asyncpg

from bot.config import PROJECT_ROOT

# What the build reads; copied so the build's own folders (build/, *.egg-info) stay out of the checkout
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "bot", "migrations")


def build_wheel(into: Path) -> Path:
    source = into / "src"
    source.mkdir()
    for name in SOURCES:
        if (PROJECT_ROOT / name).is_dir():
            shutil.copytree(PROJECT_ROOT / name, source / name, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
        else:
            shutil.copy(PROJECT_ROOT / name, source / name)
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-build-isolation", "--no-deps", "-w", str(into), str(source)])
    (wheel,) = into.glob("incident_memory-*.whl")
    return wheel


def installed_venv(into: Path, wheel: Path) -> Path:
    """A venv with only the wheel installed; its dependencies are this interpreter's (a path file:
    nothing is downloaded, and this checkout's editable install is not seen). This interpreter's
    pip installs into it (`--python`): a pip of its own (ensurepip) cost seconds and is not what
    is checked."""
    venv = into / "venv"
    run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)])
    site = Path(run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]))
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "test-deps.pth").write_text("\n".join(sorted(deps)) + "\n")
    run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q", "--no-index",
         "--no-deps", "--force-reinstall", str(wheel)])  # fmt: skip
    return venv


def run(argv: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env, cwd=cwd)
    assert done.returncode == 0, f"{argv[:3]} → {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout.strip()


async def test_migrate_and_demo_run_from_an_installed_wheel(
    tmp_path: Path, admin_dsn: str, empty_database_url: str
) -> None:
    wheel = build_wheel(tmp_path)
    shipped = set(zipfile.ZipFile(wheel).namelist())
    migrations = sorted(p.name for p in (PROJECT_ROOT / "migrations").glob("*.sql"))
    assert {f"bot/migrations/{name}" for name in migrations} <= shipped
    assert {"bot/data/seed_memories.json", "bot/templates/recall_reply.json.j2"} <= shipped

    venv = installed_venv(tmp_path, wheel)
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("MIGRATIONS_DIR", "PYTHONPATH")}
    env |= {"HOME": str(elsewhere), "XDG_DATA_HOME": str(elsewhere / "data")}
    where = run([str(venv / "bin" / "python"), "-c", "import bot; print(bot.__file__)"], env=env, cwd=elsewhere)
    assert where.startswith(str(venv))  # the wheel's copy, not this checkout

    cli = str(venv / "bin" / "incident-memory")
    run([cli, "migrate"], env=env | {"DATABASE_URL": empty_database_url}, cwd=elsewhere)
    conn = await asyncpg.connect(empty_database_url)
    try:
        applied = sorted(r["name"] for r in await conn.fetch("SELECT name FROM schema_migrations"))
    finally:
        await conn.close()
    assert applied == migrations

    shown = run([cli, "demo"], env=env | {"DATABASE_URL": admin_dsn}, cwd=elsewhere)
    assert "Done" in shown
