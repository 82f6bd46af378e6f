"""A flood of forged 1 MB requests at the real app, with genuine signed commands in between.

The app runs in this process on 127.0.0.1 (Slack = the sandbox, a throwaway database), logging
as `serve` does (JSON, INFO). WORKERS concurrent senders post forged event callbacks of SIZE
bytes; meanwhile one sender posts genuine `/incident help` commands, one after the other. Reports
CPU per forged request (this process: the senders' signing and JSON are included), the forged
requests' round trip, the genuine acks' p50/p95, and log bytes per forged request (the
sandbox's own access-log line aside: `serve` has none).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/forged_flood.py
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import logging
import os
import statistics
import time

from bot.config import PROJECT_ROOT, Settings
from bot.memory.database import throwaway_database
from bot.observability.logs import make_handler
from bot.sandbox.local_bot import LocalBot, local_bot
from bot.sandbox.signed import message_event
from bot.sandbox.signing import Signing


class _NotAccessLog(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.name != "aiohttp.access"


async def flood(bot: LocalBot, forged: str, count: int, latencies: list[float]) -> None:
    for _ in range(count):
        start = time.perf_counter()
        response = await bot.slack.post(forged, content_type="application/json", signing=Signing.forged())
        latencies.append(time.perf_counter() - start)
        assert response.status == 401, response.status


async def genuine(bot: LocalBot, stop: asyncio.Event, latencies: list[float]) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        response = await bot.slack.command("/incident", "help", user_id="U1", channel_id="C1")
        latencies.append(time.perf_counter() - start)
        assert response.status == 200, response.status
        await asyncio.sleep(0.02)


async def run(args: argparse.Namespace) -> None:
    stream = io.StringIO()
    handler = make_handler("json", stream)
    handler.addFilter(_NotAccessLog())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    admin = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    async with throwaway_database(admin, PROJECT_ROOT / "migrations", prefix="im_bench_flood") as dsn:
        async with local_bot(Settings(database_url=dsn)) as bot:
            bot.sandbox.add_user("U1", "alice")
            bot.sandbox.add_channel("C1", "inc-flood")
            event = message_event("C1", "x" * args.size, user="U1")
            forged = json.dumps(
                {"type": "event_callback", "team_id": bot.sandbox.team_id, "event_id": "EvF", "event": event}
            )
            forged_latency: list[float] = []
            genuine_latency: list[float] = []
            stop = asyncio.Event()
            logged_before = len(stream.getvalue())
            cpu = time.process_time()
            real = asyncio.create_task(genuine(bot, stop, genuine_latency))
            await asyncio.gather(
                *(flood(bot, forged, args.requests // args.workers, forged_latency) for _ in range(args.workers))
            )
            cpu = time.process_time() - cpu
            stop.set()
            await real
            sent = len(forged_latency)
            log_bytes = len(stream.getvalue()) - logged_before
    q = statistics.quantiles(genuine_latency, n=20)
    print(f"forged: {sent} requests of {len(forged) / 1e6:.2f} MB at {args.workers} concurrent")
    print(f"  CPU per forged request (senders included): {cpu / sent * 1000:.1f} ms")
    print(f"  forged round trip p50: {statistics.median(forged_latency) * 1000:.1f} ms")
    print(f"  log bytes per request (forged and genuine): {log_bytes / (sent + len(genuine_latency)):.0f}")
    print(
        f"genuine /incident help during the flood: {len(genuine_latency)} acks, p50 {statistics.median(genuine_latency) * 1000:.1f} ms, p95 {q[18] * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--workers", type=int, default=10)
    parser.add_argument("--size", type=int, default=1_000_000, help="characters of forged message text")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
