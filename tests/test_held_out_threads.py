"""The held-out threads (bench/held_out.tsv: the newest collection no reader has been written from) stay out of every
bench that writes rules from fold A's conversations unless a bench is told to include them, and no miss of theirs is
printed (issue 23, review F5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import bench.fit_reader as fit_reader
import bench.fix_head as fix_head
import bench.found_by_collection as found_by_collection
import bench.reading_eval_conversations as drafter_bench
from bench.fit_reader import conversations
from bot.importer.scoring import Ratio


def held() -> frozenset[str]:
    return drafter_bench.held_out_by_default()


def test_the_held_out_list_names_labelled_threads_of_both_folds_and_its_comments_are_not_names() -> None:
    files = held()
    labels = {label["file"]: label["fold"] for label in drafter_bench.read_labels(drafter_bench.CONVERSATIONS)}
    assert files and files <= set(labels)  # every name a labelled thread: a misspelt list is an error, not smaller
    assert {labels[f] for f in files} == {"A", "B"}
    assert not any(name.startswith("#") or not name.endswith(".json") for name in files)


def test_a_listed_collection_this_eval_does_not_hold_holds_nothing_out_and_one_held_in_part_is_an_error(
    tmp_path: Path,
) -> None:
    """The session's frozen eval/ predates the newest collection: its block names no thread there and is passed over;
    a block with one name the folder has no label for is misspelt or stale, and says so."""
    (tmp_path / "truth.jsonl").write_text("".join(f'{{"file": "{n}.json", "fold": "A"}}\n' for n in "xyz"))
    listed = tmp_path / "held.tsv"
    listed.write_text("# about the list\n# c1\nA\tx.json\nB\ty.json\n# c2, not in this eval/\nA\tlater.json\n")
    assert drafter_bench.held_out_by_default(tmp_path, listed) == {"x.json", "y.json"}
    listed.write_text("# c1\nA\tx.json\nA\tx-misspelt.json\n# c2\nA\tz.json\n")
    with pytest.raises(SystemExit, match="x-misspelt.json"):
        drafter_bench.held_out_by_default(tmp_path, listed)


def test_a_rule_writing_bench_reads_fold_a_without_the_held_out_threads_unless_told() -> None:
    every = {label["file"] for label, _ in conversations("A", leave_out=frozenset())}
    read = {label["file"] for label, _ in conversations("A")}
    assert read == every - held() and every & held()
    assert drafter_bench.left_out(include_held_out=True) == frozenset()


def test_the_drafter_bench_prints_no_miss_of_a_held_out_thread(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every thread drafted empty: each labelled fix is a miss, but only the threads a rule may be written from are
    named; the totals still count the held-out ones."""
    labels, out_by_default = drafter_bench.read_labels(drafter_bench.CONVERSATIONS), held()
    one_held = next(lb for lb in labels if lb["file"] in out_by_default and lb["fold"] == "A" and lb["fix_keywords"])
    one_dev = next(lb for lb in labels if lb["file"] not in out_by_default and lb["fold"] == "A" and lb["fix_keywords"])
    picked = [one_held, one_dev]
    drafts = {lb["file"]: drafter_bench.Drafted() for lb in picked}
    monkeypatch.setattr(drafter_bench, "drafted", lambda folder, files: (picked, drafts))
    assert drafter_bench.main(["--misses"]) == 0
    out = capsys.readouterr().out
    assert f"miss A fix: {one_dev['file']}" in out
    assert one_held["file"] not in out
    assert any(line.startswith("fix ") and "0/2" in line for line in out.splitlines())  # both in the fix's total
    other = Path(__file__).parent / "held.txt"  # another list (--held-out) quiets its threads too
    monkeypatch.setattr(drafter_bench, "left_out", lambda *a: frozenset({one_held["file"], one_dev["file"]}))
    assert drafter_bench.main(["--misses", "--held-out", str(other)]) == 0
    assert "miss A" not in capsys.readouterr().out


def test_fix_head_fits_on_dev_without_the_held_out_threads_and_judges_only_theirs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: dict[str, set[str]] = {}

    def fix_rows(data: list[tuple[dict[str, Any], dict]]) -> dict:
        seen["DEV"] = {label["file"] for label, _ in data}
        return {}

    def read_group(name: str, data: list[tuple[dict[str, Any], dict]], *rest: Any, **kw: Any) -> None:
        seen[name] = {label["file"] for label, _ in data}

    monkeypatch.setattr(fix_head, "fix_rows", fix_rows)
    monkeypatch.setattr(fix_head, "read_group", read_group)
    assert fix_head.main(["--skip-dev", "--judge", "--readings", ""]) == 0
    fold_a = {label["file"] for label, _ in conversations("A", leave_out=frozenset())}
    assert seen["DEV"] == fold_a - held()
    assert seen["HELD"] == fold_a & held()


def test_found_by_collection_names_no_miss_of_a_held_out_thread(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def evaluate(data: list[tuple[dict[str, Any], dict]], models: Any) -> dict[str, Ratio]:
        found = Ratio()
        for label, _ in data:
            found.add(False, label["file"])
        return {"found": found, "attempts_found": Ratio()}

    monkeypatch.setattr(found_by_collection, "evaluate", evaluate)
    monkeypatch.setattr(fit_reader, "LEFT_OUT", [None])  # main sets it: undone after the test
    assert found_by_collection.main(["--misses"]) == 0
    named = {line.rsplit(" ", 1)[-1] for line in capsys.readouterr().out.splitlines() if "miss DEV" in line}
    assert named and not named & held()
    with pytest.raises(SystemExit):
        found_by_collection.main(["--misses", "--include-held-out"])


@pytest.mark.parametrize("flags", [["--out", "/tmp/never-written.json"], ["--by-org"], ["--halves"], []])
def test_the_reader_fit_reads_the_held_out_threads_only_to_judge(flags: list[str]) -> None:
    # a fit or a one-out figure over the held-out threads would make the judge in-sample (review F7)
    with pytest.raises(SystemExit) as stopped:
        fit_reader.main(["--include-held-out", *flags])
    assert stopped.value.code == 2
