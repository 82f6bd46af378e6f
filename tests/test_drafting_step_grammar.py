"""The offline drafter on the grammar around a step (issue 23, eleventh pass): an adverb between the
speaker and the modal is still a plan ("I really need to re-deploy"), never the fix; a doubt said before
", so I've restarted it" is the cause's, and the step after "so" is the fix; an irregular past is a step
done ("I've paid them more"); trying again with no step named is a check, never a failed attempt.
Measured on real conversations by bench/fit_reader.py and bench/reading_eval_conversations.py."""

from __future__ import annotations

import pytest

from tests.test_drafting_conversations import draft  # the same channel, drafted offline

REPORT = ("ana", "The online demo returns 502 for every request since this morning")


@pytest.mark.parametrize("weighs_only", [("fix", "action")], indirect=True)
@pytest.mark.parametrize("said", ["(I really need to re-deploy on the new platform).", "We still need to restart it."])
@pytest.mark.usefixtures("weighs_only")
def test_a_plan_with_an_adverb_before_its_modal_is_no_fix(said: str) -> None:
    assert draft(REPORT, ("ben", said)).resolution is None


@pytest.mark.parametrize("weighs_only", [("fix", "did")], indirect=True)
@pytest.mark.parametrize(
    ("said", "fix"),
    [
        (
            "It looks like the server crashed around 1 AM today, so I've restarted it.",
            "so I've restarted it",
        ),
        (
            "This might have been caused by the disk filling up, so I cleaned out some generated files.",
            "so I cleaned out some generated files",
        ),
        (  # an irregular past after "so": "ran", "put", "reset" stand alone, not after two letters
            "It looks like the disk filled up overnight, so I put a limit on the log size.",
            "so I put a limit on the log size",
        ),
    ],
)
@pytest.mark.usefixtures("weighs_only")
def test_a_step_told_after_a_doubted_cause_and_so_is_the_fix(said: str, fix: str) -> None:
    result = draft(REPORT, ("ben", said))
    assert result.resolution is not None and fix in result.resolution.text


@pytest.mark.parametrize("weighs_only", [("fix", "did")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_a_doubted_cause_with_no_step_after_so_is_still_no_fix() -> None:
    # the doubt without a step told after it: a hypothesis (the veto this pass narrows, not removes)
    said = "It looks like the server crashed and was restarted by the watchdog, so errors were appearing."
    assert draft(REPORT, ("ben", said)).resolution is None


@pytest.mark.parametrize("weighs_only", [("fix", "did")], indirect=True)
@pytest.mark.parametrize("said", ["I've paid them more monies.", "We put a rate limit on the proxy."])
@pytest.mark.usefixtures("weighs_only")
def test_an_irregular_past_is_a_step_done(said: str) -> None:
    result = draft(REPORT, ("ben", said))
    assert result.resolution is not None and said.rstrip(".") in result.resolution.text


@pytest.mark.parametrize("weighs_only", [("attempt", "failed_outcome")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_trying_again_with_no_step_named_is_no_failed_attempt() -> None:
    result = draft(REPORT, ("ana", "Hi, I tried again, still no luck on google DNS."), ("ben", "Looking."))
    assert result.failed_attempts == []


@pytest.mark.parametrize("weighs_only", [("attempt", "failed_outcome")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_a_step_tried_again_is_still_a_failed_attempt() -> None:
    result = draft(REPORT, ("ben", "I tried restarting the runner again, still no luck."))
    assert len(result.failed_attempts) == 1 and "restarting the runner" in result.failed_attempts[0].action


@pytest.mark.parametrize("weighs_only", [("fix", "did")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_a_step_said_not_to_be_enough_is_no_fix() -> None:
    said = "I allocated the last GB to the pool but it seems like I also need to remove files."
    assert draft(REPORT, ("ben", said)).resolution is None
