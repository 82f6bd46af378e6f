"""The conversation's failed-attempt head weighs the sentence's words, not only its cue groups (issue 23, att-learn:
bot/data/reader_chat.json's attempt head, fitted by bench/fix_head_words.py --kind attempt). A step someone only asks
for or says needs doing ("This website needs to be redeployed on the host"), answered by a reply that names the trouble
again, opens the same cues as a step taken and answered by a failure, so the modal drafted it as a failed attempt: the
next responder would skip a step nobody took. The words ("needs", "this", "site", "is") keep it under the threshold;
a step taken and said to fail stays a failed attempt. Through the sandbox: what the resolution modal shows (the channel
and its report as tests/test_drafting_well_is_no_plan.py makes them)."""

from __future__ import annotations

from bot.sandbox.local_bot import LocalBot
from tests import test_drafting_well_is_no_plan as sandbox
from tests.test_reading_eval_conversations import harness

bot = sandbox.bot  # the same running sandbox app, one per test
REPORT = "Password reset emails are not arriving since yesterday."


async def drafted(bot: LocalBot, number: int, step: str, reply: str):  # noqa: ANN201
    messages = [{"author": "u1", "text": REPORT}, {"author": "u2", "text": step}, {"author": "u1", "text": reply}]
    return await harness().draft_one(bot, number, {"messages": messages})


async def test_a_step_only_said_to_be_needed_is_no_failed_attempt(bot: LocalBot) -> None:
    needed = await drafted(
        bot, 1, "This website needs to be redeployed on the host.",
        "Thanks for the report, this is probably why the website is not working.",
    )  # fmt: skip
    assert needed.attempts == []
    asked = await drafted(
        bot, 2, "Your site is down, this page needs a restart on the host.",
        "Thanks, that is probably why the page is not working.",
    )  # fmt: skip
    assert asked.attempts == []


async def test_a_step_taken_and_answered_by_its_failure_stays_a_failed_attempt(bot: LocalBot) -> None:
    tried = await drafted(bot, 1, "I tried restarting the mail worker.", "Hm, still not arriving.")
    assert len(tried.attempts) == 1 and "restarting the mail worker" in tried.attempts[0]
