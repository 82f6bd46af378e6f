"""A bare "well" is no "we'll" (issue 23, review F26): the plan cue read "well, the restart fixed it" as something
proposed, so the step that fixed it was never drafted. A plan is something proposed, not done (eval/README.md);
"we'll" with its apostrophe, typed or typeset, still is one. Through the sandbox: what the resolution modal shows."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.sandbox.local_bot import LocalBot, local_bot
from tests.test_reading_eval_conversations import harness

REPORT = "The API answers 502 Bad Gateway since this morning"


@pytest.fixture
async def bot(database_url: str) -> AsyncIterator[LocalBot]:
    async with local_bot(Settings(database_url=database_url)) as running:
        yield running


async def drafted(bot: LocalBot, number: int, *said: str):
    messages = [{"author": "u1", "text": REPORT}] + [{"author": "u2", "text": text} for text in said]
    return await harness().draft_one(bot, number, {"messages": messages})


async def test_a_step_told_after_well_is_the_drafted_fix_and_a_typeset_well_planned_step_is_none(bot: LocalBot) -> None:
    told = await drafted(bot, 1, "Well, restarting the gunicorn workers fixed it.")
    assert "restarting the gunicorn workers" in told.resolution
    # the clause that names the step, not the "well" before it (the fix field once read "Well")
    clause = await drafted(bot, 2, "well, the restart of the gunicorn workers fixed it")
    assert clause.resolution == "The restart of the gunicorn workers"
    told_with_as_well = await drafted(bot, 3, "Needed a reboot, upgraded database as well. :)")
    assert "upgraded database" in told_with_as_well.resolution
    planned = await drafted(bot, 4, "We’ll restart the nginx container tonight.")  # typeset apostrophe: a plan
    assert planned.resolution == ""


async def test_a_doubt_that_names_no_fault_is_no_hypothesis(bot: LocalBot) -> None:
    # "well" no longer hides this sentence from the hedged-opening reading; it names nothing that went wrong
    said = await drafted(
        bot, 1, "i simply don't have the time to fix this right now", "well, it seems it doesn't matter"
    )
    assert said.root_cause == ""
    typeset = await drafted(
        bot, 2, "i simply don't have the time to fix this right now", "well, it seems it doesn’t matter"
    )
    assert typeset.root_cause == ""  # the typeset apostrophe threads use (the review's F3)
