"""How long `/incident resolve` takes to open its modal, with an instant or a slow model, and
how long the draft takes to follow; and how fast the offline drafter reads a long channel.

The real app over HTTP, Slack replaced by the sandbox and the model by the fake Messages API
(answering after `--model-delay` seconds), memory in the PostgreSQL given by DATABASE_URL (a
throwaway database is made and dropped). Prints medians and p95 in milliseconds.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/resolution_ack.py
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.config import Settings  # noqa: E402
from bot.drafting.rules import OfflineDrafter  # noqa: E402
from bot.memory.database import throwaway_database  # noqa: E402
from bot.models import TimelineEntry  # noqa: E402
from bot.sandbox.local_bot import local_bot  # noqa: E402
from tests.fakes.anthropic_api import Delay, FakeMessagesAPI, ToolAnswer  # noqa: E402

TALK = [
    "checkout is throwing 500s, payments pods look unhealthy",
    "restarted payments pods, errors back after 25 minutes",
    "raised max_connections to 400, still timing out",
    "found it in the heap dump: connection objects never released",
    "rolled back payments-client to 2.2, errors gone",
]


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


async def one_setting(dsn: str, runs: int, model_delay: float | None) -> tuple[list[float], list[float], list[float]]:
    """(ack ms, modal open ms, draft shown ms) per run."""
    acks, opens, drafts = [], [], []
    async with FakeMessagesAPI() as api:
        extra = (
            {}
            if model_delay is None
            else {"anthropic_api_key": "sk-bench", "anthropic_base_url": api.base_url, "drafting_timeout_s": 30}
        )
        async with local_bot(Settings(database_url=dsn, **extra)) as bot:
            bot.sandbox.add_user("U1", "maya")
            for run in range(runs):
                channel = f"C{model_delay}-{run}".replace(".", "")
                bot.sandbox.add_channel(channel, f"inc-bench-{run}")
                before = len(bot.sandbox.calls("views.open"))
                await bot.slack.command("/incident", "declare", user_id="U1", channel_id=channel)
                await bot.sandbox.wait_for("views.open", count=before + 1)
                await bot.slack.view_submission(
                    bot.sandbox.last_view(), user_id="U1", answers={"title": f"bench {run}"}
                )
                for text in TALK:
                    await bot.slack.say(channel, text, user="U1")
                await bot.runtime.services.background.drain()
                if model_delay is not None:
                    answer = ToolAnswer(tool_name="record_resolution_draft", input={})
                    api.script(Delay(model_delay, then=answer) if model_delay else answer)
                opened = len(bot.sandbox.calls("views.open"))
                updated = len(bot.sandbox.calls("views.update"))
                start = time.perf_counter()
                response = await bot.slack.command("/incident", "resolve", user_id="U1", channel_id=channel)
                acks.append((time.perf_counter() - start) * 1000)
                assert response.status == 200
                await bot.sandbox.wait_for("views.open", count=opened + 1, timeout=30)
                opens.append((time.perf_counter() - start) * 1000)
                await bot.sandbox.wait_for("views.update", count=updated + 1, timeout=60)
                drafts.append((time.perf_counter() - start) * 1000)
    return acks, opens, drafts


def offline_speed(messages: int, runs: int = 20) -> list[float]:
    t0 = datetime(2026, 3, 2, tzinfo=UTC)
    timeline = [
        TimelineEntry(
            author="maya", text=TALK[i % len(TALK)] + f" ({i})", at=t0 + timedelta(seconds=i), message_ts=f"{i}.0"
        )
        for i in range(messages)
    ]
    drafter, took = OfflineDrafter(), []
    for _ in range(runs):
        start = time.perf_counter()
        drafter.answer(timeline, [])
        took.append((time.perf_counter() - start) * 1000)
    return took


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--model-delay", type=float, default=5.0, help="seconds the slow fake model waits")
    args = parser.parse_args()
    admin = os.environ.get("DATABASE_URL")
    if not admin:
        sys.exit("set DATABASE_URL to a PostgreSQL server (a throwaway database is made on it)")
    settings = Settings()
    async with throwaway_database(admin, settings.migrations_dir, prefix="im_bench") as dsn:
        for label, delay in (
            ("offline drafter", None),
            ("model answering at once", 0.0),
            (f"model answering after {args.model_delay:g} s", args.model_delay),
        ):
            acks, opens, drafts = await one_setting(dsn, args.runs, delay)
            print(
                f"{label:<32} ack p50 {statistics.median(acks):6.1f} ms p95 {p95(acks):6.1f} | modal open p50 "
                f"{statistics.median(opens):6.1f} ms p95 {p95(opens):6.1f} | draft shown p50 {statistics.median(drafts):7.1f} ms"
            )
    took = offline_speed(500)
    print(f"offline drafter, 500-message channel: p50 {statistics.median(took):.1f} ms, p95 {p95(took):.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
