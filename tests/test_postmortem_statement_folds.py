"""Fold discipline for the postmortems' sentence labels (eval/postmortems/statements.jsonl, issue 23):
fold B's lines are for reporting and the swap fit only, so what fits on the labels
(bench/fit_reader_attempt_gate.py, bench/embed_attempt_pairs.py) reads fold A unless asked."""

from __future__ import annotations

import json

from bench.fit_reader_attempt_gate import POSTMORTEMS, statements
from bench.import_postmortems import held_out_postmortems


def _folds() -> dict[str, str]:
    lines = (POSTMORTEMS / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    return {label["file"]: label["fold"] for label in map(json.loads, filter(None, lines))}


def _labelled() -> dict[str, str]:
    lines = (POSTMORTEMS / "statements.jsonl").read_text(encoding="utf-8").splitlines()
    return {row["file"]: row["fold"] for row in map(json.loads, filter(None, lines))}


def test_a_fit_on_fold_a_reads_every_fold_a_line_and_no_fold_b_line() -> None:
    folds, labelled = _folds(), _labelled()
    fitted = statements()
    assert fitted == statements("A")
    # the tuning fold only: bench/held_out_postmortems.tsv's files (a judge) are no tuning fold (review F35)
    assert set(fitted) == {f for f, fold in labelled.items() if fold == "A" and f not in held_out_postmortems()}
    assert all(folds[f] == "A" for f in fitted)


def test_the_swap_reads_fold_b_lines_only() -> None:
    folds, labelled = _folds(), _labelled()
    swap = statements("B")
    assert set(swap) == {f for f, fold in labelled.items() if fold == "B"}
    assert all(folds[f] == "B" for f in swap)
    assert not set(swap) & set(statements("A"))
