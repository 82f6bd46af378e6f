"""bench/conversation_attempts_blind_b.py (review F8): fold B's drafted attempt lines printed for a person with no
label, score or miss beside them; the person's decisions kept as hashes and read back to score both rules."""

from __future__ import annotations

import hashlib
import json

import pytest

from bench import conversation_attempts_blind as blind
from bench import conversation_attempts_blind_b as blind_b


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    """Two threads, fold B and fold A, each with one failed attempt told; fold B's label names it "i restarted nginx"
    (a subject the drafted line drops: only the new rule grants it)."""
    said = "I restarted nginx, still 502."
    for name, fold in (("b.json", "B"), ("a.json", "A")):
        thread = {
            "fold": fold,
            "messages": [
                {"author": "u1", "text": "The site is down, every page returns 502."},
                {"author": "u2", "text": said},
                {"author": "u2", "text": "Rolled back the deploy and the site is back."},
            ],
        }
        (tmp_path / name).write_text(json.dumps(thread), encoding="utf-8")
    label = {"file": "b.json", "fold": "B", "failed_attempts": [{"action_keywords": ["i restarted nginx"], "why": ""}]}
    (tmp_path / "truth.jsonl").write_text(json.dumps(label) + "\n", encoding="utf-8")
    monkeypatch.setattr(blind, "CONVERSATIONS", tmp_path)
    monkeypatch.setattr(blind_b, "CONVERSATIONS", tmp_path)
    return tmp_path


def test_lines_are_fold_b_files_and_drafted_lines_only(corpus, capsys) -> None:
    assert blind_b.main(["lines"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 1  # fold A's thread is not printed
    name, line = printed[0].split("\t")
    assert name == "b.json" and "restarted nginx" in line.lower()
    assert not any(word in printed[0] for word in ("real", "label", "keyword", "miss"))


def test_agree_reads_the_hashed_decisions_back_and_scores_both_rules(corpus, tmp_path, capsys) -> None:
    blind_b.main(["lines"])
    name, line = capsys.readouterr().out.strip().split("\t")
    decisions = tmp_path / "decisions.tsv"
    decisions.write_text(f"# a comment\n{sha1(name)}\t{sha1(line)}\treal\n", encoding="utf-8")
    assert blind_b.main(["agree", "--decisions", str(decisions)]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["lines"] == 1 and said["undecided"] == 0 and said["people_real"] == 1
    assert (said["whole_real"], said["whole_agree"]) == (0, 0)  # "i restarted nginx" is not in "Restarted nginx…"
    assert (said["bare_real"], said["bare_agree"]) == (1, 1)
    assert (said["new_grants"], said["new_grants_people_real"]) == (1, 1)
    decisions.write_text(f"{sha1(name)}\t{sha1(line)}\tnot\n", encoding="utf-8")
    blind_b.main(["agree", "--decisions", str(decisions)])
    said = json.loads(capsys.readouterr().out)
    assert (said["people_real"], said["new_grants_people_real"]) == (0, 0)
    assert (said["bare_agree"], said["whole_agree"]) == (0, 1)


def test_a_line_without_a_decision_is_counted_apart(corpus, tmp_path, capsys) -> None:
    decisions = tmp_path / "decisions.tsv"
    decisions.write_text("", encoding="utf-8")
    blind_b.main(["agree", "--decisions", str(decisions)])
    said = json.loads(capsys.readouterr().out)
    assert (said["lines"], said["undecided"], said["people_real"], said["bare_agree"]) == (1, 1, 0, 0)


def test_a_malformed_decision_row_is_a_clear_error(tmp_path) -> None:
    decisions = tmp_path / "decisions.tsv"
    decisions.write_text("abc\tdef\tmaybe\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="real|not"):
        blind_b.read_decisions(decisions)


def test_the_shipped_decisions_hold_hashes_and_a_decision_only() -> None:
    decided = blind_b.read_decisions()
    assert len(decided) == 55  # fold B's drafted lines on eval/ of 9cdda00, each decided once
    assert all(len(f) == 40 and len(line) == 40 for f, line in decided)
    assert set(decided.values()) == {"real", "not"}


@pytest.fixture
def two_lines(corpus):
    """A second fold-B thread beside `corpus`'s: a step told to fail that no label holds."""
    thread = {
        "fold": "B",
        "messages": [
            {"author": "u1", "text": "The docs site times out for everyone."},
            {"author": "u1", "text": "I cleared the CDN cache, still timing out."},
            {"author": "u2", "text": "Renewed the domain and the site is back."},
        ],
    }
    (corpus / "c.json").write_text(json.dumps(thread), encoding="utf-8")
    return corpus


def test_readers_sets_a_second_person_beside_the_first_by_line_number_only(two_lines, tmp_path, capsys) -> None:
    blind_b.main(["lines"])
    printed = [row.split("\t") for row in capsys.readouterr().out.strip().splitlines()]
    assert [name for name, _ in printed] == ["b.json", "c.json"]
    rows = [f"{sha1(name)}\t{sha1(line)}" for name, line in printed]
    first, second = tmp_path / "first.tsv", tmp_path / "second.tsv"
    first.write_text(f"{rows[0]}\treal\n{rows[1]}\treal\n", encoding="utf-8")
    second.write_text(f"# the second reader\n{rows[0]}\treal\n{rows[1]}\tnot\n", encoding="utf-8")
    assert blind_b.main(["readers", "--decisions", str(first), "--second", str(second)]) == 0
    out = capsys.readouterr().out
    said = json.loads(out)
    assert (said["lines"], said["undecided"], said["first_real"], said["second_real"]) == (2, 0, 2, 1)
    assert (said["agree"], said["kappa"], said["split"]) == (1, 0.0, [2])  # the split named by its number only
    assert (said["both_real"], said["first_only"], said["second_only"], said["both_not"]) == (1, 1, 0, 0)
    # only b.json's label holds an attempt, and only the bare rule reads "i restarted nginx" in the drafted line
    assert (said["bare_real"], said["whole_real"]) == (1, 0)
    assert (said["bare_agree_first"], said["bare_agree_second"], said["bare_kappa_second"]) == (1, 2, 1.0)
    assert (said["whole_agree_first"], said["whole_agree_second"]) == (0, 1)
    assert (said["bare_agree_where_readers_agree"], said["whole_agree_where_readers_agree"]) == (1, 0)
    assert (said["bare_grants_both_real"], said["bare_grants_both_not"], said["whole_grants_both_real"]) == (1, 0, 0)
    assert "nginx" not in out and "cache" not in out and "c.json" not in out


def test_readers_counts_a_line_either_person_left_undecided_apart(two_lines, tmp_path, capsys) -> None:
    blind_b.main(["lines"])
    name, line = capsys.readouterr().out.strip().splitlines()[0].split("\t")
    first, second = tmp_path / "first.tsv", tmp_path / "second.tsv"
    first.write_text(f"{sha1(name)}\t{sha1(line)}\treal\n", encoding="utf-8")
    second.write_text("", encoding="utf-8")
    blind_b.main(["readers", "--decisions", str(first), "--second", str(second)])
    assert json.loads(capsys.readouterr().out) == {"lines": 2, "undecided": 2}


def test_the_second_readers_shipped_decisions_hold_hashes_and_a_decision_only() -> None:
    decided = blind_b.read_decisions(blind_b.SECOND)
    assert len(decided) == 55  # the same 55 lines, each decided once by the second person
    assert all(len(f) == 40 and len(line) == 40 for f, line in decided)
    assert set(decided.values()) == {"real", "not"}


def test_a_held_out_thread_is_never_drafted_or_printed(corpus, tmp_path, monkeypatch, capsys) -> None:
    """A judge's threads (bench/held_out.tsv) stay out of `lines` (review F22): their drafts would be read."""
    held = tmp_path / "held_out.tsv"
    held.write_text("# the judge\nB\tb.json\n", encoding="utf-8")
    monkeypatch.setattr(blind_b, "HELD_OUT", held)
    assert blind_b.main(["lines"]) == 0
    assert capsys.readouterr().out == ""
