"""The label-fitted gate of bench/attempts_label_gate.py (issue 23): it reads a line's cues, never its words, and it
is fitted on fold A's sentence labels only."""

from __future__ import annotations

from bench import attempts_label_gate as gate
from bot.importer.scoring import load_truth


def test_a_step_that_did_not_help_gives_its_cues_and_a_line_with_no_failure_gives_none() -> None:
    said = gate.evidence("We restarted the pods, but it did not help")
    assert {"cue", "outcome:help", "responder", "contrast", "responder-contrast"} <= said
    assert not any(name.startswith(("word:", "step:")) for name in said)  # cue names only, steps when asked
    assert gate.evidence("We restarted the pods and the site came back") == set()


def test_a_failure_only_foretold_and_a_system_failing_are_told_apart_from_a_step_failing() -> None:
    assert "forecast" in gate.evidence("Some customers may still see delayed webhooks")
    assert "failed-only" in gate.evidence("The upgrade fails because the new hub pod does not start")


def test_the_gate_is_fitted_on_fold_a_statements_only(monkeypatch) -> None:
    folds = {t.file: t.fold for t in load_truth(gate.POSTMORTEMS / "truth.jsonl")}
    asked = []

    def statements(fold: str = "A") -> dict:
        asked.append(fold)
        return {}

    monkeypatch.setattr(gate, "statements", statements)
    assert gate.labelled_rows("unlabelled") == []
    assert asked == ["A"] and "B" in folds.values()
