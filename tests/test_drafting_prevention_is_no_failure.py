""" "So it won't happen again" is no failure (issue 23, r23-again): the chat failure cue read "happen again" as the
trouble back, whatever came before it, so "I restarted it and added a check so it won't happen again" vetoed its own
fix. A negation or a prevention before the trouble ("won't", "doesn't", "never", "from happening again") tells a
follow-up or the fix's purpose; "it happened again" is still the trouble back. Through the sandbox: what the
resolution modal shows (the channel and its report as tests/test_drafting_well_is_no_plan.py makes them)."""

from __future__ import annotations

from bot.sandbox.local_bot import LocalBot
from tests import test_drafting_well_is_no_plan as sandbox

bot = sandbox.bot  # the same running sandbox app, one per test
drafted = sandbox.drafted


async def test_a_fix_told_with_its_prevention_is_the_drafted_fix(bot: LocalBot) -> None:
    wont = await drafted(bot, 1, "I restarted the gunicorn workers and added a health check so it won't happen again.")
    assert "restarted the gunicorn workers" in wont.resolution
    assert wont.attempts == []
    # "not happened again": the trouble said not back (a follow-up that names prevention is no fix: FOLLOW_UP)
    since = await drafted(bot, 2, "We rolled back the nginx config and the 502s have not happened again since.")
    assert "rolled back the nginx config" in since.resolution
    assert since.attempts == []


async def test_the_trouble_told_back_after_a_step_is_still_no_fix(bot: LocalBot) -> None:
    back = await drafted(bot, 1, "I restarted the gunicorn workers.", "It happened again ten minutes later.")
    assert "restarted the gunicorn workers" not in back.resolution
