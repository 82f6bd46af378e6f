"""The swap-fitted gate on stored failed attempts (issue 23, bench/attempts_swap_gate.py): a fold's rows come from its
own sentence labels alone; a fit on fold A never prints a line of fold B; a stored line is read by its structure (where
its outcome is told, who acted, the tense), and a line today's bar refuses makes no row."""

from __future__ import annotations

import pytest

import bench.attempts_swap_gate as swap
from bot.importer.scoring import load_truth
from bot.reader.sentences import Head


def _fold(fold: str) -> list:
    return [t for t in load_truth(swap.POSTMORTEMS / "truth.jsonl") if t.fold == fold and not t.not_an_incident]


def test_a_fold_rows_read_its_own_sentence_labels_only(monkeypatch) -> None:
    asked: list[str] = []
    seen: set[str] = set()
    real = swap.statements
    monkeypatch.setattr(swap, "statements", lambda fold: asked.append(fold) or real(fold))
    monkeypatch.setattr(swap, "pair_rows", lambda truth, labelled, featurize: seen.add(truth.file) or [])
    swap.fold_rows("B", _fold("B"), {})
    assert asked == ["B"]
    assert seen and not seen & {t.file for t in _fold("A")}
    with pytest.raises(ValueError):
        swap.fold_rows("A", _fold("B"), {})


def test_a_fit_on_fold_a_never_prints_a_line_of_fold_b(monkeypatch, capsys) -> None:
    def stored(truths: list) -> dict:
        fold = truths[0].fold
        return {t.file: [(f"we restarted it in fold {fold}", "it did not help")] for t in truths[:3]}

    monkeypatch.setattr(swap, "stored", stored)
    monkeypatch.setattr(swap, "procedure", lambda fold, truths, lines, quiet: (Head(0.0, {}), 1.0, 0.5, {}))
    assert swap.main(["--fit", "A", "--lines"]) == 0
    out = capsys.readouterr().out
    assert "in fold A" in out and "in fold B" not in out
    assert "fold B gated (fitted on A" in out


def test_a_stored_line_is_read_by_where_its_outcome_is_told_who_acted_and_the_tense() -> None:
    ours = swap.features("We restarted the pods", "it did not help")
    assert {"o:refers-back", "o:why-fails", "agent:we", "tense:past"} <= set(ours)
    passive = swap.features("The deploy was rolled back", "errors still persisted")
    assert {"agent:passive", "o:why-fails"} <= set(passive) and "agent:we" not in passive
    assert swap.features("We had tried restarting it", "but it had failed") is None  # the past perfect: no row


def test_no_threshold_is_no_gate() -> None:
    lines = {"x.md": [("we restarted it", "it did not help")]}
    assert swap.gate(lines, {"x": Head(-9.0, {})}, {"x.md": "x"}, 0.0) == lines
    assert swap.gate(lines, {"x": Head(-9.0, {})}, {"x.md": "x"}, 0.5) == {"x.md": []}


def test_the_late_threshold_reads_fold_a_alone_fitted_on_the_reports_present_then(monkeypatch) -> None:
    folds: list = []
    fitted: list[str] = []
    real = swap.fold_truths
    monkeypatch.setattr(swap, "fold_truths", lambda fold, **kw: folds.append(fold) or real(fold, **kw))
    monkeypatch.setattr(swap, "fold_rows", lambda fold, truths, lines: fitted.extend(t.file for t in truths) or {})
    monkeypatch.setattr(swap, "balanced_loss", lambda rows, l2, group: l2)
    monkeypatch.setattr(swap, "head_of", lambda rows, l2, left_out=frozenset(): Head(weights={}, bias=0.0))
    a = [t.file for t in real("A", incidents_only=True)]
    present = set(a[: len(a) // 2])
    monkeypatch.setattr("bench.attempts_by_path.files_at", lambda commit: present)
    out = swap.late_threshold("HEAD", lines={})
    assert folds == ["A"] and set(fitted) == present
    assert out["reports"] == {"present": len(present), "added": len(a) - len(present)}
    assert out["keep"] == 0.0  # no stored line: no value above 0, no gate
    with pytest.raises(SystemExit):
        swap.main(["--fit", "B", "--late", "HEAD"])
