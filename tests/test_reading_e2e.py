"""Reading members' text happens off the event loop that serves every channel: while ten crafted
40k-character messages are being read in one incident channel, a `/recall` in another channel is
answered first. Ordering, not a timed bound: the readings are held at a gate (a file) until the
recall has been answered, so on a bot that read on its own loop the recall could not come first.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.jobs.reading import ReadingPool
from bot.memory.files import draft_from_json
from bot.sandbox.local_bot import LocalBot, local_bot
from tests.test_retention_e2e import declare
from tests.test_slack_e2e import SEED

CRAFTED = ("not resolved " * 3077)[:40_000]


def at_the_gate(gate: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """In a reading process: wait for the gate to open, then read."""
    while not Path(gate).exists():
        time.sleep(0.02)
    return fn(*args, **kwargs)


class GatedPool(ReadingPool):
    """The app's reading pool, with every reading held until `gate` exists."""

    def __init__(self, gate: Path) -> None:
        super().__init__(workers=2, deadline_s=600)
        self.gate = gate

    async def run(self, what: str, fn: Any, *args: Any, size: int | None = None, **kwargs: Any) -> Any:
        return await super().run(what, at_the_gate, str(self.gate), fn, *args, size=size, **kwargs)


@pytest.fixture
async def bot(database_url: str) -> AsyncIterator[LocalBot]:
    async with local_bot(Settings(database_url=database_url)) as running:
        running.sandbox.add_user("U1", "maya")
        running.sandbox.add_user("U2", "omar")
        running.sandbox.add_channel("C1", "inc-payments-500s", members=("U1", "U2"))
        running.sandbox.add_channel("C2", "payments-team", members=("U1", "U2"))
        await running.runtime.services.memory.retain(draft_from_json(SEED, team_id=running.sandbox.team_id))
        yield running


async def test_a_recall_in_another_channel_is_answered_before_crafted_messages_are_read(
    bot: LocalBot, tmp_path: Path
) -> None:
    services = bot.runtime.services
    await declare(bot)
    gate = tmp_path / "open"
    pool = services.nudges.reading = GatedPool(gate)
    try:
        for _ in range(10):
            assert (await bot.slack.say("C1", CRAFTED, user="U1")).status == 200
        recall = await bot.slack.command("/recall", "connection pool exhausted", user_id="U2", channel_id="C2")
        assert recall.status == 200
        answer = await bot.sandbox.wait_for("response_url", timeout=60)
        assert "1 past incident looks like this one" in json.dumps(answer.params)  # the recall was answered…
        assert not gate.exists()
        pending = await services.jobs.pending()
        assert pending.get("timeline.record", 0) >= 1  # …while the crafted messages were still being read
        gate.touch()
        await bot.runtime.settle(timeout=120)
        assert not (await services.jobs.pending()).get("timeline.record")
        incident = await services.incidents.open_in(bot.sandbox.team_id, "C1")
        assert incident is not None
        assert sum(e.text == CRAFTED for e in await services.incidents.timeline(incident)) == 10
    finally:
        gate.touch()
        pool.close()
