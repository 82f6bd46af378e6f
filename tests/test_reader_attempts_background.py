"""A failure told only in an aside, or after the past perfect the story steps back to, is not the outcome of the step an
imported postmortem stores as "did not work" (issue 23, precision first; docs/BENCHMARKS.md, r23-att5). One sentence
was already read so (narrative._attempt's asides, narrative._linked's past perfect); a step and its outcome told in two
sentences or two timeline entries now pass the same bar (cues_attempts.told_as_background)."""

from __future__ import annotations

from tests.test_reader_attempts_told_as_tried import stored


def test_a_failure_said_only_in_an_aside_is_not_the_steps_outcome() -> None:
    assert not stored(
        "## Resolution\n\nWe cleared out the staging resources. It freed two nodes (we noticed that staging was still "
        "stuck, as it shares them). We rolled back and the site came back.\n"
    )
    assert not stored(
        "## Timeline\n\n- 14:00 Alerts fire.\n- 14:05 We cleared out the staging resources.\n"
        "- 14:10 It freed two nodes (staging was still stuck).\n- 14:30 We rolled back and service is restored.\n"
    )
    # told outside the parentheses, it is the step's outcome
    assert stored(
        "## Timeline\n\n- 14:00 Alerts fire.\n- 14:05 We cleared out the staging resources.\n"
        "- 14:10 Staging is still stuck.\n- 14:30 We rolled back and service is restored.\n"
    ) == [("We cleared out the staging resources", "Staging is still stuck")]


def test_a_step_told_in_the_past_perfect_is_background_not_a_step_that_failed() -> None:
    assert not stored(
        "## Resolution\n\nThe team had already restarted the database twice before anyone was paged. This did not "
        "help. We failed over to the replica and the site came back.\n"
    )
    assert stored(
        "## Resolution\n\nThe team restarted the database twice. This did not help. We failed over to the replica and "
        "the site came back.\n"
    ) == [("The team restarted the database twice", "This did not help")]
