"""The offline drafter on a step its own message answers with a bare "still", and on failure words that tell no
outcome of a step (issue 23, convatt, sixteenth session): "I cleared the CDN cache. Still getting the 502." is a failed
attempt and no fix; the trouble on its way out ("still elevated but improving"), work going on ("Still investigating"),
the trouble denied or foretold not to come back ("so it won't happen again"), what the speaker still does not know and
a thread bumped are none; a told step keeps the speaker's adverb ("Already tried …"). Nor (convatt3, eighteenth
session) a failure under a condition, a possibility, a guess at what the trouble is, or a concessive "still"; a
suggestion's answer must tell how the step went too. Measured on real conversations by
bench/reading_eval_conversations.py and bench/rule_reach.py (docs/BENCHMARKS.md, issue 23, convatt and convatt3)."""

from __future__ import annotations

import pytest

from tests.test_drafting_conversations import draft  # the same channel, drafted offline

REPORT = ("ana", "The web app returns 502 for every request since this morning")

STILL_ANSWERS = [
    ("I cleared the CDN cache. Still getting the 502.", "I cleared the CDN cache", "Still getting the 502"),
    ("Tried flushing my DNS on local and server. Still coming up empty.", "Tried flushing my DNS", "Still coming up"),
]
NO_OUTCOME_OF_A_STEP = [
    "We rolled back the deploy. Error rates are still elevated but improving.",
    "I restarted the database. Still investigating the root cause.",
    "I restarted the workers. Still working on the root cause.",
    "We removed the leftover cron script, so it won't happen again.",
    "I upgraded the server and it shouldn't happen again (I hope...)",
    "I tried to fix the import script but I still don't know why it runs forever.",
    "Have to bump this, as the bot stopped responding again.",
    # convatt3 (eighteenth session): under a condition someone else meets, a concessive "still" before the speaker's
    # own step, a possibility, a guess at what the trouble is
    "I've just restarted the app server and regenerated the cache again. Let me know if you're having any more "
    "trouble, and please reopen the issue if it's not working for you!",
    "I looked at the server and the disk wasn't full or anything, but I still cleared some old files, but that "
    "shouldn't affect the performance.",
    "I also tried to re-add the webhook and got an error that it already exists. Please help, and possibly others "
    "who may experience this same problem.",
    "Logging in works, however this seems like either a disabled feature or one not working as intended.",
]


@pytest.mark.parametrize(("said", "step", "why"), STILL_ANSWERS)
def test_a_step_its_message_answers_with_a_bare_still_is_a_failed_attempt_not_the_fix(
    said: str, step: str, why: str
) -> None:
    result = draft(REPORT, ("ben", said))
    assert [a.action[: len(step)] for a in result.failed_attempts] == [step]
    assert result.failed_attempts[0].why_it_failed.startswith(why)
    assert result.resolution is None


@pytest.mark.parametrize("said", NO_OUTCOME_OF_A_STEP)
def test_a_failure_word_that_tells_no_outcome_of_a_step_drafts_no_failed_attempt(said: str) -> None:
    assert draft(REPORT, ("ben", said)).failed_attempts == []


def test_a_step_whose_trouble_is_getting_better_stays_the_fix() -> None:
    result = draft(REPORT, ("ben", "We rolled back the deploy. Error rates are still elevated but improving."))
    assert result.resolution is not None and "rolled back the deploy" in result.resolution.text


@pytest.mark.parametrize(
    ("said", "step"),
    [
        ("I already tried to change the file type, but that didn't work.", "Already tried to change the file type"),
        ("I manually upgraded the client to 0.6.3, which made no difference.", "Manually upgraded the client to 0.6.3"),
        ("I restarted the pods, errors back after 25 minutes.", "Restarted the pods"),
    ],
)
def test_a_told_step_keeps_the_speakers_adverb_and_drops_the_subject(said: str, step: str) -> None:
    assert [a.action for a in draft(REPORT, ("ben", said)).failed_attempts] == [step]


@pytest.mark.parametrize(
    ("said", "why"),
    [
        ("I restarted the load balancer. Still dropping connections.", "Still dropping connections"),
        ("I restarted the load balancer. The proxy is still falling over.", "The proxy is still falling over"),
    ],
)
def test_the_trouble_still_dropping_or_falling_over_is_not_it_getting_better(said: str, why: str) -> None:
    """ "Error rates are dropping" is the trouble easing (cues.GETTING_BETTER); "still dropping connections" is the
    trouble still there: the step failed, and it is no fix (review F66)."""
    result = draft(REPORT, ("ben", said))
    assert [a.why_it_failed for a in result.failed_attempts] == [why]
    assert "restarted the load balancer" in result.failed_attempts[0].action.lower()
    assert result.resolution is None


@pytest.mark.parametrize(
    ("said", "why"),
    [
        ("I restarted the app server. Looks like a restart didn't help.", "Didn't help"),
        ("If I try and stop and restart the build it doesn't seem to do anything.", "Doesn't seem to do anything"),
        ("I restarted the workers but I still get the same error.", "Still get the same error"),
    ],
)
def test_a_step_told_failing_beside_a_guess_a_condition_or_a_still_stays_a_failed_attempt(said: str, why: str) -> None:
    assert [a.why_it_failed for a in draft(REPORT, ("ana", said)).failed_attempts] == [why]


def test_a_suggestion_answered_by_failure_words_that_tell_no_outcome_is_no_failed_attempt() -> None:
    """ "Aw, I didn't see that one coming" answers the suggestion, but says nothing of how a step went; "hm, still
    doesnt work" does."""
    surprised = draft(REPORT, ("ben", "Perhaps add some kind of job that drops the cache regularly?"),
                      ("ana", "Aw, I didn't see that one coming"))  # fmt: skip
    assert surprised.failed_attempts == []
    failed = draft(REPORT, ("ben", "Could you try restarting them now?"), ("ana", "Hm, still doesnt work"))
    assert [(a.action, a.why_it_failed) for a in failed.failed_attempts] == [
        ("Restarting them now", "Hm, still doesnt work")
    ]
