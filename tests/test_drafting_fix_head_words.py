"""The conversation's fix head weighs the sentence's words, not only its cue groups (issue 23, r23-fix2:
bot/data/reader_chat.json's fix head, fitted by bench/fix_head_words.py). "Restarting the agent seems to have done
the trick" opens the fix gate by its step, but its hedge cue alone kept it under the threshold, so the modal's fix
field was empty though the thread tells what fixed it; the words ("trick", "restart") lift it. A sentence that names
no step stays no fix. Through the sandbox: what the resolution modal shows (the channel and its report as
tests/test_drafting_well_is_no_plan.py makes them). The corpus names its authors u1, u2, …: a word no new team's channel
gives a meaning, so whom a message thanks must not decide whether it tells the fix (review F8, fixrefit: the head's
words are fitted without those names; main's head weighed "thank u1" against a fix)."""

from __future__ import annotations

from bot.sandbox.local_bot import LocalBot
from tests import test_drafting_well_is_no_plan as sandbox

bot = sandbox.bot  # the same running sandbox app, one per test
drafted = sandbox.drafted


async def test_a_step_said_to_have_done_the_trick_is_the_drafted_fix(bot: LocalBot) -> None:
    agent = await drafted(bot, 1, "Restarting the agent seems to have done the trick")
    assert "Restarting the agent" in agent.resolution
    purged = await drafted(bot, 2, "Purging the CDN cache seems to have fixed this")
    assert "Purging the CDN cache" in purged.resolution
    upgraded = await drafted(bot, 3, "Had to upgrade the instance because it ran out of disk space")
    assert "upgrade the instance" in upgraded.resolution


async def test_a_sentence_that_names_no_step_is_still_no_fix(bot: LocalBot) -> None:
    itself = await drafted(bot, 1, "Seems to have resolved itself")
    assert itself.resolution == ""
    pointer = await drafted(bot, 2, "That seems to have worked for me")
    assert pointer.resolution == ""


async def test_whom_the_step_thanks_does_not_decide_whether_it_is_the_fix(bot: LocalBot) -> None:
    for number, who in enumerate(("Dana", "u1"), 1):
        thanked = await drafted(bot, number, f"Thanks {who}, restarting the agent seems to have done the trick")
        assert "restarting the agent" in thanked.resolution, who
