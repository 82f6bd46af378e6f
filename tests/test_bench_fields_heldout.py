"""The postmortem judge's field totals (bench/attempts_heldout.py --fields, issue 23): the root cause, the fix and
metadata stored as either, on the held-out list's fold-A files only, before (another commit's importer) and after
(this checkout's), totals only: a held-out file is never named. Read on a small corpus written here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import bench.attempts_heldout as heldout
from bot.importer.scoring import load_truth

ROOT = Path(heldout.__file__).resolve().parent.parent

REPORTS = {
    # held out: the cause and the fix stored right, a duration labelled as metadata stays out of both
    "judge-disk.md": (
        "# Disk full on 2024-03-18\n\n## Root cause\n\nLog rotation was disabled by a config change, so the disk "
        "filled.\n\n## Resolution\n\nWe re-enabled log rotation and restarted the API.\n\nThe outage lasted 2 hours.\n",
        {"root_cause_keywords": ["log rotation was disabled"], "fix_keywords": ["re-enabled log rotation"]},
    ),
    # held out: a labelled cause the report never states (a miss), no fix label
    "judge-dns.md": (
        "# DNS outage on 2024-04-02\n\n## Summary\n\nNames did not resolve for our users.\n\n## Resolution\n\n"
        "We moved the zone back to the old provider.\n",
        {"root_cause_keywords": ["expired registrar credentials"], "fix_keywords": []},
    ),
    # not listed: never read by the judge
    "tuning-queue.md": (
        "# Queue stuck on 2024-05-01\n\n## Root cause\n\nA poison message blocked the queue.\n",
        {"root_cause_keywords": ["poison message"], "fix_keywords": []},
    ),
}


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    rows = []
    for name, (text, labels) in REPORTS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        rows.append({"file": name, "org": name.split("-")[1], "fold": "A", "date": None, **labels})
    rows[0]["not_attempts"] = [{"keywords": ["outage lasted 2 hours"], "kind": "metadata"}]
    (tmp_path / "truth.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    monkeypatch.setattr(heldout, "POSTMORTEMS", tmp_path)
    monkeypatch.setattr(heldout, "held_out_postmortems", lambda: frozenset({"judge-disk.md", "judge-dns.md"}))

    def this_reader(commit: str, files: list[str], *, script: str) -> subprocess.CompletedProcess[str]:
        # "before" read by this checkout's importer too (no worktree): both columns must then agree
        argv = [sys.executable, "-c", script, str(tmp_path), json.dumps(files)]
        return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)

    monkeypatch.setattr(heldout, "run_old_reader", this_reader)
    return tmp_path


def test_the_judge_counts_the_held_out_files_fields_and_never_names_one(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert heldout.main(["--fields", "--reader", "HEAD", "--every-collection", "--json"]) == 0
    said = capsys.readouterr().out
    judge = json.loads(said)
    assert judge["reports"] == 2 and judge["organisations"] == 2
    after = judge["after"]
    assert (after["cause"], after["cause_labelled"], after["fix"], after["fix_labelled"]) == (1, 2, 1, 1)
    assert (after["metadata"], after["metadata_labelled"]) == (0, 1)
    assert judge["before"] == after
    assert heldout.main(["--fields", "--reader", "HEAD", "--every-collection"]) == 0
    said += capsys.readouterr().out
    assert "cause 1/2" in said and "metadata as fix or cause 0 of 1" in said
    assert not any(name.split(".")[0] in said for name in REPORTS)


def test_a_stored_metadata_line_and_a_wrong_cause_are_counted(corpus: Path) -> None:
    truths = heldout.judged()
    drafts, _, _ = heldout.read_corpus(corpus, only={t.file for t in truths})
    drafts["judge-disk.md"] = drafts["judge-disk.md"].model_copy(update={"resolution": "The outage lasted 2 hours."})
    drafts["judge-dns.md"] = drafts["judge-dns.md"].model_copy(update={"root_cause": "A cosmic ray flipped a bit."})
    totals = heldout.field_totals(truths, drafts)
    # the fix: a metadata line where a step was labelled (wrong), a step where none was labelled (stored where none)
    assert (totals["metadata"], totals["fix"], totals["fix_wrong"], totals["fix_where_none"]) == (1, 0, 1, 1)
    assert (totals["cause"], totals["cause_wrong"], totals["cause_where_none"]) == (1, 1, 0)


def test_the_judge_needs_the_reader_it_compares_with() -> None:
    with pytest.raises(SystemExit):
        heldout.main(["--fields"])


def test_the_judge_reads_every_collection_only_when_told(corpus: Path) -> None:
    # review F48: a collection not yet due as a judge stays unread unless the caller says so
    with pytest.raises(SystemExit):
        heldout.main(["--fields", "--reader", "HEAD"])


def test_one_collection_of_the_list_is_judged_alone(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "held_out_postmortems.tsv"
    listed.write_text(
        "# The postmortem collections no rule was written from, one a block.\n"
        "# pm1, the first collection (--base abc).\nA\tjudge-disk.md\n"
        "# pm2, the second collection, still open.\nA\tjudge-dns.md\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(heldout, "HELD_OUT", listed)
    assert heldout.collection("pm1") == {"judge-disk.md"} and heldout.collection("pm2") == {"judge-dns.md"}
    # a pooled judge names its blocks; one that names a block the list lacks reads nothing, never a smaller pool
    assert heldout.collection("pm1,pm2") == {"judge-disk.md", "judge-dns.md"} and not heldout.collection("pm1,pm9")
    assert heldout.main(["--fields", "--reader", "HEAD", "--collection", "pm1", "--json"]) == 0
    judge = json.loads(capsys.readouterr().out)
    assert judge["reports"] == 1 and judge["after"]["cause_labelled"] == 1 and judge["after"]["fix"] == 1
    with pytest.raises(SystemExit):
        heldout.main(["--fields", "--reader", "HEAD", "--collection", "pm9"])


def test_the_attempts_judge_reads_one_collection_alone_when_named(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # --base reads every fold-A file new since that commit: a later collection too unless --collection names one
    # block (review F48: pm25's judge command must not read pm26, the next collection)
    listed = tmp_path / "held_out_postmortems.tsv"
    listed.write_text("# pm1, the judge.\nA\tjudge-disk.md\n# pm2, the next one.\nA\tjudge-dns.md\n", encoding="utf-8")
    monkeypatch.setattr(heldout, "HELD_OUT", listed)
    new_since_base = [t for t in load_truth(corpus / "truth.jsonl") if t.file.startswith("judge-")]
    monkeypatch.setattr(heldout, "held_out", lambda base: new_since_base)
    read: list[list[str]] = []

    def old_reader(commit: str, files: list[str]) -> subprocess.CompletedProcess[str]:
        read.append(files)
        return subprocess.CompletedProcess([], 0, json.dumps({f: [] for f in files}), "")

    monkeypatch.setattr(heldout, "run_old_reader", old_reader)
    assert heldout.main(["--base", "abc", "--collection", "pm1", "--json"]) == 0
    assert read == [["judge-disk.md"]] and json.loads(capsys.readouterr().out)["reports"] == 1
    assert heldout.main(["--base", "abc"]) == 0
    assert read[-1] == ["judge-disk.md", "judge-dns.md"]
    assert not any(name.split(".")[0] in capsys.readouterr().out for name in REPORTS)
    with pytest.raises(SystemExit):
        heldout.main(["--base", "abc", "--collection", "pm9"])


def test_the_attempts_judge_says_which_importer_read_before(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # --reader defaults to --base, an importer older than the rule's parent when main has moved since the collection
    # began: the judge's "before" is named, so a verdict cannot credit a rule with another commit's change (review F65)
    new_since_base = [t for t in load_truth(corpus / "truth.jsonl") if t.file.startswith("judge-")]
    monkeypatch.setattr(heldout, "held_out", lambda base: new_since_base)
    commits: list[str] = []

    def old_reader(commit: str, files: list[str]) -> subprocess.CompletedProcess[str]:
        commits.append(commit)
        return subprocess.CompletedProcess([], 0, json.dumps({f: [] for f in files}), "")

    monkeypatch.setattr(heldout, "run_old_reader", old_reader)
    assert heldout.main(["--base", "abc"]) == 0
    assert commits == ["abc"] and "before = the importer of abc" in capsys.readouterr().out
    assert heldout.main(["--base", "abc", "--reader", "def"]) == 0
    assert commits[-1] == "def" and "before = the importer of def" in capsys.readouterr().out
