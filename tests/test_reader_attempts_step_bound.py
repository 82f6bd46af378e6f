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


def test_a_step_told_inside_what_someone_saw_or_checked_is_no_step_taken() -> None:
    # "when we re-deploy, … removing images" is what the investigation found, not a step taken against the trouble
    assert not stored(
        "## Timeline\n\n- 09:30 We were seeing images disappear in beta. On investigation it looks like the file storage "
        "is misconfigured when we re-deploy, removing images.\n- 09:40 Still missing on the stories page.\n"
    )
    # a remedy in the sentence (cues.CHAT_ACTION) is a step taken, whatever was checked with it
    assert stored(
        "## Timeline\n\n- 09:30 We checked the logs and restarted the storage worker.\n"
        "- 09:40 Still missing on the stories page.\n"
    ) == [("We checked the logs and restarted the storage worker", "Still missing on the stories page")]
    # the check in a sentence of its own leaves the step in the next one taken
    assert stored(
        "## Timeline\n\n- 09:30 We checked the logs. Then we deleted the stale uploads.\n"
        "- 09:40 Still missing on the stories page.\n"
    )


def test_a_thing_named_monitoring_or_a_pointer_to_the_text_is_no_observation() -> None:
    # "the monitoring VM" names a machine, "(see below)" points at the report: the step beside them was taken
    assert stored(
        "## Timeline\n\n- 09:30 On the monitoring VM I deleted the old indices.\n- 09:40 Still full, writes failing.\n"
    ) == [("On the monitoring VM I deleted the old indices", "Still full, writes failing")]
    assert stored(
        "## Timeline\n\n- 09:30 I then configured the proxy on the container (see below).\n- 09:40 Still not working.\n"
    )
    # a check told with its verb still is one
    assert not stored(
        "## Timeline\n\n- 09:30 We monitored the queue and it looks like the workers are deleting jobs.\n"
        "- 09:40 Still missing.\n"
    )
