"""A stored "did not work" line needs a step someone took and an outcome that says that step did not work (issue 23,
precision first on organisations no rule was read from; docs/BENCHMARKS.md, r23-attempts, 2026-12-06 third session).
Each case below is a line the importer stored as a failed attempt before: the next responder reading it would skip a
step that worked, or one nobody on the team took."""

from __future__ import annotations

from tests.test_reader_attempts_told_as_tried import stored


def test_a_remainder_foretold_after_a_step_is_not_that_step_failing() -> None:
    assert not stored(
        "## Resolution\n\nWe restarted the queue workers, but some customers may still see delayed webhooks "
        "until the backlog drains.\n"
    )
    # seen, not foretold, it is the step's outcome
    assert stored("## Resolution\n\nWe restarted the scheduler, but builds were still stuck.\n") == [
        ("We restarted the scheduler", "builds were still stuck.")
    ]


def test_a_step_told_as_having_brought_the_service_back_is_not_a_failed_attempt() -> None:
    assert not stored(
        "## Resolution\n\nWithin an hour we had the patch out and could start builds again. "
        "Unfortunately, builds queued in the meantime could not be restarted.\n"
    )
    assert not stored(
        "## Resolution\n\nI published the new version and updated the database, it's fixed for now but I am still "
        "not sure what caused it.\n"
    )


def test_what_users_tried_is_not_a_step_the_responders_took() -> None:
    assert not stored(
        "## Resolution\n\nSome users tried clearing their browser cache, but it did not help. "
        "We rotated the signing key, which fixed logins.\n"
    )


def test_what_would_be_done_if_a_step_failed_is_a_plan_not_its_outcome() -> None:
    assert not stored(
        "## Timeline\n\n- 10:00 We restarted the validators.\n"
        "- 10:05 If the restart did not help, we would fail over to the backup cluster.\n"
    )
