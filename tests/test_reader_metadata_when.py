"""How long the trouble lasted is never stored as part of the root cause (issue 23, pmfields' M2c): "for 12 minutes
last night" goes from the cause's sentence and the cause stays; a rate ("within ~20 seconds"), an effort ("2 hours
of debugging") and "for the last 3 days" are no duration of the trouble and stay; the fix is not cut."""

from __future__ import annotations

import pytest

from bot.reader.metadata_time import HOW_LONG, cause_without_how_long
from tests.test_reader_metadata import imported
from tests.test_reading_limits import unbounded_then_more


def _report(cause: str, fix: str = "We restarted the router and traffic recovered.") -> str:
    return f"# Outage on 2024-03-18\n\n## Root cause\n\n{cause}\n\n## Resolution\n\n{fix}\n"


def test_the_duration_goes_from_the_stored_cause_and_the_cause_stays() -> None:
    draft = imported(_report("Our ISP decided to ring in the new year by unplugging us for 12 minutes last night."))
    assert draft.root_cause == "Our ISP decided to ring in the new year by unplugging us."


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        (
            'That is why "it works from the shell" misled me for two hours.',
            'That is why "it works from the shell" misled me.',
        ),
        (
            "The certificate renewal job had been failing silently for about 30 days before it expired.",
            "The certificate renewal job had been failing silently before it expired.",
        ),
        (
            "The primary lost its disk (~20 minutes) and the replica could not take over.",
            "The primary lost its disk and the replica could not take over.",
        ),
        (
            "The deploy took the API down during 15 minutes, since the migration locked the users table.",
            "The deploy took the API down, since the migration locked the users table.",
        ),
    ],
)
def test_how_long_goes_the_rest_of_the_sentence_stays(said: str, kept: str) -> None:
    assert cause_without_how_long(said) == kept


@pytest.mark.parametrize(
    "said",
    [
        # a rate, not how long it went on
        "A crawler sent 10k requests within ~20 seconds and exhausted the connection pool.",
        # an effort, not the trouble's length
        "After 2 hours of debugging we found the pool exhausted by a crawler.",
        "The team spent 3 days of work on a migration that dropped the index.",
        # a window before the trouble, not its length
        "The disk had been filling for the last 3 days because log rotation was disabled.",
        # no duration at all
        "The cron job ran for every tenant at once and exhausted the database connections.",
    ],
)
def test_a_cause_without_a_duration_of_the_trouble_is_kept_as_written(said: str) -> None:
    assert cause_without_how_long(said) == said


def test_a_sentence_that_was_only_how_long_goes_whole() -> None:
    said = "A bad config push broke DNS resolution.\nDown for 2 hours."
    assert cause_without_how_long(said) == "A bad config push broke DNS resolution."


def test_the_fix_keeps_its_duration() -> None:
    draft = imported(
        _report(
            "A bad config push broke DNS resolution.",
            fix="We drained the queue for 10 minutes and then restarted the workers.",
        )
    )
    assert draft.root_cause == "A bad config push broke DNS resolution."
    assert draft.resolution == "We drained the queue for 10 minutes and then restarted the workers."


def test_the_cut_does_linear_work_on_any_text() -> None:
    assert unbounded_then_more(HOW_LONG) == []
    said = "for 1 " * 5_000 + "(~" * 5_000
    assert len(cause_without_how_long(said)) <= len(said)
