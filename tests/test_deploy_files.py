"""The deployment files agree with the code: port, health check, release command, non-root."""

from __future__ import annotations

import re
import tomllib

from bot.config import PROJECT_ROOT, Settings

FLY = tomllib.loads((PROJECT_ROOT / "fly.toml").read_text())
DOCKERFILE = (PROJECT_ROOT / "Dockerfile").read_text()
DEFAULT_PORT = Settings.model_fields["port"].default  # the default, whatever PORT this shell has


def instructions(name: str) -> list[str]:
    """The arguments of every `NAME ...` instruction, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [m.group(1).strip() for m in re.finditer(rf"^{name}\s+(.*)$", joined, re.M | re.I)]


def test_fly_serves_http_on_the_bots_port_with_a_health_check() -> None:
    service = FLY["http_service"]
    assert service["internal_port"] == DEFAULT_PORT == 3000
    assert int(FLY["env"]["PORT"]) == service["internal_port"]
    checks = service["checks"]
    assert [(c["method"].upper(), c["path"]) for c in checks] == [("GET", "/healthz")]


def test_fly_migrates_before_release_and_never_sleeps() -> None:
    assert FLY["deploy"]["release_command"] == "incident-memory migrate"
    service = FLY["http_service"]
    assert service["min_machines_running"] >= 1
    assert service["auto_stop_machines"] in (False, "off")  # a cold start would miss Slack's 3 s ack


def test_fly_waits_for_the_drain_before_killing_a_machine() -> None:
    drain = Settings.model_fields["shutdown_drain_s"].default
    assert FLY["kill_signal"] == "SIGTERM"
    assert FLY["kill_timeout"] >= drain + 5  # jobs in flight finish, or go back to the queue, first


def test_fly_keeps_secrets_out_of_the_file() -> None:
    env = FLY.get("env", {})
    secrets = {"DATABASE_URL", "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "ANTHROPIC_API_KEY", "ALERTS_TOKEN",
               "PAGERDUTY_WEBHOOK_SECRET"}  # fmt: skip
    assert not secrets & set(env)
    assert "DATABASE_URL" in (PROJECT_ROOT / "fly.toml").read_text()  # the comment saying where it comes from


def test_dockerfile_installs_this_package_and_runs_it_as_non_root() -> None:
    assert instructions("FROM")[0].startswith("python:3.11-slim")
    users = instructions("USER")
    assert users and users[-1] not in ("root", "0")
    assert DOCKERFILE.index("USER") < DOCKERFILE.index("CMD")
    assert any(re.search(r"pip install (-e )?\.(\s|&|$)", run) for run in instructions("RUN"))
    copied = " ".join(instructions("COPY"))
    for needed in ("pyproject.toml", "bot", "migrations"):
        assert needed in copied  # bot/migrations links to migrations/: the wheel copies the files
    assert instructions("EXPOSE") == [str(DEFAULT_PORT)]
    assert instructions("CMD") == ['["incident-memory", "serve"]']


def test_dockerignore_does_not_hide_what_the_image_needs() -> None:
    ignored = {line.strip() for line in (PROJECT_ROOT / ".dockerignore").read_text().splitlines()}
    assert not {"bot", "migrations", "pyproject.toml", "README.md"} & ignored
    assert ".env" in ignored and ".git" in ignored
