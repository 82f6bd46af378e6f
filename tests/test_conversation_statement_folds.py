"""Fold discipline for the conversations' sentence labels (eval/conversations/statements.jsonl,
issue 23): both folds are labelled there, but what tunes on them reads one fold only, fold A
unless asked, so fold B's labels never reach the shipped reader's choices."""

from __future__ import annotations

import json

from bench.conversation_statements import STATEMENTS, statements
from bot.config import PROJECT_ROOT

TRUTH = PROJECT_ROOT / "eval" / "conversations" / "truth.jsonl"


def _folds() -> dict[str, str]:
    return {label["file"]: label["fold"] for label in map(json.loads, filter(None, TRUTH.read_text().splitlines()))}


def test_the_tuning_fold_reads_every_fold_a_line_and_no_fold_b_line() -> None:
    folds = _folds()
    tuned = statements()
    assert tuned == statements("A")
    assert set(tuned) == {f for f, fold in folds.items() if fold == "A"}
    assert all(folds[f] == "A" for f in tuned)


def test_the_swap_reads_fold_b_lines_only() -> None:
    folds = _folds()
    labelled = {json.loads(line)["file"] for line in STATEMENTS.read_text().splitlines() if line}
    swap = statements("B")
    assert set(swap) == {f for f in labelled if folds[f] == "B"}
    assert not set(swap) & set(statements("A"))
