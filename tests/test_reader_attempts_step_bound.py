"""An imported postmortem stores a "did not work" line only when it holds a step someone took (not a question, a
condition, a plan or a bare "tried again") and the failure told after it is that step's outcome: the later words refer
back to it, tell the trouble going on or a step not helping, or name the step again; a cause told ("The problem is
that …") or a new failure of something else is not its outcome (issue 23, precision first; docs/BENCHMARKS.md,
r23-pmatt2)."""

from __future__ import annotations

from tests.test_reader_attempts_told_as_tried import stored


def test_a_question_a_condition_or_a_bare_try_is_no_step_taken() -> None:
    assert not stored(
        "## Timeline\n\n- 09:30 Is anyone else getting a blank page when attempting to reload the dashboard?\n"
        "- 09:40 Still down here.\n"
    )
    assert not stored("## Timeline\n\n- 09:30 If I manage to restart the worker remotely.\n- 09:40 Still down.\n")
    assert not stored("## Timeline\n\n- 09:30 Hi, I tried again.\n- 09:40 Still no luck with the mirror.\n")
    # the same later entry after a step that was taken is its outcome
    assert stored("## Timeline\n\n- 09:30 We tried restarting the worker.\n- 09:40 Still down.\n") == [
        ("We tried restarting the worker", "Still down")
    ]


def test_a_cause_told_later_is_not_the_steps_outcome() -> None:
    assert not stored(
        "## Timeline\n\n- 10:00 We tried enabling the CDN on the proxy.\n"
        "- 10:10 The problem is that when the CDN is on, the proxy is unable to resolve the origin.\n"
    )
    # told as referring back to the step, it is the step's outcome
    assert stored(
        "## Timeline\n\n- 10:00 We tried enabling the CDN on the proxy.\n"
        "- 10:10 It did not resolve the 502s: the proxy is unable to resolve the origin.\n"
    ) == [
        (
            "We tried enabling the CDN on the proxy",
            "It did not resolve the 502s: the proxy is unable to resolve the origin",
        )
    ]
