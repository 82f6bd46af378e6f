"""Work that outlives a Slack request is tracked: shutdown waits for it, failures are logged."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.background import BackgroundWork


async def test_drain_waits_for_work_in_flight_and_work_it_starts() -> None:
    work = BackgroundWork()
    done: list[str] = []

    async def second() -> None:
        await asyncio.sleep(0.05)
        done.append("second")

    async def first() -> None:
        await asyncio.sleep(0.05)
        done.append("first")
        work.spawn(second(), name="second")

    work.spawn(first(), name="first")
    await work.drain()
    assert done == ["first", "second"] and work.pending == 0


async def test_drain_gives_up_after_its_timeout_and_cancels(caplog: pytest.LogCaptureFixture) -> None:
    work = BackgroundWork()
    stuck = work.spawn(asyncio.sleep(3600), name="stuck")
    await work.drain(timeout=0.05)
    await asyncio.sleep(0)
    assert stuck.cancelled() and "still running" in caplog.text


async def test_a_failure_is_logged_not_lost(caplog: pytest.LogCaptureFixture) -> None:
    work = BackgroundWork()

    async def broken() -> None:
        raise RuntimeError("posting the recall thread failed")

    with caplog.at_level(logging.ERROR):
        work.spawn(broken(), name="recall-thread")
        await work.drain()
    assert "background work recall-thread failed" in caplog.text and "posting the recall thread failed" in caplog.text
