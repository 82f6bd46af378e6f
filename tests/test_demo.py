"""`incident-memory demo` as a new user runs it: a fresh home, the embedded PostgreSQL, and
Ctrl-C or SIGTERM at any moment leave nothing behind."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.config import Settings
from bot.demo import run_demo

# What the demo prints as each step begins ("" = while the embedded PostgreSQL is being created).
STEPS = ("", "1. Past incidents", "2. /incident declare", "3. People talk", "4. Investigate",
         '5. "all clear"', "6. Save what we learned", "7. A week later", "8. An Alertmanager alert", "Done")  # fmt: skip
FRESH_DATABASES = {"1", "4", "5"}  # template1, template0, postgres: what initdb makes


@pytest.fixture
def fresh_home() -> Iterator[Path]:
    home = Path(tempfile.mkdtemp(prefix="imh-", dir="/tmp"))  # short: PostgreSQL's socket lives inside
    try:
        yield home
    finally:
        _stop_leftovers(home)
        shutil.rmtree(home, ignore_errors=True)


def _env(home: Path) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "XDG_DATA_HOME", "INCIDENT_MEMORY_DATA_DIR")
    }
    return env | {"HOME": str(home), "PYTHONUNBUFFERED": "1", "COLUMNS": "100"}


def _postgres_processes(home: Path) -> list[str]:
    # -ww: whole command lines (ps cut them at 80 columns under pytest, before the data folder's path)
    ps = subprocess.run(["ps", "-ww", "-eo", "pid,args"], capture_output=True, text=True, check=True).stdout
    return [line for line in ps.splitlines() if str(home) in line and "postgres" in line]


def _stop_leftovers(home: Path) -> None:
    for line in _postgres_processes(home):
        try:
            os.kill(int(line.split()[0]), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass


def _pg(home: Path) -> Path:
    return home / ".local" / "share" / "incident-memory" / "pg"


def _databases(home: Path) -> set[str]:
    """The databases in the embedded cluster, read from its folder (one folder each)."""
    base = _pg(home) / "base"
    return {p.name for p in base.iterdir()} if base.is_dir() else set()


def _as_in_a_terminal() -> None:
    # a shell's background jobs (CI, this test runner) inherit SIGINT ignored; a terminal's do not
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _demo(home: Path, *args: str) -> tuple[subprocess.Popen[bytes], Path]:
    out = home / f"demo-{time.monotonic_ns()}.out"
    with out.open("wb") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "demo", *args], env=_env(home), stdout=sink,
                                stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_as_in_a_terminal)  # fmt: skip
    return proc, out


class _Forked:
    """A child of the demo starter (tests/demo_starter.py): its pid, poll() and wait() as Popen's."""

    def __init__(self, said: int, pid: int) -> None:
        self._said, self.pid = said, pid  # the starter's stdout: this child's exit code comes next
        self.returncode: int | None = None

    def poll(self, timeout: float = 0) -> int | None:
        if self.returncode is None and select.select([self._said], [], [], timeout)[0]:
            self.returncode = int(_line(self._said))
        return self.returncode

    def wait(self, timeout: float) -> int:
        code = self.poll(timeout)
        if code is None:
            raise subprocess.TimeoutExpired(f"demo {self.pid}", timeout)
        return code


def _line(fd: int) -> bytes:
    """One line, read unbuffered: the next one is the starter's answer only when it has it."""
    line = b""
    while not line.endswith(b"\n"):
        byte = os.read(fd, 1)
        if not byte:
            raise AssertionError(f"the demo starter ended: {line!r}")
        line += byte
    return line


@contextmanager
def _demo_starter(home: Path) -> Iterator[Callable[[str], tuple[_Forked, Path]]]:
    """Children forked from one process that imported the program (tests/demo_starter.py)."""
    starter = subprocess.Popen([sys.executable, str(Path(__file__).with_name("demo_starter.py"))], env=_env(home),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, start_new_session=True,
                               preexec_fn=_as_in_a_terminal)  # fmt: skip
    assert starter.stdin is not None and starter.stdout is not None
    said, children = starter.stdout.fileno(), []

    def start(command: str) -> tuple[_Forked, Path]:
        out = home / f"{command}-{time.monotonic_ns()}.out"
        out.touch()  # the child opens it after the starter answers
        starter.stdin.write(f"{command} {out}\n".encode())
        children.append(_Forked(said, int(_line(said))))
        return children[-1], out

    try:
        yield start
    finally:
        for child in children:
            if child.poll() is None:  # a failed assertion left it running
                os.killpg(child.pid, signal.SIGKILL)
                child.wait(30)
        starter.stdin.close()
        starter.wait(60)


def _wait_for(proc: subprocess.Popen[bytes] | _Forked, out: Path, marker: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while marker not in out.read_text(errors="replace"):
        if proc.poll() is not None:
            raise AssertionError(f"the demo ended before {marker!r}:\n{out.read_text()[-3000:]}")
        if time.monotonic() > deadline:
            raise AssertionError(f"no {marker!r} after {timeout} s:\n{out.read_text()[-3000:]}")
        time.sleep(0.05)


def test_the_demo_runs_through_and_leaves_nothing_behind(fresh_home: Path) -> None:
    proc, out = _demo(fresh_home)
    assert proc.wait(180) == 0, out.read_text()[-3000:]
    shown = out.read_text()
    assert "[human_confirmed]" in shown and "[unconfirmed_hypothesis]" in shown  # not eaten as markup
    follow_up = shown.split("7. A week later", 1)[1]
    shown_count = int(re.search(r"(\d+) past incidents? looks? like this one", follow_up).group(1))
    if shown_count > 1:  # the first is printed; the demo says where the rest are
        rest = shown_count - 1
        assert f"{rest} more past incident{'s' if rest != 1 else ''} in the thread" in follow_up
    assert "embedded PostgreSQL" not in shown  # quiet by default
    assert _postgres_processes(fresh_home) == []
    assert _databases(fresh_home) == FRESH_DATABASES


def _plans() -> list[tuple[str, list[tuple[str, int]]]]:
    """Every step is interrupted once, by SIGINT and SIGTERM in turn (each signal at four points).
    IM_DEMO_INTERRUPTS=all interrupts every step with each signal (twice as long)."""
    alternating = [(step, (signal.SIGINT, signal.SIGTERM)[i % 2]) for i, step in enumerate(STEPS)]
    if os.environ.get("IM_DEMO_INTERRUPTS") != "all":
        return [("alternating", alternating)]
    return [
        (f"every step {signal.Signals(s).name}", [(step, s) for step in STEPS]) for s in (signal.SIGINT, signal.SIGTERM)
    ]


@pytest.mark.parametrize("plan", [p for _, p in _plans()], ids=[name for name, _ in _plans()])
def test_interrupted_at_every_step_the_demo_leaves_no_postgres_and_no_database(
    fresh_home: Path, plan: list[tuple[str, int]]
) -> None:
    """Ctrl-C reaches the whole process group (killpg), as a terminal sends it; SIGTERM too, as
    a container runtime or systemd does. Each demo is a process of its own, forked from one that
    imported the program once (tests/demo_starter.py: the imports were most of each start's CPU);
    after the first, which is interrupted while initdb makes the cluster, the cluster's template1
    is migrated and fsync turned off (the starter's `ready`): what each demo does up to its step
    and at its end is the program's, and what is asserted after it the same."""
    readied = False
    with _demo_starter(fresh_home) as start:
        for step, signum in plan:
            if step and not readied:
                proc, out = start("ready")
                assert proc.wait(120) == 0, out.read_text()[-3000:]
                assert _postgres_processes(fresh_home) == []  # each demo starts the server, as a user's does
                readied = True
            expected = {signal.SIGINT: 130, signal.SIGTERM: 143}[signum]
            proc, out = start("demo")
            if step:
                _wait_for(proc, out, step)
            else:  # the first run in a fresh home: initdb is making the cluster
                deadline = time.monotonic() + 60
                while not (_pg(fresh_home) / "base").exists() and time.monotonic() < deadline:
                    time.sleep(0.02)
            os.killpg(proc.pid, signum)
            code = proc.wait(60)
            said = out.read_text(errors="replace")
            where = f"{signal.Signals(signum).name} at {step or 'start'!r}"
            assert code in (expected, 0 if step == "Done" else expected), f"{where}: exit {code}\n{said[-3000:]}"
            assert "Traceback" not in said, f"{where}:\n{said[-3000:]}"
            assert _postgres_processes(fresh_home) == [], f"PostgreSQL still running after {where}"
            assert _databases(fresh_home) <= FRESH_DATABASES, f"a throwaway database is left after {where}"


def test_a_demo_killed_outright_is_cleaned_up_by_the_next_run(fresh_home: Path) -> None:
    """SIGKILL leaves no chance to clean up: the next start forgets the dead process's hold on the
    embedded server, drops its throwaway database, and stops the server when it ends."""
    proc, out = _demo(fresh_home)
    _wait_for(proc, out, "3. People talk")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(30)
    assert _databases(fresh_home) - FRESH_DATABASES  # the killed run's throwaway database
    proc, out = _demo(fresh_home, "--json")
    assert proc.wait(180) == 0, out.read_text()[-3000:]
    transcript = json.loads(out.read_text())  # --json: the same steps as the text, as JSON
    assert transcript["ok"] is True
    assert [s["step"].split(" ")[0] for s in transcript["steps"]] == [
        "1.",
        "2.",
        "3.",
        "4.",
        "5.",
        "6.",
        "7.",
        "8.",
        "Done",
    ]
    assert any("[verification_confirmed]" in shown["line"] for shown in transcript["steps"][0]["shown"])
    assert _postgres_processes(fresh_home) == []
    assert _databases(fresh_home) == FRESH_DATABASES


async def test_the_demo_shows_only_related_memories_and_flags_only_different_mechanisms(
    admin_dsn: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await run_demo(Settings(database_url=admin_dsn)) == 0
    out = capsys.readouterr().out
    first = out.split("2. /incident declare", 1)[1].split("3. People talk", 1)[0]
    assert "2 past incidents look like this one" in first
    # the TLS expiry and the Elasticsearch disk incident share only generic words: not shown
    assert "INC-2025-0815" not in first and "INC-2025-0603" not in first
    assert "score" not in first and "lexical" not in first  # the card speaks in words
    follow_up = out.split(". A week later", 1)[1]
    # the new memory and INC-2025-0412 are one explanation; INC-2025-0921 is another mechanism
    assert "and INC-2025-0412 vs INC-2025-0921" in " ".join(follow_up.split())
    # "all clear" brings the nudge; its button opens the resolution modal drafted from the channel
    saving = out.split("Save what we learned: the modal opens at once", 1)[1].split(". A week later", 1)[0]
    assert "Draft by rules from the channel" in saving
    assert "Attempt 1: what was tried: Restarted the checkout pods" in saving
    assert "Attempt 1: why it failed: Pool filled again after 20 minutes" in saving
    assert "failed_attempts[1] drafted" in " ".join(saving.split())
    # an Alertmanager webhook opens an incident in the routed channel, and recall finds the TLS expiry
    alerted = out.split("8. An Alertmanager alert", 1)[1]
    assert "POST /alerts/alertmanager → 200" in alerted and "Alertmanager: 1 firing" in alerted
    assert "INC-2025-0815" in alerted
