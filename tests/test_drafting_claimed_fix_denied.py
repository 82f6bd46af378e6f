"""The offline drafter on a step its doer says fixed the trouble, answered by someone else's next message with the
trouble still there (issue 23, convatt4, nineteenth session): "Restarted the workers, back up." then "It's still down"
is a failed attempt told by the thread and no fix. The doer's own caveat ("…, back up. Still watching it"), an answer
that tells no outcome of the step, or an answer that is a question leave the step the fix, as before. Measured on real
conversations by bench/reading_eval_conversations.py and bench/rule_reach.py (docs/BENCHMARKS.md, issue 23, convatt4)."""

from __future__ import annotations

import pytest

from tests.test_drafting_conversations import draft  # the same channel, drafted offline

REPORT = ("ana", "The invite page returns 503 for everyone since this morning")

DENIED = [
    ("Restarted the workers, back up.", "It's still down", "Restarted the workers"),
    ("I have fixed it, redeployed the invite app with the new token.", "Still getting the 503 here", "Redeployed"),
]


@pytest.mark.parametrize(("claimed", "answer", "step"), DENIED)
def test_a_step_claimed_to_fix_it_that_the_next_answer_denies_is_a_failed_attempt_not_the_fix(
    claimed: str, answer: str, step: str
) -> None:
    result = draft(REPORT, ("ben", claimed), ("ana", answer))
    assert len(result.failed_attempts) == 1
    assert step.lower() in result.failed_attempts[0].action.lower()
    assert result.failed_attempts[0].why_it_failed.lower().startswith(answer.lower()[:12])
    assert result.resolution is None or step.lower() not in result.resolution.text.lower()


@pytest.mark.parametrize(
    ("claimed", "answer"),
    [
        ("Restarted the workers, back up.", "Thanks, works for me now!"),  # the fix confirmed
        ("Restarted the workers, back up.", "Is it still down for anyone?"),  # a question tells no outcome
        ("Restarted the workers, back up.", "I still don't know what caused it though."),  # no outcome of the step
    ],
)
def test_a_claimed_fix_not_denied_by_its_answer_drafts_no_failed_attempt(claimed: str, answer: str) -> None:
    assert draft(REPORT, ("ben", claimed), ("ana", answer)).failed_attempts == []


def test_the_doers_own_next_message_is_no_answer_to_their_claim() -> None:
    # the one who claimed the fix saying "still" after it is their caveat or a recurrence, not the thread's answer
    result = draft(REPORT, ("ben", "Restarted the workers, back up."), ("ben", "Still watching the queue."))
    assert result.failed_attempts == []
