"""The step–outcome pairs of bench/attempt_pairs.py (issue 23): labelled from fold A's sentence labels
alone, a later statement that tells the step failed makes a "did not work" pair, a recovery a "worked"
one, and anything else told after the step is unrelated to it."""

from __future__ import annotations

import pytest

from bench.attempt_pairs import dataset, pair_class, pairs_of
from bench.fit_reader_attempt_gate import POSTMORTEMS
from bot.importer.scoring import load_truth
from bot.reader.sentences import Candidate

STORY = [
    Candidate("14:02 We restarted the queue workers.", "timeline"),
    Candidate("14:10 Jobs are still failing with the same error.", "timeline"),
    Candidate("14:20 We rolled back the deploy.", "timeline"),
    Candidate("14:25 Error rates are back to normal.", "timeline"),
]
LABELS = [
    {"quote": "we restarted the queue workers", "kind": "action", "outcome": "did_not_work",
     "outcome_quote": "jobs are still failing"},
    {"quote": "we rolled back the deploy", "kind": "action", "outcome": "worked",
     "outcome_quote": "error rates are back to normal"},
]  # fmt: skip


def test_a_restart_followed_by_still_failing_is_a_failed_pair_and_the_rollback_a_recovery() -> None:
    assert pair_class(STORY, 0, 1, LABELS) == "did_not_work"
    assert pair_class(STORY, 2, 3, LABELS) == "worked"


def test_what_follows_a_step_but_does_not_tell_its_outcome_is_unrelated() -> None:
    assert pair_class(STORY, 0, 0, LABELS) == "unrelated"  # its failure is told later, not in the step
    assert pair_class(STORY, 0, 2, LABELS) == "unrelated"  # the next step, not the restart's outcome
    assert pair_class(STORY, 0, 3, LABELS) == "unrelated"  # the rollback's recovery is not the restart's


def test_a_step_is_paired_with_itself_and_the_entries_after_it_in_its_section_only() -> None:
    told = STORY[:2] + [Candidate("We will add an alert on queue depth.", "action_items")]
    assert pairs_of(told) == [(0, 0), (0, 1)]


def test_the_pairs_are_made_from_fold_a_only() -> None:
    truths = [t for t in load_truth(POSTMORTEMS / "truth.jsonl") if not t.not_an_incident]
    with pytest.raises(ValueError, match="fold A"):
        dataset([t for t in truths if t.fold == "B"][:1])
