"""The offline drafter on failed attempts told plainly that it missed, and on sentences that only look like one
(issue 23, r23-convatt2): a step named as the subject of its own failure ("Clearing the cache didn't do anything",
"Nope, rotating the key and redeploying didn't help") is a failed attempt, in whichever message
it stands; a confession whose verb is any step ("forgot to copy these files over on redeploy"), a report that says
"so I've tried" and names no step, a step foretold to fail ("Restarting won't help") and a use of the service that
fails ("Loading the dashboard doesn't work") are none. Measured on real conversations by
bench/reading_eval_conversations.py (docs/BENCHMARKS.md, issue 23, r23-convatt2)."""

from __future__ import annotations

import pytest

from tests.test_drafting_conversations import draft  # the same channel, drafted offline

REPORT = ("ana", "The web app returns 502 for every request since this morning")
ANSWER = ("ben", "Thanks, looking at it now.")

STEP_FAILED = [
    # the step is the sentence's subject, its failure the verb: told in so many words, whatever the heads weigh
    ("Flushing the CDN cache didn't do anything.", "Flushing the CDN cache"),
    ("Staging env, purging the queue didn't do anything either.", "Staging env, purging the queue"),
    ("Nope, rotating the key and redeploying didn't help :(", "Rotating the key and redeploying"),
    ("Rebuilding the image is not working either.", "Rebuilding the image"),
]
NOT_A_STEP_FAILED = [
    # using the service, not a step taken on it
    "Loading the dashboard doesn't work since this morning.",
    "Trying to log in is not working either.",
    # foretold, not told
    "Restarting won't help here, the disk is full.",
    "Rebuilding the image can't fix a full disk.",
    # a me-too
    "Same thing here, reloading the page does nothing for me.",
]


@pytest.mark.parametrize(("said", "step"), STEP_FAILED)
def test_a_step_named_as_the_subject_of_its_failure_is_a_failed_attempt(said: str, step: str) -> None:
    attempts = draft(REPORT, ("ben", said)).failed_attempts
    assert [a.action for a in attempts] == [step]
    assert attempts[0].why_it_failed and attempts[0].quotes[0].author == "ben"


@pytest.mark.parametrize(("said", "step"), STEP_FAILED[:2])
def test_the_reporter_naming_the_step_that_failed_is_a_failed_attempt_too(said: str, step: str) -> None:
    attempts = draft(REPORT, ANSWER, ("ana", said)).failed_attempts
    assert [a.action for a in attempts] == [step]


@pytest.mark.parametrize("said", NOT_A_STEP_FAILED)
def test_a_use_of_the_service_or_a_foretold_failure_is_no_failed_attempt(said: str) -> None:
    assert draft(REPORT, ("ben", said)).failed_attempts == []


@pytest.mark.parametrize("weighs_only", [("attempt", "action")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_a_confession_of_any_step_is_the_cause_not_a_failed_attempt() -> None:
    result = draft(
        ("ana", "Tile layers return 500 on the dev server"),
        ("ben", "Ah, forgot to copy these files over on redeploy. Could you please try again?"),
        ("ana", "It doesn't work, but let me take another look tomorrow."),
    )
    assert result.failed_attempts == []


def test_a_confession_of_any_step_is_drafted_as_the_cause() -> None:
    result = draft(
        ("ana", "Tile layers return 500 on the dev server"),
        ("ben", "Ah, I forgot to copy the tile files over on redeploy."),
        ("ben", "Copied them now, should be fine."),
    )
    assert result.root_cause is not None and "forgot to copy the tile files" in result.root_cause.text


def test_forgetting_to_say_something_is_no_cause() -> None:
    result = draft(REPORT, ("ben", "Sorry, I forgot to mention the logs are attached to the ticket."))
    assert result.root_cause is None


def test_a_report_that_says_it_tried_but_names_no_step_has_no_failed_attempt() -> None:
    opening = (
        "ana",
        "SSH to the server is unreachable\nI'm wondering if it's a network issue, so I've tried\n"
        "- connecting to the web console with two browsers, and I'm getting ERR_ADDRESS_UNREACHABLE\n"
        "- other sites work well",
    )
    result = draft(opening, ("ben", "Our lab network was down last night, it's fixed now."))
    assert result.failed_attempts == []


@pytest.mark.parametrize(
    ("said", "step"),
    [
        ("I tried removing and re-inviting the bot, but this has not solved my problem.", "removing and re-inviting"),
        ("I tried the same with the docs subdomain but it isn't working yet.", "the same with the docs subdomain"),
    ],
)
def test_an_outcome_negated_on_its_auxiliary_says_the_step_failed(said: str, step: str) -> None:
    attempts = draft(REPORT, ANSWER, ("ana", said)).failed_attempts
    assert len(attempts) == 1 and step in attempts[0].action


def test_a_report_that_names_what_it_tried_still_has_its_failed_attempt() -> None:
    opening = ("ana", "SSH to the server is unreachable\nI've tried restarting the VPN client.")
    result = draft(opening, ("ben", "Our lab network was down last night, it's fixed now."))
    assert [a.action for a in result.failed_attempts] == ["I've tried restarting the VPN client"]


@pytest.mark.parametrize("weighs_only", [("attempt", "action")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_the_trouble_beginning_since_we_took_a_step_is_no_failed_attempt() -> None:
    # "since we upgraded": the step set the trouble off (the failure word is no "still" nor "again")
    result = draft(REPORT, ("ben", "The runner doesn't start since we upgraded it to 2.3."), ANSWER)
    assert result.failed_attempts == []
