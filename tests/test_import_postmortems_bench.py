"""bench/import_postmortems.py (review F26): the totals are both folds', but the misses it prints or puts in --json
are one fold's only, the tuning fold A unless another is named — a tuner reading the totals never sees fold B's
missed files, stored lines or skip reasons (bench/reading_eval.py's rule)."""

from __future__ import annotations

import json

import pytest

from bench import import_postmortems


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    """Two postmortems, one a fold, both labelled with a cause, neither imported (a reason given for each)."""
    labels = [
        {"file": f"{fold.lower()}.md", "org": f"org-{fold}", "fold": fold, "date": None, "root_cause_keywords": ["x"]}
        for fold in ("A", "B")
    ]
    (tmp_path / "truth.jsonl").write_text("\n".join(map(json.dumps, labels)) + "\n", encoding="utf-8")
    skipped = ({"a.md": None, "b.md": None}, {"a.md": "a template (fold A)", "b.md": "a template (fold B)"}, [1.0])
    monkeypatch.setattr(import_postmortems, "read_corpus", lambda folder: skipped)
    return tmp_path


def _json(corpus, capsys, *flags: str) -> dict:
    assert import_postmortems.main([str(corpus), "--json", *flags]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_holds_both_folds_totals_and_no_miss_unless_a_fold_is_named(corpus, capsys) -> None:
    said = _json(corpus, capsys)
    assert (said["figures"]["imported"]["right"], said["figures"]["imported"]["total"]) == (0, 2)
    assert said["figures"]["root_cause"]["total"] == 2
    assert all(not field["misses"] for field in said["figures"].values())
    assert said["reasons"] == {}


def test_misses_are_fold_a_s_unless_fold_b_is_named(corpus, capsys) -> None:
    said = _json(corpus, capsys, "--misses")
    assert said["figures"]["imported"]["misses"] == ["a.md"] and said["figures"]["root_cause"]["misses"] == ["a.md"]
    assert said["reasons"] == {"a.md": "a template (fold A)"}
    assert said["figures"]["imported"]["total"] == 2  # the totals stay both folds'
    assert _json(corpus, capsys, "--misses", "B")["figures"]["imported"]["misses"] == ["b.md"]


def test_the_printed_misses_name_no_fold_b_file(corpus, capsys) -> None:
    assert import_postmortems.main([str(corpus), "--misses"]) == 0
    printed = capsys.readouterr().out
    assert "imported               0/2" in printed and "- a.md  (a template (fold A))" in printed
    assert "b.md" not in printed


def test_a_held_out_postmortem_counts_in_the_totals_and_is_never_named(corpus, capsys, tmp_path, monkeypatch) -> None:
    """bench/held_out_postmortems.tsv's files (the next postmortem judge) stay out of a tuner's misses, fold A's too."""
    held = tmp_path / "held.tsv"
    held.write_text("# the judge\nA\ta.md\n", encoding="utf-8")
    monkeypatch.setattr(import_postmortems, "HELD_OUT", held)
    said = _json(corpus, capsys, "--misses")
    assert said["figures"]["imported"]["total"] == 2 and said["figures"]["imported"]["misses"] == []
    assert said["reasons"] == {}
    assert import_postmortems.main([str(corpus), "--misses"]) == 0
    assert "a.md" not in capsys.readouterr().out


def test_the_shipped_held_out_list_names_labelled_postmortems() -> None:
    """A misspelt name would silently put a judge back among the misses a tuner reads."""
    from pathlib import Path

    truth = Path(import_postmortems.__file__).resolve().parent.parent / "eval" / "postmortems" / "truth.jsonl"
    labelled = {json.loads(line)["file"] for line in truth.read_text(encoding="utf-8").splitlines() if line.strip()}
    held = import_postmortems.held_out_postmortems()  # empty between two judges (since the seventeenth session)
    assert held <= labelled, sorted(held - labelled)
