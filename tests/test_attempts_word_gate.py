"""The word gate of bench/attempts_word_gate.py (issue 23): fitted on fold A's sentence labels only, a word one
organisation alone uses carries no weight on the next, and a line's heading is the one the document puts above it."""

from __future__ import annotations

from bench import attempts_label_gate
from bench import attempts_word_gate as gate
from bot.importer.scoring import load_truth


def test_the_word_gate_is_fitted_on_fold_a_statements_only(monkeypatch) -> None:
    folds = {t.file: t.fold for t in load_truth(gate.POSTMORTEMS / "truth.jsonl")}
    asked = []

    def statements(fold: str = "A") -> dict:
        asked.append(fold)
        return {}

    monkeypatch.setattr(attempts_label_gate, "statements", statements)  # the rows are read there
    assert gate.labelled_rows() == []
    assert asked == ["A"] and "B" in folds.values()


def test_a_word_of_one_organisation_alone_gives_no_evidence(monkeypatch) -> None:
    monkeypatch.setitem(gate.OPTS, "l2", 0.1)  # the bench's 10 is for ~400 rows (the penalty is divided by them)
    rows = [
        (org, gate.words(said), label)
        for org in ("a", "b", "c")
        for said, label in (("we restarted it but it did not help", True), ("the site was down for hours", False))
    ] + [("a", gate.words("zorkmid restarted but it did not help"), True)]
    head, kept = gate.Gate(rows).head(None)
    assert "w:zorkmi" not in kept and "w:restar" in kept
    assert head.probability(sorted(gate.words("we restarted it, did not help") & kept)) > 0.5
    assert head.probability(sorted(gate.words("the site was down") & kept)) < 0.5


def test_a_line_sits_under_the_last_heading_before_it() -> None:
    text = "# Report\n\n## What we tried\n\nWe restarted the pods, no luck.\n\n## Timeline\n\n10:00 alert fired\n"
    assert gate.heading_before(text, "We restarted the pods") == "What we tried"
    assert gate.ATTEMPT_HEADING.search(gate.heading_before(text, "We restarted the pods"))
    assert gate.heading_before(text, "10:00 alert fired") == "Timeline"
    assert gate.heading_before(text, "words the document does not hold") == ""
