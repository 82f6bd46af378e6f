"""A sentence model's head copied unfitted from the file before (`--carry`) keeps its own provenance (issue 23): the
corpus, code, label rule and rows it was fitted with, so the file still says how to rebuild every head, each where it
was fitted. No fit here (each test well under a second)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bench.fit_reader_sentences as fitting
import bench.reader_sentences_provenance as provenance
from bot.importer.scoring import Truth
from bot.reader.sentences import Candidate, SentenceModel, features


def _shipped() -> dict:
    return json.loads(fitting.DATA.read_text(encoding="utf-8"))


def _carrying_fix(rule: str = "leading") -> dict:
    """The shipped file as a refit of its cause head under `rule` would write it, the fix head carried: the fix head as
    fitted under the old phrase rule ("whole"), whatever rule the shipped file's own fix head was fitted under."""
    data = _shipped()
    data["heads"]["cause"]["fitted_with"]["FIT_LABEL_RULE"] = rule
    data["heads"]["fix"]["fitted_with"]["FIT_LABEL_RULE"] = "whole"
    before = {**data["provenance"], "label_rule": "whole"}
    data["provenance"] = {**before, "label_rule": rule, "rows_sha256": {"cause": "0" * 64}}
    data["provenance"]["carried"] = {"fix": provenance.carried_record({"provenance": before}, "fix")}
    return data


def test_a_head_carried_with_its_own_record_is_rebuildable_beside_a_head_fitted_under_another_rule() -> None:
    data = _carrying_fix()
    assert provenance.missing(data) == []
    carried = data["provenance"]["carried"]["fix"]
    assert carried["label_rule"] == data["heads"]["fix"]["fitted_with"]["FIT_LABEL_RULE"]
    assert set(carried["rows_sha256"]) == {"fix"}
    assert provenance.groups(data) == [(data["provenance"], ("cause",)), (carried, ("fix",))]


def test_a_carried_head_without_its_own_record_or_against_it_is_named_not_rebuildable() -> None:
    bare = _carrying_fix()
    del bare["provenance"]["carried"]
    # as main's bench wrote it before: one record for both heads, which the fix head was not fitted under
    assert any(line.startswith("heads.fix.fitted_with.FIT_LABEL_RULE") for line in provenance.missing(bare))
    assert "provenance.rows_sha256.fix" in provenance.missing(bare)
    incomplete = _carrying_fix()
    del incomplete["provenance"]["carried"]["fix"]["corpus"]
    assert "provenance.carried.fix.corpus" in provenance.missing(incomplete)
    against = _carrying_fix()
    against["heads"]["fix"]["fitted_with"]["FIT_LABEL_RULE"] = "leading"
    assert any("provenance.carried.fix says 'whole'" in line for line in provenance.missing(against))
    stray = _carrying_fix()
    stray["provenance"]["carried"]["found"] = stray["provenance"]["carried"]["fix"]
    assert "provenance.carried.found: no such head" in provenance.missing(stray)


def test_each_recorded_corpus_commit_holds_its_recorded_reports() -> None:
    for recorded, heads in provenance.groups(_shipped()):
        lacking = provenance.not_in_corpus(recorded)
        if lacking is None:
            pytest.skip("no git history here (an sdist): the check needs the repository")
        assert lacking == [], heads
    gone = {**_shipped()["provenance"], "files": ["no-such-report.md"]}
    assert provenance.not_in_corpus(gone) in (None, ["no-such-report.md"])


def test_a_refit_that_carries_a_head_writes_that_heads_record_from_the_file_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = _shipped()
    (tmp_path / "x.md").write_text("# Outage\n\nThe disk filled.\n", encoding="utf-8")
    line = json.dumps({"file": "x.md", "fold": "A"})
    (tmp_path / "truth.jsonl").write_text(line + "\n", encoding="utf-8")
    monkeypatch.setattr(fitting, "POSTMORTEMS", tmp_path)
    monkeypatch.setattr(fitting, "CORPUS", ["f" * 40])
    monkeypatch.setitem(fitting.SETTINGS, "cause", {**fitting.SETTINGS["cause"], "FIT_LABEL_RULE": "leading"})
    truth = Truth("x.md", None, ["disk"], ["restarted"], [], None, False, org="x", fold="A")
    docs = [(truth, {h: [(features(c), c) for c in [Candidate("The disk filled.", "summary")]] for h in fitting.HEADS})]
    model = SentenceModel(fitted_on="eval/postmortems fold A")
    model.heads["cause"] = SentenceModel.from_json(shipped).heads["cause"]
    data = provenance.as_file(fitting, model, [truth], docs, carry=("fix",))
    assert data["heads"]["fix"] == shipped["heads"]["fix"], "the carried head is the file before's, unfitted"
    assert data["provenance"]["label_rule"] == "leading" and set(data["provenance"]["rows_sha256"]) == {"cause"}
    assert data["provenance"]["carried"]["fix"] == provenance.carried_record(shipped, "fix")
    assert data["provenance"]["carried"]["fix"]["corpus"] == provenance.record_of(shipped, "fix")["corpus"]
    assert provenance.missing(data) == []


def test_a_rebuild_of_a_carried_head_reads_that_heads_own_rows() -> None:
    shipped = _carrying_fix()
    rebuilt = json.loads(json.dumps(shipped))
    assert provenance.differences(shipped, rebuilt, ("fix",)) == []
    word = next(iter(rebuilt["heads"]["fix"]["weights"]))
    rebuilt["heads"]["fix"]["weights"][word] += 0.001
    rebuilt["heads"]["cause"]["bias"] += 0.5  # another head, not asked about
    rebuilt["provenance"]["carried"]["fix"]["rows_sha256"]["fix"] = "1" * 64
    lines = provenance.differences(shipped, rebuilt, ("fix",))
    assert lines[0].startswith("fix: 1 parameters differ") and word in lines[0]
    assert lines[-1].startswith("fix: the rows read are not the same") and not any(x.startswith("cause") for x in lines)


def test_a_rebuild_reads_the_recorded_reports_even_once_a_judged_collection_leaves_the_held_out_list() -> None:
    # fitted while "judged.md" was held out (so not read); it has judged and left the list since, "held.md" is new
    held_today = {"held.md"}
    every_file = ["a.md", "judged.md", "held.md"]

    def loader(fold: str | None, *, include_held_out: bool = False, **_: object) -> list[Truth]:
        return [
            Truth(f, None, [], [], [], None, False, org=f, fold="A")
            for f in every_file
            if include_held_out or f not in held_today
        ]

    recorded = provenance._recorded_only(loader, ["a.md"])
    assert [t.file for t in recorded("A")] == ["a.md"]
    assert [t.file for t in loader("A")] == ["a.md", "judged.md"], "today's tuning fold is another"
