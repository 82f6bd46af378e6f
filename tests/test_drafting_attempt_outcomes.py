"""The offline drafter on a failure word that tells no outcome of the step beside it (issue 23): a failed attempt
needs a step and words that say how that step went (the trouble still there, the step did not help), in its
sentence or in the sentence or reply that answers it. "Still investigating", "should still work fine", "didn't take
long", "nginx didn't come back", "won't help", the trouble told as beginning after the step ("and since then the
builds fail", "Now it doesn't start at all") and a step said to have fixed it are no failed attempt, whatever the
heads weigh; "restarted nginx, still 502", "cloning a new database doesn't help", "tried resetting the token, same
outcome each time" still are. Measured on real conversations by bench/conversation_statements.py and
bench/reading_eval_conversations.py (docs/BENCHMARKS.md, issue 23, r23-convatt)."""

from __future__ import annotations

import pytest

from tests.test_drafting_conversations import draft  # the same channel, drafted offline

REPORT = ("ana", "The web app returns 502 for every request since this morning")
NO_OUTCOME = [
    # "still" of ongoing work, a need, what is fine or foretold
    "We restarted the workers and are still investigating the cause.",
    "I disabled the plugin; the other commands should still work fine.",
    "We cleared the queue, but we still have to find out why it filled up.",
    # "didn't" of anything but what the step was for
    "Reverting the change didn't take long, the site is back.",
    "Our hosting provider rebooted the server and nginx didn't come back.",
    "Scaling up didn't happen automatically, the autoscaler was misconfigured.",
    "Still investigating, restarting didn't show anything in the logs yet.",
    # foretold, not told
    "Restarting the server won't help here, the disk is full.",
    # what came of it, not how a step went
    "Someone deleted the DNS record, so mail still bounces.",
    # what the system did on its own, no one's step
    "Apparently it happened again, after a mysterious automatic reboot while the server was running.",
]
SET_OFF = [
    # the trouble told as beginning after the step: the step set it off
    [("ana", "I have upgraded to version 2.3 and since then the builds fail."), ("ben", "Thanks, looking.")],
    [("ana", "Builds fail since we upgraded the runner."), ("ben", "Thanks, looking.")],
    [("ana", "I upgraded the package. Now it doesn't start at all."), ("ben", "Known issue, fixed in 2.4.")],
    [("ana", "I deployed the new release. After that the site didn't load."), ("ben", "Rolled it back, works now.")],
]
FIXED_HERE = [
    # a step said to have fixed it is the fix, whatever the thread says failed after it
    REPORT,
    ("ana", "I have resolved this issue, I actually had to remove and re-add the whole project in order to resume."),
]
TOLD = [
    ("Cloning a new database doesn't help.", "Cloning a new database"),
    ("Tried resetting the token, same outcome each time.", "Tried resetting the token"),
    ("I restarted nginx, still 502.", "Restarted nginx"),
    ("We rolled back the deploy but the errors persist.", "Rolled back the deploy"),
    ("We restarted the db, and now the errors are back.", "Restarted the db"),
]


@pytest.mark.parametrize("said", NO_OUTCOME)
def test_a_failure_word_that_tells_no_outcome_is_no_failed_attempt(said: str) -> None:
    assert draft(REPORT, ("ben", said)).failed_attempts == []


@pytest.mark.parametrize("weighs_only", [("attempt", "action")], indirect=True)
@pytest.mark.parametrize("said", NO_OUTCOME)
@pytest.mark.usefixtures("weighs_only")
def test_no_outcome_opens_no_attempt_whatever_the_heads_weigh(said: str) -> None:
    assert draft(REPORT, ("ben", said)).failed_attempts == []


@pytest.mark.parametrize("messages", SET_OFF)
def test_the_step_that_set_the_trouble_off_is_no_failed_attempt(messages: list[tuple[str, str]]) -> None:
    assert draft(*messages).failed_attempts == []


@pytest.mark.parametrize("weighs_only", [("attempt", "action")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_a_step_said_to_have_fixed_it_is_no_failed_attempt() -> None:
    result = draft(*FIXED_HERE, ("ana", "Simply restarting the builds would not work."))
    assert all("re-add" not in a.action for a in result.failed_attempts)


@pytest.mark.parametrize(("said", "action"), TOLD)
def test_a_step_and_how_it_went_is_still_a_failed_attempt(said: str, action: str) -> None:
    attempts = draft(REPORT, ("ben", said)).failed_attempts
    assert [a.action for a in attempts] == [action]


def test_the_trouble_still_there_since_the_step_is_a_failed_attempt() -> None:
    assert len(draft(REPORT, ("ben", "The build is still failing since I restarted it.")).failed_attempts) == 1


def test_a_reply_that_says_the_trouble_is_still_there_still_makes_a_failed_attempt() -> None:
    attempts = draft(REPORT, ("ben", "I restarted the server."), ("ana", "Still getting 502s.")).failed_attempts
    assert len(attempts) == 1 and "restarted the server" in attempts[0].action.lower()
