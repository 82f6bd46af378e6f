"""bench/rule_reach.py (issue 23, r23-reach): a rule's changes are counted per field and read the right way against
the labels, the judge-size arithmetic is right, and fold B or a held-out thread is never read."""

from __future__ import annotations

from pathlib import Path

import pytest

import bench.rule_reach as reach
from bench.reading_eval_conversations import CONVERSATIONS, held_out_by_default, read_labels


def label(name: str, fix: list[str], attempts: list[list[str]] = ()) -> dict:
    return {
        "file": name,
        "fold": "A",
        "fix_keywords": fix,
        "root_cause_keywords": [],
        "found_keywords": [],
        "failed_attempts": [{"action_keywords": a} for a in attempts],
    }


def drafted(fix: str = "", attempts: list[str] = ()) -> dict:
    return {"resolution": fix, "root_cause": "", "diagnosis": "", "attempts": list(attempts)}


def test_each_change_is_counted_once_per_field_and_read_by_the_labels() -> None:
    labels = {
        "lost.json": label("lost.json", ["rolled back", "config"]),  # right fix dropped: right → wrong
        "gone.json": label("gone.json", []),  # a fix where none is labelled dropped: wrong → right
        "moved.json": label("moved.json", ["rolled back", "config"]),  # wrong text for another wrong text: other
        "same.json": label("same.json", ["rolled back"]),  # unchanged: not counted
        "quiet.json": label("quiet.json", ["rolled back", "config"]),  # a wrong fix left empty: wrong → right
        "tried.json": label("tried.json", [], [["restarted", "pods"]]),  # a real attempt found, a wrong one gone
    }
    base = {
        "lost.json": drafted("We rolled back the config."),
        "gone.json": drafted("Restarted the box."),
        "moved.json": drafted("Someone looked at it."),
        "same.json": drafted("We rolled back."),
        "quiet.json": drafted("Restarted the box."),
        "tried.json": drafted(attempts=["cleared the cache"]),
    }
    candidate = {
        **base,
        "lost.json": drafted(),
        "gone.json": drafted(),
        "quiet.json": drafted(),
        "moved.json": drafted("Nobody knows."),
        "tried.json": drafted(attempts=["restarted the pods — still down"]),
    }
    result = reach.compare(labels, base, candidate)
    assert result.total == 6
    assert reach.Counter({"right → wrong": 1, "wrong → right": 2, "other": 1}) == result.kinds("fix")
    assert result.kinds("attempts") == reach.Counter({"wrong → right": 1})
    assert result.threads() == {"lost.json", "gone.json", "quiet.json", "moved.json", "tried.json"}
    assert result.threads(scored=True) == {"lost.json", "gone.json", "quiet.json", "tried.json"}
    rows = reach.summary(result, n=10, power=0.8)
    assert rows["any"]["changed"] == 5 and rows["any"]["r_changed"] == pytest.approx(5 / 6)
    assert rows["fix"]["scored"] == 3 and rows["attempts"]["changed"] == 1


def test_attempts_moving_both_ways_are_other_and_a_lost_real_one_is_right_to_wrong() -> None:
    assert reach.direction((1, 1, 1), (1, 0, 1)) == "wrong → right"
    assert reach.direction((1, 0, 1), (0, 0, 0)) == "right → wrong"
    assert reach.direction((1, 1, 1), (2, 2, 1)) == "other"


def test_the_judge_size_arithmetic() -> None:
    assert reach.chance(0.5, 2) == pytest.approx(0.75)
    assert reach.size_needed(0.5, 0.8) == 3  # two threads see it with 0.75, three with 0.875
    assert reach.size_needed(6 / 773, 0.8) == 207
    assert reach.chance(6 / 773, 72) < 0.5
    assert reach.size_needed(0.0) is None


def test_fold_b_is_refused_and_held_out_threads_are_never_drafted(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        reach.main(["HEAD", "--fold", "B"])
    assert reach.listed_fold_a(["A\tone.json", "B\ttwo.json", "# c22", "", "three.json"]) == ["one.json", "three.json"]
    labels = {"one.json": {"fold": "A"}, "two.json": {"fold": "B"}, "held.json": {"fold": "A"}}
    assert reach.select(["one.json", "held.json"], labels, frozenset({"held.json"})) == ["one.json"]
    with pytest.raises(SystemExit, match="fold B"):
        reach.select(["two.json"], labels, frozenset())


def test_one_code_against_itself_changes_nothing_and_drafts_with_its_own_copy(tmp_path: Path) -> None:
    held = held_out_by_default()
    names = [x["file"] for x in read_labels(CONVERSATIONS) if x["fold"] == "A" and x["file"] not in held][:3]
    code = reach.code_tree("HEAD", tmp_path)
    assert (code / "bot" / "drafting" / "rules.py").is_file()
    first = reach.drafts(code, CONVERSATIONS, names, tmp_path)
    assert sorted(first) == sorted(names) and all("attempts" in row for row in first.values())
    assert any(row["resolution"] or row["root_cause"] or row["attempts"] for row in first.values())
    labels = {x["file"]: x for x in read_labels(CONVERSATIONS)}
    again = reach.drafts(code, CONVERSATIONS, names, tmp_path / "again")  # drafted anew, not read from the cache
    assert reach.compare(labels, first, again).changes == []
