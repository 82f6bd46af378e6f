"""`incident-memory serve` as a deploy runs it: a real process, a port, a health check, SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import aiohttp

from bot.sandbox import SlackSandbox


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_serve_answers_health_and_metrics_then_stops_cleanly_on_sigterm(database_url: str) -> None:
    async with SlackSandbox(token="xoxb-test") as sandbox:  # serve checks its token with auth.test first
        await _serve_until_sigterm(database_url, sandbox)


async def _serve_until_sigterm(database_url: str, sandbox: SlackSandbox) -> None:
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "PORT": str(port), "SLACK_BOT_TOKEN": "xoxb-test",
           "SLACK_SIGNING_SECRET": "s3cret", "SLACK_API_URL": sandbox.base_url}  # fmt: skip
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "serve",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        async with aiohttp.ClientSession() as http:
            assert await _health(http, port) == (200, {"ok": True, "database": "ok"})
            async with http.get(f"http://127.0.0.1:{port}/metrics") as response:
                assert response.status == 200 and "incident_memory_events_received_total" in await response.text()
            async with http.post(f"http://127.0.0.1:{port}/slack/events", data="{}") as response:
                assert response.status == 401  # unsigned: refused
            async with http.get(f"http://127.0.0.1:{port}/metrics") as response:  # read from the processes' folder
                assert response.status == 200 and "incident_memory_gate_refused_total{" in await response.text()
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err.decode()[-2000:]
    assert b"xoxb-test" not in out + err and b"s3cret" not in out + err


def test_serve_without_a_bot_token_says_what_is_missing(database_url: str, monkeypatch, capsys) -> None:  # noqa: ANN001
    from bot.cli import main

    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["serve"]) == 1
    assert "error: SLACK_BOT_TOKEN is not set" in capsys.readouterr().err


async def test_serve_runs_its_jobs_in_a_worker_process_whose_metrics_it_serves_and_stops_it_on_sigterm(
    database_url: str, tmp_path: Path
) -> None:
    """With default settings, what a command queues is answered by `serve`'s worker process, and
    /metrics has that process's series too (jobs, recall latency); SIGTERM stops both and leaves
    no metrics folder behind."""
    from bot.sandbox import SignedSender, SlackSandbox

    port = _free_port()
    async with SlackSandbox() as sandbox:
        sandbox.add_user("U1", "alice")
        sandbox.add_channel("C1", "inc-checkout-timeouts")
        env = {k: v for k, v in os.environ.items() if k not in ("JOB_WORKERS", "PROMETHEUS_MULTIPROC_DIR")}
        env |= {"DATABASE_URL": database_url, "PORT": str(port), "SLACK_BOT_TOKEN": sandbox.token,
                "SLACK_SIGNING_SECRET": "s3cret", "SLACK_API_URL": sandbox.base_url, "TMPDIR": str(tmp_path)}  # fmt: skip
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.cli", "serve", env=env)
        try:
            async with aiohttp.ClientSession() as http:
                assert (await _health(http, port))[0] == 200
                async with SignedSender(f"http://127.0.0.1:{port}/slack/events", "s3cret", sandbox=sandbox) as slack:
                    assert (
                        await slack.command("/recall", "checkout timeouts", user_id="U1", channel_id="C1")
                    ).status == 200
                await sandbox.wait_for(lambda call: bool(sandbox.ephemerals(user="U1")), timeout=60)
                workers = _children(proc.pid)
                assert workers, "serve started no worker process"
                served = await _metrics_once(http, port, "incident_memory_jobs_total{")
            assert 'incident_memory_recall_latency_seconds_count{kind="text"}' in served
            assert "incident_memory_events_received_total{" in served  # serve's own process too
        finally:
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), 60)
    assert proc.returncode == 0
    assert not [pid for pid in workers if os.path.exists(f"/proc/{pid}")], "a worker outlived serve"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("incident-memory-metrics-")]


async def _metrics_once(http: aiohttp.ClientSession, port: int, series: str) -> str:
    """/metrics once it has `series` (the worker counts a job just after the job's answer)."""
    for _ in range(300):
        async with http.get(f"http://127.0.0.1:{port}/metrics") as response:
            served = await response.text()
        if series in served:
            return served
        await asyncio.sleep(0.1)
    raise AssertionError(f"/metrics never showed {series}:\n{served}")


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


async def _health(http: aiohttp.ClientSession, port: int) -> tuple[int, object]:
    """/healthz's first answer once serve listens (it checks its token and migrates first; a busy
    machine is slow): 60 s at most."""
    for _ in range(600):
        try:
            async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                return response.status, await response.json()
        except aiohttp.ClientConnectionError:
            await asyncio.sleep(0.1)
    raise AssertionError("serve never answered /healthz")
