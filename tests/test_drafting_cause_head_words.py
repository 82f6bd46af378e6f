"""The conversation's cause head weighs the sentence's words, not only its cue groups (issue 23, r23-causewords:
bot/data/reader_chat.json's cause head, fitted by bench/fix_head_words.py --kind cause). "You can see the outage on
the status page" opens the cause gate by its outage word, and the cue head drafted it as the root cause though it
points the reader somewhere and names no cause; the words ("you", "can", "see") take it under the threshold. A sentence
that says what went down stays the drafted cause. Through the sandbox: what the resolution modal shows (the channel
and its report as tests/test_drafting_well_is_no_plan.py makes them)."""

from __future__ import annotations

from bot.sandbox.local_bot import LocalBot
from tests import test_drafting_well_is_no_plan as sandbox

bot = sandbox.bot  # the same running sandbox app, one per test
drafted = sandbox.drafted


async def test_a_pointer_to_the_status_page_is_no_root_cause(bot: LocalBot) -> None:
    see = await drafted(bot, 1, "You can see the outage on the status page")
    assert see.root_cause == ""
    follow = await drafted(bot, 2, "You can follow the outage on our status page")
    assert follow.root_cause == ""


async def test_an_outage_said_to_have_happened_is_still_the_root_cause(bot: LocalBot) -> None:
    power = await drafted(bot, 1, "We had a power outage in the datacenter")
    assert "power outage" in power.root_cause
    provider = await drafted(bot, 2, "There was a DNS outage at our provider")
    assert "DNS outage" in provider.root_cause
