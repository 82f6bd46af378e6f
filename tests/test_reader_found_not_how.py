"""Sentences that hold a "how it was found" cue but do not say how this incident was found (issue 23):
a pointer to another part of the report, a team called on to act, a habit or a policy, the monitoring
seeing the recovery. An empty "How it was found" beats one that quotes them. Small texts written by us:
a behaviour check, not a measure (bench/reading_eval.py is the measure)."""

from __future__ import annotations

import pytest

from tests.test_reader_found import found
from tests.test_reader_metadata import imported


@pytest.mark.parametrize(
    "said",
    [
        "A short summary is given here; a detailed timeline built from the team's chat logs is available below.",
        "For more details see the full incident report, where the dashboards showed the missing nodes.",
        "The network team were alerted to identify where the attack traffic was going.",
        "When we receive reports of accounts asking for money, we check their posts by hand.",
        "Our internal monitoring reports all systems are now reachable again from every region.",
    ],
)
def test_a_cue_that_tells_something_else_is_not_how_it_was_found(said: str) -> None:
    assert not found(said)


def test_the_first_sign_is_still_how_it_was_found() -> None:
    said = [
        "At 14:02 we were alerted to the rising error rate on checkout.",
        "Our monitoring reports the API failing from every region.",
        "When we received the first reports from users, we opened an incident.",
    ]
    assert found(*said) == said


def test_a_pointer_and_the_recovery_stay_out_of_the_memory_s_how_it_was_found() -> None:
    draft = imported(
        """# Registry unreachable

## Detection

A detailed timeline based on our chat logs is available below.

## Timeline

- 08:45 UTC - A customer reported that pulls from the registry time out.
- 12:00 UTC - Our internal monitoring reports all systems are now reachable again.

## Root cause

The registry's domain registration had lapsed.
"""
    )
    assert "customer reported" in (draft.diagnosis or "")
    assert "available below" not in (draft.diagnosis or "")
    assert "reachable again" not in (draft.diagnosis or "")
