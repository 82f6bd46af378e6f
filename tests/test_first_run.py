"""The first five minutes: every setting or connection a user can get wrong is one line that
names the setting and the fix, found before anything starts; `serve` checks its token first."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.sandbox import SlackSandbox


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the embedded PostgreSQL would live: the tests check it was never started."""
    folder = tmp_path / "data"
    monkeypatch.setenv("INCIDENT_MEMORY_DATA_DIR", str(folder))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return folder


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, f"expected one line, got:\n{text}"
    assert "Traceback" not in text
    return lines[0]


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("not-a-url", "not a PostgreSQL URL"),
        ("postgresql+asyncpg://im:pw@localhost/im", "postgresql+asyncpg:// is SQLAlchemy's spelling"),
        ("postgresql://localhost:fivefourthreetwo/im", "the port is not a number"),
    ],
    ids=["not a url", "sqlalchemy scheme", "bad port"],
)
def test_a_database_url_that_cannot_work_is_refused_before_anything_starts(
    url: str, said: str, data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    code, out, err = run(capsys, "list")
    line = one_line(err)
    assert code == 1 and out == ""
    assert (
        line.startswith("error: DATABASE_URL=") and said in line and "unset it to use the embedded PostgreSQL" in line
    )
    assert ":pw@" not in line  # a password is never echoed
    assert not data_dir.exists()  # the embedded database was not started


def test_a_closed_port_says_to_check_database_url_or_unset_it(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("DATABASE_URL", f"postgresql://postgres@127.0.0.1:{port}/memory")
    code, _, err = run(capsys, "show", "INC-1")
    line = one_line(err)
    assert code == 1
    assert f"cannot connect to the database at 127.0.0.1:{port}/memory" in line
    assert "check DATABASE_URL" in line and "unset it to use the embedded PostgreSQL" in line


def test_errors_under_json_are_json_on_stdout_with_the_same_exit_code(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "not-a-url")
    code, out, err = run(capsys, "list", "--json")
    assert code == 1 and err == ""
    assert "DATABASE_URL" in json.loads(out)["error"]


@pytest.mark.parametrize("inside", ["a-file", "/proc"], ids=["under a file", "not writable"])
def test_a_data_folder_that_cannot_be_made_names_the_setting(
    inside: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    parent = tmp_path / inside if inside == "a-file" else Path(inside)
    if inside == "a-file":
        parent.write_text("not a folder")
    monkeypatch.setenv("INCIDENT_MEMORY_DATA_DIR", str(parent / "incident-memory"))
    code, _, err = run(capsys, "recall", "pool", "exhausted")
    line = one_line(err)
    assert code == 1 and f"INCIDENT_MEMORY_DATA_DIR={parent / 'incident-memory'}" in line
    assert "set INCIDENT_MEMORY_DATA_DIR to a folder you can write, or DATABASE_URL" in line


def test_an_unknown_log_level_names_the_setting_and_the_choices(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LOG_LEVEL", "verbose")
    code, _, err = run(capsys, "list")
    line = one_line(err)
    assert code == 1 and "LOG_LEVEL='verbose'" in line and "'DEBUG', 'INFO'" in line and "unset it" in line
    assert not data_dir.exists()


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("PORT", "99999", "PORT='99999': Input should be less than or equal to 65535"),
        ("INCIDENT_CHANNEL_PATTERN", "inc-(", "INCIDENT_CHANNEL_PATTERN='inc-(': not a regular expression"),
        ("INVESTIGATE_PRIVATE_WITH_MODEL", "maybe", "INVESTIGATE_PRIVATE_WITH_MODEL='maybe'"),
        ("INCIDENT_MEMORY_CONCEPTS_PATH", "/nonexistent/concepts.json", "INCIDENT_MEMORY_CONCEPTS_PATH=/nonexistent"),
    ],
)
def test_every_other_setting_a_user_can_get_wrong_is_one_line(
    name: str,
    value: str,
    said: str,
    data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(name, value)
    code, _, err = run(capsys, "recall", "checkout", "timeouts")
    line = one_line(err)
    assert code == 1 and said in line and "or unset" in line
    assert not (data_dir / "pg").exists()


# ---- serve -----------------------------------------------------------------------------------


async def _serve(env: dict[str, str], *, until: bytes | None = None, timeout: float = 60) -> tuple[int | None, str]:
    """Run `serve` as a deploy does; stop it with SIGTERM once `until` is logged."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DATABASE_URL"))}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "serve", env=base | env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    err = b""
    try:
        if until is not None:
            assert proc.stderr is not None
            while until not in err:
                line = await asyncio.wait_for(proc.stderr.readline(), timeout)
                if not line:
                    break
                err += line
            proc.send_signal(signal.SIGTERM)
        out, rest = await asyncio.wait_for(proc.communicate(), timeout)
    finally:
        if proc.returncode is None:
            proc.kill()
    return proc.returncode, (err + rest).decode() + out.decode()


async def test_serve_without_a_bot_token_says_so_first_and_starts_no_database(tmp_path: Path) -> None:
    code, said = await _serve({"INCIDENT_MEMORY_DATA_DIR": str(tmp_path / "data")})
    line = one_line(said)
    assert code == 1 and line.startswith("error: SLACK_BOT_TOKEN is not set") and "xoxb-" in line
    assert not (tmp_path / "data").exists()


async def test_serve_without_a_signing_secret_mentions_socket_mode(tmp_path: Path) -> None:
    code, said = await _serve({"INCIDENT_MEMORY_DATA_DIR": str(tmp_path / "data"), "SLACK_BOT_TOKEN": "xoxb-1"})
    line = one_line(said)
    assert code == 1 and "SLACK_SIGNING_SECRET is not set" in line
    assert "Socket Mode" in line and "SLACK_APP_TOKEN" in line


async def test_serve_refuses_a_token_slack_rejects_in_one_line(tmp_path: Path) -> None:
    async with SlackSandbox() as sandbox:
        code, said = await _serve({"INCIDENT_MEMORY_DATA_DIR": str(tmp_path / "data"), "SLACK_BOT_TOKEN": "xoxb-wrong",
                                   "SLACK_SIGNING_SECRET": "s", "SLACK_API_URL": sandbox.base_url})  # fmt: skip
    line = one_line(said)
    assert code == 1 and "Slack refused SLACK_BOT_TOKEN (invalid_auth)" in line and "xoxb-wrong" not in line
    assert not (tmp_path / "data" / "pg").exists()  # checked before the database starts


async def test_serve_refuses_an_app_token_slack_rejects_in_one_line(database_url: str) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    async with SlackSandbox() as sandbox:  # it knows the bot token only: the app token is refused
        code, said = await _serve({"DATABASE_URL": database_url, "PORT": str(port), "SLACK_BOT_TOKEN": sandbox.token,
                                   "SLACK_APP_TOKEN": "xapp-wrong", "SLACK_API_URL": sandbox.base_url,
                                   "LOG_LEVEL": "WARNING"})  # fmt: skip
    line = one_line(said)
    assert (
        code == 1
        and line.startswith("error: Slack refused SLACK_APP_TOKEN (invalid_auth)")
        and "unset SLACK_APP_TOKEN" in line
    )
    assert "xapp-wrong" not in line


async def test_serve_on_a_port_in_use_says_to_set_port(database_url: str) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with SlackSandbox() as sandbox:
            code, said = await _serve({"DATABASE_URL": database_url, "PORT": str(port), "SLACK_BOT_TOKEN": sandbox.token,
                                       "SLACK_SIGNING_SECRET": "s", "SLACK_API_URL": sandbox.base_url,
                                       "LOG_LEVEL": "WARNING"})  # fmt: skip
    assert (
        code == 1
        and one_line(said).startswith(f"error: cannot listen on PORT={port}")
        and "set PORT to a free port" in said
    )


async def test_serve_says_which_workspace_it_serves_and_warns_of_nothing(database_url: str) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    async with SlackSandbox() as sandbox:
        env = {"DATABASE_URL": database_url, "PORT": str(port), "SLACK_BOT_TOKEN": sandbox.token,
               "SLACK_SIGNING_SECRET": "s3cret", "SLACK_API_URL": sandbox.base_url, "LOG_FORMAT": "text"}  # fmt: skip
        code, said = await _serve(env, until=b"listening on")
        assert [c.method for c in sandbox.calls("auth.test")] == ["auth.test"]
    assert code == 0, said
    assert f"serving the Slack workspace {sandbox.team} ({sandbox.team_id})" in said
    assert "WARNING" not in said and "will be unused" not in said
