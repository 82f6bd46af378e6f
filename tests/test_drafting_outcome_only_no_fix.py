"""The trouble said fixed, with no step named, is no fix (issue 23, r23-convfix3's veto, judged on the twenty-first
collection by r23-fix): "I've fixed it" as the drafted fix tells the next responder nothing; an empty field says
honestly that the step was not told. "Fixed" with what was fixed, or how, is still the fix. Through the sandbox:
what the resolution modal shows."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.sandbox.local_bot import LocalBot, local_bot
from tests.test_reading_eval_conversations import harness

REPORT = "The docs site returns 404 since the branch rename"


@pytest.fixture
async def bot(database_url: str) -> AsyncIterator[LocalBot]:
    async with local_bot(Settings(database_url=database_url)) as running:
        yield running


async def drafted(bot: LocalBot, number: int, *said: str):
    messages = [{"author": "u1", "text": REPORT}] + [{"author": "u2", "text": text} for text in said]
    return await harness().draft_one(bot, number, {"messages": messages})


async def test_the_trouble_said_fixed_leaves_the_modal_fix_empty_and_a_named_step_fills_it(bot: LocalBot) -> None:
    only_fixed = await drafted(bot, 1, "I've fixed it, please allow a few minutes to propagate.")
    assert only_fixed.resolution == ""
    resolved = await drafted(bot, 2, "Thank you for reporting, we have resolved the issue.")
    assert resolved.resolution == ""
    how = await drafted(bot, 3, "We fixed it by restarting the sync worker.")
    assert "restarting the sync worker" in how.resolution
    what = await drafted(bot, 4, "I fixed the baseUrl and it should be reachable again")
    assert "fixed the baseUrl" in what.resolution
