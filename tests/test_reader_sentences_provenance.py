"""The shipped sentence model says how to rebuild it (issue 23): the corpus commit and reports it was fitted on, the code,
the scorer's phrase rule its labels read, each head's rows and settings. No fit here: the rebuild itself is
`bench/fit_reader_sentences.py --check` (docs/BENCHMARKS.md, "The sentence model's provenance")."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

import bench.fit_reader_sentences as fitting
import bench.reader_sentences_provenance as provenance
from bot.importer.scoring import Truth
from bot.reader.sentences import Candidate, features

COMMIT = re.compile(r"[0-9a-f]{40}")


def _shipped() -> dict:
    return json.loads(fitting.DATA.read_text(encoding="utf-8"))


def test_the_shipped_sentence_model_records_what_a_rebuild_needs() -> None:
    shipped = _shipped()
    assert provenance.missing(shipped) == []
    recorded = shipped["provenance"]
    assert COMMIT.fullmatch(recorded["corpus"]), "the corpus is named by a full commit id"
    assert COMMIT.fullmatch(recorded["code"]), "fitted by committed code, not a checkout with changes"
    assert recorded["fold"] == "A", "what ships is fitted on the tuning fold"
    assert len(recorded["files"]) > 100 and all(
        f.endswith((".md", ".txt", ".html", ".json")) for f in recorded["files"]
    )
    for head, fields in shipped["heads"].items():
        # every setting the bench reads today is recorded, so no default of today's code decides a rebuild
        assert set(fields["fitted_with"]) >= set(fitting.SETTINGS[head]), head


def test_the_recorded_corpus_commit_holds_the_recorded_reports() -> None:
    recorded = _shipped()["provenance"]
    root = Path(fitting.__file__).resolve().parent.parent
    listed = subprocess.run(
        ["git", "-C", str(root), "ls-tree", "--name-only", recorded["corpus"], "eval/postmortems/"],
        capture_output=True,
        text=True,
    )
    if listed.returncode != 0:
        pytest.skip("no git history here (an sdist): the check needs the repository")
    names = {Path(line).name for line in listed.stdout.split()}
    assert set(recorded["files"]) <= names


def test_a_file_without_provenance_is_named_not_rebuildable() -> None:
    shipped = _shipped()
    bare = {"heads": shipped["heads"]}
    lacks = provenance.missing(bare)
    assert "provenance.corpus" in lacks and "provenance.label_rule" in lacks
    other_rule = json.loads(json.dumps(shipped))
    other_rule["heads"]["fix"]["fitted_with"]["FIT_LABEL_RULE"] = "other"
    assert any("FIT_LABEL_RULE" in line for line in provenance.missing(other_rule))


def test_the_label_rule_setting_is_the_scorers_old_or_new_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    # a label phrase told with its subject: the new rule finds it in a sentence that drops the subject, the old does not
    truth = Truth("x.md", None, [], ["we rolled back the deploy"], [], None, False, org="x", fold="A")
    said = "Rolled back the deploy at 14:02."
    monkeypatch.setattr(fitting, "WHOLE", {"cause": False, "fix": False})
    assert fitting.label(truth, "fix", said) == 1
    monkeypatch.setattr(fitting, "WHOLE", {"cause": True, "fix": True})
    assert fitting.label(truth, "fix", said) == 0


def test_a_rebuild_names_each_parameter_that_differs_and_whether_the_rows_did() -> None:
    truth = Truth("x.md", None, ["disk"], ["restarted"], [], None, False, org="x", fold="A")
    docs = [(truth, {h: [(features(c), c) for c in [Candidate("The disk filled.", "summary")]] for h in fitting.HEADS})]
    shipped = _shipped()
    rebuilt = json.loads(json.dumps(shipped))
    assert provenance.differences(shipped, rebuilt) == []
    word = next(iter(rebuilt["heads"]["fix"]["weights"]))
    rebuilt["heads"]["fix"]["weights"][word] += 0.001
    rebuilt["heads"]["cause"]["threshold"] = 0.55
    rebuilt["provenance"]["rows_sha256"]["fix"] = provenance.rows_sha256(fitting.head_rows(docs, "fix"))
    lines = provenance.differences(shipped, rebuilt)
    assert lines[0].startswith("cause: 1 parameters differ (threshold")
    assert lines[1].startswith("fix: 1 parameters differ") and word in lines[1]
    assert "cause: the rows read are the same" in lines[-2] and "fix: the rows read are not the same" in lines[-1]
