"""The trouble said fixed, with no step named, is no fix (issue 23, r23-convfix3's veto, judged on the twenty-first
collection by r23-fix): "I've fixed it" as the drafted fix tells the next responder nothing; an empty field says
honestly that the step was not told. "Fixed" with what was fixed, or how, is still the fix. Through the sandbox:
what the resolution modal shows (the channel and its report as tests/test_drafting_well_is_no_plan.py makes them)."""

from __future__ import annotations

from bot.sandbox.local_bot import LocalBot
from tests import test_drafting_well_is_no_plan as sandbox

bot = sandbox.bot  # the same running sandbox app, one per test
drafted = sandbox.drafted


async def test_the_trouble_said_fixed_leaves_the_modal_fix_empty_and_a_named_step_fills_it(bot: LocalBot) -> None:
    only_fixed = await drafted(bot, 1, "I've fixed it, please allow a few minutes to propagate.")
    assert only_fixed.resolution == ""
    resolved = await drafted(bot, 2, "Thank you for reporting, we have resolved the issue.")
    assert resolved.resolution == ""
    how = await drafted(bot, 3, "We fixed it by restarting the sync worker.")
    assert "restarting the sync worker" in how.resolution
    what = await drafted(bot, 4, "I fixed the baseUrl and it should be reachable again")
    assert "fixed the baseUrl" in what.resolution
