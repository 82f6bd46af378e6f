"""Load and faults, as an operator would try them: `incident-memory serve` in its own process,
signed requests from a stand-in Slack, the database behind a proxy the script can cut.

Everything stays on the loopback: the Slack sandbox (bot/sandbox) in this process, the app as a
subprocess, PostgreSQL reached through a TCP proxy here (so an outage is a refused connection,
not a stopped server that other work shares). Loops are bounded in count and time.

Scenarios (`--scenario`):
- burst: N mixed requests (channel messages, `/recall TEXT`, `/investigate`, `/incident show`)
  at C concurrent, against a bank of M memories. Reports ack latency, then waits for every
  effect and counts what was lost or done twice. An event that gets no 200 is sent again as
  Slack would (`--slack-retry-delays`); a command whose ack says it could not start counts as
  told, not lost (Slack never resends a command).
- outage: the same burst, with the database refused for `--outage-s` seconds from
  `--outage-at-s` on. Events that do not get a 200 are sent again the way Slack retries them
  (`--slack-retry-delays`, by default Slack's: at once, 1 min, 5 min).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres \\
      .venv/bin/python bench/load_fault.py --scenario burst --requests 1000 --concurrency 50 --memories 10000
    .venv/bin/python bench/load_fault.py --scenario outage --requests 300 --concurrency 20 --outage-s 60

`--serve` names another `incident-memory` executable (e.g. an older checkout's) to compare.
Prints one JSON object per scenario on stdout; progress on stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import random
import secrets
import shutil
import signal
import socket
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg

from bot.config import PROJECT_ROOT
from bot.memory.bulk import retain_many
from bot.memory.database import with_database
from bot.memory.incidents import PostgresIncidentStore
from bot.memory.migrate import apply_migrations
from bot.memory.pool import create_pool
from bot.memory.postings import derive_postings
from bot.models import Incident
from bot.recall.concepts import load_vocabulary
from bot.replay_report import percentile
from bot.sandbox import SignedSender, SlackSandbox, message_event
from bot.sandbox.tcp_proxy import TcpProxy

INCIDENT_CHANNELS = 8
MIX = (("message", 0.6), ("recall", 0.15), ("investigate", 0.1), ("show", 0.15))


def log(*parts: object) -> None:
    print(f"[{datetime.now():%H:%M:%S}]", *parts, file=sys.stderr, flush=True)


def _generator() -> Any:
    """The synthetic incident text of bench/recall_latency.py (no corpus text)."""
    spec = importlib.util.spec_from_file_location("recall_latency", Path(__file__).with_name("recall_latency.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Generator()


@dataclass
class Sent:
    kind: str
    at: float
    ack_ms: float | None = None
    status: int | None = None
    attempts: int = 1
    key: str = ""  # message ts, or the user whose ephemeral answers a command
    channel: str = ""
    told_at_ack: bool = False  # the ack itself said the work could not be started


@dataclass
class Run:
    sent: list[Sent] = field(default_factory=list)


async def seed(admin_dsn: str, name: str, memories: int, team: str) -> str:
    admin = await asyncpg.connect(admin_dsn)
    await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    dsn = with_database(admin_dsn, name)
    conn = await asyncpg.connect(dsn)
    try:
        await apply_migrations(conn, PROJECT_ROOT / "migrations")
        gen = _generator()
        vocabulary = load_vocabulary(None)
        for start in range(0, memories, 5000):
            drafts = [
                gen.memory(i).model_copy(update={"team_id": team}) for i in range(start, min(memories, start + 5000))
            ]
            await retain_many(conn, drafts, vocabulary)
        await derive_postings(conn)
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()
    return dsn


async def open_incidents(dsn: str, team: str, sandbox: SlackSandbox) -> list[tuple[str, str]]:
    pool = await create_pool(dsn, max_size=2)
    store = PostgresIncidentStore(pool)
    opened = []
    try:
        for i in range(INCIDENT_CHANNELS):
            channel = f"CINC{i:03d}"
            name = f"inc-load-{i}"
            sandbox.add_channel(channel, name)
            record, _ = await store.open_incident(
                team,
                channel,
                Incident(title=f"checkout latency {i}: connection pool exhausted", channel=channel, team=team),
                channel_name=name,
            )
            opened.append((channel, record.incident_id))
    finally:
        await pool.close()
    return opened


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def start_serve(executable: str, env: dict[str, str], port: int) -> asyncio.subprocess.Process:
    proc = await asyncio.create_subprocess_exec(
        executable, "serve", env=env, stdout=asyncio.subprocess.DEVNULL, stderr=open(env["BENCH_LOG"], "ab")
    )
    async with aiohttp.ClientSession() as session:
        for _ in range(300):
            with contextlib.suppress(aiohttp.ClientError):
                async with session.get(f"http://127.0.0.1:{port}/healthz") as r:
                    if r.status == 200:
                        return proc
            if proc.returncode is not None:
                raise RuntimeError(f"serve exited with {proc.returncode}; see {env['BENCH_LOG']}")
            await asyncio.sleep(0.1)
    raise RuntimeError("serve did not become healthy")


async def send_one(
    slack: SignedSender, sandbox: SlackSandbox, kind: str, i: int, channel: str, incident_id: str, memory_ids: list[str],
    retry_delays: list[float], rng: random.Random,
) -> Sent:  # fmt: skip
    start = time.perf_counter()
    sent = Sent(kind, at=time.monotonic(), channel=channel)
    if kind == "message":
        user = f"UMSG{i % 50:03d}"
        ts = f"{int(time.time()) - 3600}.{i:06d}"  # unique per request, like Slack's
        event = message_event(channel, f"pool at 100% again, retrying checkout {i}", user=user, ts=ts)
        sent.key = event["ts"]
        event_id = f"EvLOAD{i:06d}"
        response = await slack.event(event, event_id=event_id)
        sent.ack_ms = (time.perf_counter() - start) * 1000
        sent.status = response.status
        # Slack sends an event again when it did not get a 200 in 3 s
        for retry, delay in enumerate(retry_delays, start=1):
            if response.status == 200:
                break
            await asyncio.sleep(delay)
            response = await slack.event(event, event_id=event_id, retry_num=retry)
            sent.attempts += 1
        sent.status = response.status
        return sent
    user = f"UCMD{i:05d}"
    sandbox.add_user(user, f"load{i}")
    sent.key = user
    if kind == "recall":
        response = await slack.command(
            "/recall", "connection pool exhausted checkout timeouts", user_id=user, channel_id=channel
        )
    elif kind == "investigate":
        response = await slack.command("/investigate", user_id=user, channel_id=channel)
    else:
        response = await slack.command("/incident", f"show {rng.choice(memory_ids)}", user_id=user, channel_id=channel)
    sent.ack_ms = (time.perf_counter() - start) * 1000
    sent.status = response.status
    sent.told_at_ack = "could not start" in json.dumps(response.body)
    return sent


async def burst(args: argparse.Namespace, slack: SignedSender, sandbox: SlackSandbox, incidents: list[tuple[str, str]],
                memory_ids: list[str], proxy: TcpProxy, retry_delays: list[float]) -> list[Sent]:  # fmt: skip
    rng = random.Random(11)
    kinds = rng.choices([k for k, _ in MIX], weights=[w for _, w in MIX], k=args.requests)
    semaphore = asyncio.Semaphore(args.concurrency)
    t0 = time.monotonic()

    async def one(i: int, kind: str) -> Sent:
        async with semaphore:
            channel, incident_id = incidents[i % len(incidents)]
            try:
                return await send_one(slack, sandbox, kind, i, channel, incident_id, memory_ids, retry_delays, rng)
            except (TimeoutError, aiohttp.ClientError) as exc:
                return Sent(kind, at=time.monotonic(), status=-1, key=str(exc), channel=channel)

    async def outage() -> None:
        if args.scenario != "outage":
            return
        await asyncio.sleep(args.outage_at_s)
        log(f"database refused for {args.outage_s:.0f} s")
        proxy.cut()
        await asyncio.sleep(args.outage_s)
        proxy.restore()
        log("database back")

    # requests are spread over --spread-s so that an outage falls in the middle of the burst
    async def paced(i: int, kind: str) -> Sent:
        await asyncio.sleep(args.spread_s * i / max(1, args.requests))
        return await one(i, kind)

    fault = asyncio.create_task(outage())
    sent = await asyncio.gather(*(paced(i, k) for i, k in enumerate(kinds)))
    await fault
    log(f"sent {len(sent)} requests in {time.monotonic() - t0:.1f} s")
    return list(sent)


def _investigations(sandbox: SlackSandbox, channels: set[str]) -> tuple[int, int]:
    """(answers or failure notices, placeholders still spinning) across the incident channels."""
    texts = [m.text for c in channels for m in sandbox.messages(c)]
    answered = sum(
        1 for t in texts if t.startswith("Investigation") or "investigation" in t.lower() and "could not" in t.lower()
    )
    spinning = sum(1 for t in texts if t.startswith("Investigating"))
    return answered, spinning


def _answers(sandbox: SlackSandbox, user: str) -> tuple[int, int]:
    """(whether the user got an answer, how many extra copies of its first message)."""
    got = sandbox.ephemerals(user=user)
    if not got:
        return 0, 0
    return 1, sum(1 for e in got if e.text == got[0].text) - 1


async def settle(args: argparse.Namespace, sandbox: SlackSandbox, dsn: str, sent: list[Sent]) -> dict[str, Any]:
    """Wait until every effect is there (or --settle-s passes), then count."""
    messages = [s for s in sent if s.kind == "message"]
    asked = [s for s in sent if s.kind in ("recall", "show")]
    investigations = sum(1 for s in sent if s.kind == "investigate")
    channels = {s.channel for s in sent}
    deadline = time.monotonic() + args.settle_s
    conn = await asyncpg.connect(dsn)
    try:
        while True:
            in_timeline = await conn.fetchval(
                "SELECT count(DISTINCT message_ts) FROM timeline_entries WHERE message_ts = ANY($1::text[])",
                [s.key for s in messages],
            )
            answered = sum(_answers(sandbox, s.key)[0] or s.told_at_ack for s in asked)
            investigated, spinning = _investigations(sandbox, channels)
            told = sum(s.told_at_ack for s in sent if s.kind == "investigate")
            done = (
                in_timeline == len(messages)
                and answered == len(asked)
                and investigated + told >= investigations
                and not spinning
            )
            if done or time.monotonic() > deadline:
                break
            await asyncio.sleep(1.0)
    finally:
        await conn.close()
    per_kind: dict[str, dict[str, int]] = {
        "message": {"sent": len(messages), "done": in_timeline},
        "investigate": {"sent": investigations, "done": investigated, "told_failed_at_ack": told},
    }
    for kind in ("recall", "show"):
        group = [s for s in asked if s.kind == kind]
        per_kind[kind] = {
            "sent": len(group),
            "done": sum(_answers(sandbox, s.key)[0] and not s.told_at_ack for s in group),
            "told_failed_at_ack": sum(s.told_at_ack for s in group),
        }
    for counts in per_kind.values():
        counts["lost"] = max(0, counts["sent"] - counts["done"] - counts.get("told_failed_at_ack", 0))
    parents = [m for c in channels for m in sandbox.messages(c) if "past incident" in m.text and not m.thread_ts]
    return {
        "per_kind": per_kind,
        "placeholders_left": spinning,
        "duplicate_answers": sum(_answers(sandbox, s.key)[1] for s in asked) + max(0, investigated - investigations),
        "recall_thread_parents": len(parents),
    }


async def scenario(args: argparse.Namespace) -> dict[str, Any]:
    admin = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    sandbox = SlackSandbox()
    await sandbox.start()
    name = f"im_load_{secrets.token_hex(4)}"
    log(f"seeding {args.memories} memories into {name}")
    dsn = await seed(admin, name, args.memories, sandbox.team_id)
    incidents = await open_incidents(dsn, sandbox.team_id, sandbox)
    memory_ids = [f"B-{i}" for i in range(0, args.memories, max(1, args.memories // 500))]
    proxy = TcpProxy.for_dsn(admin)
    await proxy.start()
    app_port = free_port()
    secret = secrets.token_hex(16)
    log_path = Path(args.log or f"/tmp/{name}.log")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "ANTHROPIC_"))},
        "DATABASE_URL": proxy.dsn_through(dsn),
        "SLACK_BOT_TOKEN": sandbox.token,
        "SLACK_SIGNING_SECRET": secret,
        "SLACK_API_URL": sandbox.base_url,
        "PORT": str(app_port),
        "LOG_LEVEL": "WARNING",
        "BENCH_LOG": str(log_path),
    }
    # Slack sends an event again when it gets no 200 within 3 s, in both scenarios
    retry_delays = [float(x) for x in args.slack_retry_delays.split(",") if x.strip()]
    proc = await start_serve(args.serve, env, app_port)
    result: dict[str, Any] = {"scenario": args.scenario, "requests": args.requests, "concurrency": args.concurrency,
                              "memories": args.memories}  # fmt: skip
    try:
        async with SignedSender(f"http://127.0.0.1:{app_port}/slack/events", secret, sandbox=sandbox) as slack:
            sent = await burst(args, slack, sandbox, incidents, memory_ids, proxy, retry_delays)
        acks = [s.ack_ms for s in sent if s.ack_ms is not None]
        result["ack_ms"] = {p: round(percentile(acks, q), 1) for p, q in (("p50", 50), ("p99", 99))}
        result["ack_status"] = dict(Counter(str(s.status) for s in sent))
        result.update(await settle(args, sandbox, dsn, sent))
    finally:
        proc.send_signal(signal.SIGTERM)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(proc.wait(), 60)
        if proc.returncode is None:
            proc.kill()
        await proxy.stop()
        await sandbox.stop()
        admin_conn = await asyncpg.connect(admin)
        await admin_conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin_conn.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=("burst", "outage"), default="burst")
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--spread-s", type=float, default=0.0, help="send the requests over this long")
    parser.add_argument("--outage-at-s", type=float, default=5.0)
    parser.add_argument("--outage-s", type=float, default=60.0)
    parser.add_argument("--slack-retry-delays", default="0,60,300", help="seconds; Slack's own schedule")
    parser.add_argument("--settle-s", type=float, default=180.0, help="how long to wait for the effects")
    parser.add_argument(
        "--serve", default=shutil.which("incident-memory") or str(Path(sys.executable).with_name("incident-memory"))
    )
    parser.add_argument("--log", help="the app's stderr (default /tmp/im_load_*.log)")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(scenario(args))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
