"""bench/conversation_attempts_blind.py (issue 23): fold A's threads only, drafted by a drafter run from a tree of its
own on today's copy of the thread, scored as the conversation bench scores drafted attempts."""

from __future__ import annotations

import json

from bench import conversation_attempts_blind as blind


def test_only_fold_a_threads_are_read() -> None:
    rows = [json.loads(line) for line in (blind.CONVERSATIONS / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["fold"] for r in rows} == {"A", "B"}
    assert {r["fold"] for r in blind.labels_a()} == {"A"}


def test_a_drafted_attempt_counts_real_by_the_labels_phrases() -> None:
    labels = [
        {"file": "a.json", "failed_attempts": [{"action_keywords": ["restarted the server"], "why": ""}]},
        {"file": "b.json", "failed_attempts": []},
        {"file": "c.json", "failed_attempts": []},
        {"file": "d.json", "failed_attempts": []},  # its drafter failed: not counted
    ]
    lines = {
        "a.json": ["Restarted the server — still 502", "Cleared the cache — no luck"],
        "b.json": ["Rebooted it — it is back up for now"],
        "c.json": [],
        "d.json": None,
    }
    assert blind.figures(labels, lines) == {
        "real": 1,
        "drafted": 3,
        "found": 1,
        "labelled": 1,
        "invented": 1,
        "none_tried": 2,
    }


def test_todays_drafter_drafts_a_failed_attempt_from_a_thread_file(tmp_path, monkeypatch) -> None:
    thread = {
        "messages": [
            {"author": "u1", "text": "The site is down, every page returns 502."},
            {"author": "u2", "text": "I restarted nginx, still 502."},
            {"author": "u2", "text": "Rolled back the deploy and the site is back."},
        ]
    }
    (tmp_path / "x.json").write_text(json.dumps(thread), encoding="utf-8")
    monkeypatch.setattr(blind, "CONVERSATIONS", tmp_path)
    drafted = blind.drafted_at(None, ["x.json"])["x.json"]
    attempts = drafted["attempts"]
    assert len(attempts) == 1 and "restarted nginx" in attempts[0].lower()  # the rollback that worked is no attempt
    assert "rolled back" in drafted["resolution"].lower()


def test_cause_fix_and_how_found_are_scored_where_labelled() -> None:
    labels = [
        {"file": "a.json", "root_cause_keywords": ["disk full"], "fix_keywords": ["rolled back"], "found_keywords": []},
        {"file": "b.json", "root_cause_keywords": [], "fix_keywords": ["restarted"], "found_keywords": ["alert"]},
    ]
    drafts = {
        "a.json": {"root_cause": "The disk full on db1", "resolution": "Restarted", "diagnosis": "", "attempts": []},
        "b.json": {"root_cause": "", "resolution": "Restarted the pods", "diagnosis": "", "attempts": []},
    }
    assert blind.fields(labels, drafts) == {"cause": [1, 1], "fix": [1, 2], "found how": [0, 1]}
