"""The offline drafter on a recovery told after a step (issue 23): "I restarted it and it's back up",
"the site came back online", "it is back now" say the step worked, so the step is never drafted as a
failed attempt; the trouble said to be back ("errors back after 25 minutes", "the 502s came back") still
makes the step before it one, and is never read as the service back (no fix). Measured on real conversations by bench/fit_reader.py and
bench/reading_eval_conversations.py."""

from __future__ import annotations

import pytest

from tests.test_drafting_conversations import draft  # the same channel, drafted offline

REPORT = ("ana", "The web app returns 502 for every request since this morning")
RECOVERIES = [
    "I have restarted the web container and it is back now.",
    "I restarted the server and it's back up.",
    "Restarted the pods, the site came back online.",
    "We rebooted the database and it is back up and running.",
    "Redeployed the app and it came back up after a minute.",
    "Restarted the pods, the errors are back to normal.",
    "Restarted the api, it was slow for a few minutes then recovered.",
]


@pytest.mark.parametrize("said", RECOVERIES)
def test_a_step_followed_by_its_recovery_is_no_failed_attempt(said: str) -> None:
    # the shipped heads and the explicit "action, then how it went" rule alike
    assert draft(REPORT, ("ben", said)).failed_attempts == []


@pytest.mark.parametrize("weighs_only", [("attempt", "action")], indirect=True)
@pytest.mark.parametrize("said", RECOVERIES)
@pytest.mark.usefixtures("weighs_only")
def test_a_recovery_opens_no_attempt_whatever_the_heads_weigh(said: str) -> None:
    assert draft(REPORT, ("ben", said)).failed_attempts == []


@pytest.mark.parametrize("weighs_only", [("attempt", "action")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_a_recovery_said_in_the_reply_opens_no_attempt() -> None:
    result = draft(REPORT, ("ben", "I restarted the web container."), ("ana", "It's back up, thanks!"))
    assert result.failed_attempts == []


@pytest.mark.parametrize(
    ("said", "action"),
    [
        ("Restarted payments pods, errors back after 25 minutes.", "Restarted payments pods"),
        ("Bumped the pool size, the 502s came back.", "Bumped the pool size"),
        ("Restarted it, the issue is back.", "Restarted it"),
        ("Raised the limit, it held for a few minutes then fell over again.", "Raised the limit"),
    ],
)
def test_the_trouble_said_to_be_back_still_makes_a_failed_attempt(said: str, action: str) -> None:
    attempts = draft(REPORT, ("ben", said)).failed_attempts
    assert len(attempts) == 1 and attempts[0].action == action


@pytest.mark.parametrize("weighs_only", [("fix", "did")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_a_step_answered_by_the_trouble_back_is_no_fix() -> None:
    result = draft(REPORT, ("ben", "I restarted the web container."), ("ana", "The errors are back."))
    assert result.resolution is None


@pytest.mark.parametrize("weighs_only", [("attempt", "action")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_a_step_answered_by_the_trouble_back_is_a_failed_attempt() -> None:
    result = draft(REPORT, ("ben", "I restarted the web container."), ("ana", "The errors are back."))
    assert (
        len(result.failed_attempts) == 1 and "restarted the web container" in result.failed_attempts[0].action.lower()
    )
