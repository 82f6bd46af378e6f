"""The offline drafter on how a step is told (issue 23, tenth pass): a step told in the first person
past is something done, whatever its verb ("I shut down a few services now", "I have pruned the
docker images"), while what someone noticed, checked or asked is no step; and a failure said before
a step, with nothing after it, does not say the step failed (an outcome follows its step); "but it
never connected" says it did.
Measured on real conversations by bench/fit_reader.py and bench/reading_eval_conversations.py."""

from __future__ import annotations

import pytest

from tests.test_drafting_conversations import draft  # the same channel, drafted offline


@pytest.mark.parametrize("weighs_only", [("fix", "did")], indirect=True)
@pytest.mark.parametrize(
    ("said", "fix"),
    [
        ("Thanks for the report. I shut down a few services now.", "I shut down a few services now"),
        ("Not anymore, I have pruned docker images which were piling up.", "I have pruned docker images"),
        ("We've standardized on the bigger disks now.", "We've standardized on the bigger disks now"),
    ],
)
@pytest.mark.usefixtures("weighs_only")
def test_a_step_told_in_the_first_person_past_is_something_done_whatever_its_verb(said: str, fix: str) -> None:
    result = draft(("ana", "The forum returns 502 for every page since this morning"), ("ben", said))
    assert result.resolution is not None and fix in result.resolution.text
    assert result.resolution.quotes[0].author == "ben"


@pytest.mark.parametrize("weighs_only", [("fix", "did")], indirect=True)
@pytest.mark.parametrize(
    "said",
    [
        "I noticed the forum returns 502 for every page.",
        "I checked the logs and asked the hosting provider.",
        "We've reached out to the hosting provider.",
        "I need to look at this later.",
    ],
)
@pytest.mark.usefixtures("weighs_only")
def test_what_someone_noticed_checked_or_asked_is_no_step_done(said: str) -> None:
    result = draft(("ana", "The forum returns 502 for every page since this morning"), ("ben", said))
    assert result.resolution is None


@pytest.mark.parametrize("weighs_only", [("attempt", "prev_failed")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_a_failure_said_before_a_step_is_not_how_the_step_went() -> None:
    # "…still failing." then "I removed the stale lock file": the step answers the failure; nothing says it failed
    result = draft(
        ("ana", "The nightly deploy job is still failing."),
        ("ben", "I removed the stale lock file from the runner."),
    )
    assert result.failed_attempts == []


@pytest.mark.parametrize("weighs_only", [("attempt", "next_failed")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_a_failure_said_after_a_step_still_says_the_step_failed() -> None:
    result = draft(
        ("ana", "The nightly deploy job fails at the upload step."),
        ("ben", "I removed the stale lock file from the runner. Still failing at the upload step."),
    )
    assert [a.action for a in result.failed_attempts] == ["I removed the stale lock file from the runner"]


@pytest.mark.parametrize("weighs_only", [("attempt", "failed_outcome")], indirect=True)
@pytest.mark.usefixtures("weighs_only")
def test_a_step_that_never_came_to_anything_is_a_failed_attempt() -> None:
    result = draft(
        ("ana", "The lab server is unreachable since the power cut"),
        ("ben", "We tried to turn it on but it never connected."),
    )
    assert [(a.action, a.why_it_failed) for a in result.failed_attempts] == [
        ("Tried to turn it on", "It never connected")
    ]
