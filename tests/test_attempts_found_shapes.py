"""Where fold A's missed failed attempts sit (issue 23, bench/attempts_found_shapes.py): a miss is placed by its
labelled statement in the timeline entries the importer reads, a list or prose; `--show` prints the write half's
misses only, never the measure half's, which judges a rule written from them."""

from __future__ import annotations

from datetime import date

import bench.attempts_found_shapes as shapes
from bot.importer.scoring import Truth

ENTRIES = ["Engineer restarts the hub pods.", "Users still see 503s.", "Engineer raises the memory limit, still OOM."]
STEP = {"quote": "restarts the hub pods", "outcome": "did_not_work", "outcome_quote": "still see 503s"}


def test_a_step_whose_failure_is_told_in_a_later_entry() -> None:
    assert shapes.shape(["hub pods"], [STEP], ENTRIES, "")[0] == "timeline-later"


def test_a_step_and_its_failure_in_one_entry() -> None:
    said = [{"quote": "raises the memory limit", "outcome": "did_not_work", "outcome_quote": "still OOM"}]
    assert shapes.shape(["memory limit"], said, ENTRIES, "")[0] == "timeline-same"


def test_prose_a_list_and_a_step_not_in_the_text() -> None:
    doc = "We tried flushing the cache but the errors kept coming.\n\n- purged the CDN\n"
    but = {"quote": "flushing the cache", "outcome": "did_not_work", "outcome_quote": "the errors kept coming"}
    listed = {"quote": "purged the CDN", "outcome": "did_not_work"}
    assert shapes.shape(["flushing the cache"], [but], [], doc)[0] == "prose-but"
    assert shapes.shape(["purged the CDN"], [listed], [], doc)[0] == "list"
    assert shapes.shape(["rebooted the router"], [], [], doc)[0] == "unlocated"


def _truth(org: str, file: str) -> Truth:
    return Truth(file, date(2024, 1, 1), [], [], [["hub pods"]], None, False, org=org, fold="A")


def test_show_prints_the_write_halfs_misses_and_never_the_measure_halfs(monkeypatch, capsys, tmp_path) -> None:
    (tmp_path / "a.md").write_text("x")
    (tmp_path / "b.md").write_text("x")
    rows = [(_truth("Alpha", "a.md"), [], ENTRIES, []), (_truth("Beta", "b.md"), [], ENTRIES, [])]
    monkeypatch.setattr(shapes, "POSTMORTEMS", tmp_path)
    monkeypatch.setattr(shapes, "read_fold_a", lambda: rows)
    monkeypatch.setattr(shapes, "statements", lambda: {"a.md": [STEP], "b.md": [STEP]})
    monkeypatch.setattr("sys.argv", ["attempts_found_shapes.py", "--show", "timeline-later"])
    assert shapes.main() == 0
    out = capsys.readouterr().out
    assert "Alpha a.md" in out and "b.md" not in out  # halves: sorted by name, write = even places
    assert "timeline-later" in out and "missed in all: 1" in out  # the write half's count only
    assert "measure" not in out  # the judge's counts stay unprinted until asked (the review's F19)
    monkeypatch.setattr("sys.argv", ["attempts_found_shapes.py", "--measure"])
    assert shapes.main() == 0
    out = capsys.readouterr().out
    assert "measure (word/none)" in out and "missed in all: 2" in out
