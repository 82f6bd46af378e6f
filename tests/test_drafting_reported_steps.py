"""The offline drafter on steps told in the opening report (issue 23, eleventh pass): "I have restarted
the machine and runner." in the message that opens the channel is a step that did not fix it (the
trouble is reported after it), however the report goes on; a report that says it is over, a list's
heading, a one-person thread or a later message say no such thing. And an outcome negated by its
subject ("Still nothing works.", "but I never received the token") says the step failed.
Measured on real conversations by bench/fit_reader.py and bench/reading_eval_conversations.py."""

from __future__ import annotations

import pytest

from tests.test_drafting_conversations import draft  # the same channel, drafted offline

ANSWER = ("ben", "Thanks, looking at the runners now.")


@pytest.mark.parametrize("weighs_only", [("attempt", "reported_step")], indirect=True)
@pytest.mark.parametrize(
    ("opening", "step"),
    [
        (
            "Cannot run the pipeline. I have restarted the machine and runner.",
            "I have restarted the machine and runner",
        ),
        ("The bot stopped approving. I already tried re-installing the bot.", "I already tried re-installing the bot"),
        ("Builds hang at checkout. We've cleared the cache on every agent.", "We've cleared the cache on every agent"),
    ],
)
@pytest.mark.usefixtures("weighs_only")
def test_a_step_the_opening_report_says_was_taken_is_a_failed_attempt(opening: str, step: str) -> None:
    result = draft(("ana", opening), ANSWER)
    assert [a.action for a in result.failed_attempts] == [step]
    assert result.failed_attempts[0].quotes[0].author == "ana"


@pytest.mark.parametrize("weighs_only", [("attempt", "reported_step")], indirect=True)
@pytest.mark.parametrize(
    "messages",
    [
        # the report says it is over: the step is how it was fixed
        [("ana", "The site was down. I have restarted the web container and it works now."), ANSWER],
        # a list's heading names no step
        [("ana", "Jenkins won't start new jobs.\nthings I have tried so far:"), ANSWER],
        # seeing and saying are no steps
        [("ana", "The API returns 503. I have checked the logs and we've noticed the disk is full."), ANSWER],
        # under way, not taken before the report
        [("ana", "We're rolling back some recently deployed code."), ANSWER],
        # one person's own updates: no report to anyone
        [("ana", "The site was down. I have restarted the web container."), ("ana", "Watching it.")],
        # a later message of the opener: its outcome is for the thread to tell
        [("ana", "The API returns 503."), ANSWER, ("ana", "I have restarted the web container.")],
    ],
)
@pytest.mark.usefixtures("weighs_only")
def test_what_is_no_step_taken_before_the_report_is_no_attempt(messages: list[tuple[str, str]]) -> None:
    assert draft(*messages).failed_attempts == []


@pytest.mark.parametrize("weighs_only", [("attempt", "next_failed")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_still_nothing_works_after_a_step_says_it_failed() -> None:
    result = draft(("ana", "The nightly job is stuck."), ("ben", "I restarted the runner. Still nothing works."))
    assert [a.action for a in result.failed_attempts] == ["I restarted the runner"]


@pytest.mark.parametrize("weighs_only", [("attempt", "failed_outcome")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_but_i_never_received_says_the_step_failed() -> None:
    result = draft(
        ("ana", "Cannot submit packages."),
        ("ben", "I tried to revalidate my email, but I never received the token."),
    )
    assert len(result.failed_attempts) == 1 and "revalidate my email" in result.failed_attempts[0].action


@pytest.mark.parametrize("weighs_only", [("attempt", "reported_step")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_the_items_under_a_heading_of_what_was_tried_are_failed_attempts() -> None:
    opening = "Jenkins won't start new jobs.\nthings I have tried so far:\n\n* logging out and back in\n* clearing the browser cache"
    result = draft(("ana", opening), ANSWER)
    assert [a.action for a in result.failed_attempts] == ["Logging out and back in", "Clearing the browser cache"]


@pytest.mark.parametrize("weighs_only", [("attempt", "reported_step")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_a_list_under_another_heading_is_no_attempt() -> None:
    opening = "Jenkins won't start new jobs.\nWhat I see:\n\n* the queue is empty\n* logging out and back in shows the same page"
    assert draft(("ana", opening), ANSWER).failed_attempts == []
