"""The offline drafter on a step told after "even after / even when", its failure in the rest of the sentence ("I'm
still getting a 500 even after clearing the cache"), and on an outcome that names which numbered item it answers
("Did 2. already - without success"), which is not the outcome of the step told last (issue 23, r23-convatt3).
Small texts written by us: a behaviour check, not a measure (bench/reading_eval_conversations.py is the measure;
docs/BENCHMARKS.md, issue 23, r23-convatt3)."""

from __future__ import annotations

import pytest

from tests.test_drafting_conversations import draft

REPORT = ("ana", "The package registry returns 404 for every new upload")

EVEN_AFTER = [
    ("Sadly I'm still getting a 404 even after clearing the local cache.", "Clearing the local cache"),
    ("Even after restarting the uploader, the new versions are still missing.", "Restarting the uploader"),
    ("Even when I tried publishing an older version, it gave the same result.", "Tried publishing an older version"),
    ("It still fails even after we redeployed the registry.", "Redeployed the registry"),
]


@pytest.mark.parametrize(("said", "step"), EVEN_AFTER)
def test_a_step_after_even_after_with_the_trouble_still_there_is_a_failed_attempt(said: str, step: str) -> None:
    attempts = draft(REPORT, ("ben", "Looking into it."), ("ana", said)).failed_attempts
    assert [a.action for a in attempts] == [step]
    assert attempts[0].why_it_failed and attempts[0].quotes[0].author == "ana"


NOT_A_STEP = [
    "Even after waiting three hours, the uploads are still missing.",  # waiting is no step
    "Even after restarting the uploader, it works again.",  # a recovery
    "Even after restarting the uploader we will need to re-publish the lost versions.",  # a plan, no outcome
]


@pytest.mark.parametrize("said", NOT_A_STEP)
def test_waiting_a_recovery_or_a_plan_after_even_after_is_no_failed_attempt(said: str) -> None:
    assert draft(REPORT, ("ben", "Looking into it."), ("ana", said)).failed_attempts == []


def test_an_outcome_naming_a_numbered_item_is_not_the_outcome_of_the_step_told_last() -> None:
    result = draft(
        ("ana", "The build host cannot reach the database host anymore. Options: 1. reboot 2. upgrade the OS"),
        ("ana", "Then reboot the database host."),
        ("ana", "Did 2. already - without success."),
    )
    assert not any("reboot" in a.action.lower() for a in result.failed_attempts)
    # told without pointing at an item, the same reply is the step's outcome
    told = draft(
        ("ana", "The build host cannot reach the database host anymore."),
        ("ana", "Rebooted the database host."),
        ("ana", "Did not help, still no connection."),
    )
    assert [a.action for a in told.failed_attempts] == ["Rebooted the database host"]
