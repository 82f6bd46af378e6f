"""The postmortem swap (issue 23): each fitted part of the postmortem reader can be fitted on fold B
alone, written outside the repository, and read with, so fold A is out of sample too. A fit on fold B
reads no fold-A report or sentence label; reading with the swapped weights changes what is read and
leaves the shipped model in place afterwards."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import bench.fit_reader_attempt_gate as gate
import bench.fit_reader_sentences as sentence_fit
import bench.reading_eval as reading_eval
from bench.import_postmortems import fold_truths, read_corpus
from bot.importer.scoring import load_truth
from bot.reader import sentences
from bot.reader.sentences import SentenceModel

POSTMORTEMS = reading_eval.POSTMORTEMS


def _fold(fold: str) -> list:
    return [t for t in load_truth(POSTMORTEMS / "truth.jsonl") if t.fold == fold]


def test_a_sentence_fit_on_fold_b_reads_fold_b_reports_only(monkeypatch, tmp_path) -> None:
    read: list = []
    monkeypatch.setattr(sentence_fit, "documents", lambda truths: read.extend(truths) or [])
    monkeypatch.setattr(
        sentence_fit,
        "fit",
        lambda docs, fold, chosen=None, heads=(): SentenceModel(fitted_on=f"eval/postmortems fold {fold}"),
    )
    out = tmp_path / "b.json"
    assert sentence_fit.main(["--fold", "B", "--out", str(out)]) == 0
    assert {t.file for t in read} == {t.file for t in _fold("B")}
    assert json.loads(out.read_text(encoding="utf-8"))["fitted_on"] == "eval/postmortems fold B"


def test_a_fold_fit_is_never_written_into_the_repository() -> None:
    with pytest.raises(SystemExit):
        sentence_fit.main(["--fold", "B", "--out", str(sentence_fit.DATA)])


def test_the_gate_swap_is_fitted_on_fold_b_sentence_labels_and_no_fold_a_one(monkeypatch) -> None:
    seen: dict[str, list] = {}
    monkeypatch.setattr(gate, "read_with", lambda gates, truths: {})  # the cue rules' stored attempts: none here
    monkeypatch.setattr(gate, "pair_rows", lambda truth, labelled: seen.setdefault(truth.file, labelled) and [])
    fold_b = [t for t in _fold("B") if not t.not_an_incident]
    _, _, labelled = gate.labelled_rows("B", fold_b)
    labels_b, files_a = gate.statements("B"), {t.file for t in _fold("A")}
    assert seen and not set(seen) & files_a
    assert all(seen[f] == labels_b[f] for f in seen)  # its own sentence labels, not the keywords alone
    assert labelled == len(seen) == sum(t.file in labels_b for t in fold_b)
    with pytest.raises(ValueError):
        gate.labelled_rows("B", _fold("A"))


def _resolutions(files: set[str], stored: dict[str, str]):
    def reader(fold: str) -> dict:
        if fold != "A":
            return {}
        drafts, _, _ = read_corpus(POSTMORTEMS, only=files)
        stored.update({f: d.resolution if d else "" for f, d in drafts.items()})
        return {}

    return reader


def test_reading_with_swap_weights_changes_what_is_read_then_reads_the_shipped_model_again(tmp_path) -> None:
    # tuning files only: a held-out judge's documents are never read here (pm28's names sort first; review F51);
    # every 20th of them, so the draw spans the archives rather than the first few organisations' reports (every 40th
    # held no file the sure fix head reads otherwise once pm29 and pm30 joined fold A, the eighteenth session)
    files = {t.file for t in fold_truths("A", incidents_only=True) if t.fix_keywords}
    files = set(sorted(files)[::20])
    shipped = SentenceModel.from_json(json.loads(sentence_fit.DATA.read_text(encoding="utf-8")))
    swapped = SentenceModel.from_json(shipped.as_json())
    swapped.fitted_on = "eval/postmortems fold B"
    swapped.heads["fix"].threshold, swapped.heads["fix"].keep = 0.0, 1  # a fix head sure of every sentence
    before: dict[str, str] = {}
    after: dict[str, str] = {}
    reading_eval.run({"importer": _resolutions(files, before)})
    reading_eval.run({"importer": _resolutions(files, after)}, swapped)
    assert before.keys() == after.keys() == files
    assert any(before[f] != after[f] for f in files)
    assert sentences.model() is sentences._shipped()  # the bot reads what ships
    again: dict[str, str] = {}
    reading_eval.run({"importer": _resolutions(files, again)})
    assert again == before


def test_the_swap_table_says_which_fold_is_out_of_sample(tmp_path: Path) -> None:
    swapped = SentenceModel(fitted_on="eval/postmortems fold B")
    assert reading_eval.fitted_fold(swapped) == "B" and reading_eval.fitted_fold(None) == "A"
    assert reading_eval.fitted_fold(SentenceModel(fitted_on="cue words, no model: NO FOLD B")) == "A"
    lines = reading_eval.table({"importer": {"A": {}, "B": {}}}, reading_eval.fitted_fold(swapped))
    assert any("fold A (out-of-sample)" in row and "fold B (in-sample)" in row for row in lines)


def test_a_fold_a_fit_can_carry_the_shipped_cause_head_and_a_fold_b_fit_cannot(monkeypatch, tmp_path) -> None:
    # one pass refits the fix head while the cause head it does not own ships as it is; the swap never mixes
    # a fold-A head into a fold-B fit
    fitted: list[tuple] = []
    monkeypatch.setattr(sentence_fit, "documents", lambda truths: [])

    def fit(docs, fold, chosen=None, heads=("cause", "fix")) -> SentenceModel:
        fitted.append(heads)
        return SentenceModel({h: sentences.Head(0.1, {"w:restart": 1.0}, 0.5, 1) for h in heads}, f"fold {fold}")

    monkeypatch.setattr(sentence_fit, "fit", fit)
    out = tmp_path / "a.json"
    assert sentence_fit.main(["--fold", "A", "--out", str(out), "--carry", "cause"]) == 0
    written = json.loads(out.read_text(encoding="utf-8"))["heads"]
    shipped = json.loads(sentence_fit.DATA.read_text(encoding="utf-8"))["heads"]
    assert fitted == [("fix",)]
    assert written["cause"] == shipped["cause"] and written["fix"]["weights"] == {"w:restart": 1.0}
    with pytest.raises(SystemExit):
        sentence_fit.main(["--fold", "B", "--out", str(tmp_path / "b.json"), "--carry", "cause"])


def test_the_fitting_bench_gives_each_head_its_own_candidates(monkeypatch, tmp_path) -> None:
    # FIT_CUT_SAID=fix=1: the fix head fitted on candidates without harm said in words, the cause head on
    # those the importer reads (kept)
    monkeypatch.setattr(sentence_fit, "CUT_SAID", {"cause": False, "fix": True})
    truth = replace(next(t for t in _fold("A") if not t.not_an_incident), file="relay.md")
    said = "Impacted users experienced 504 timeout responses in all regions."
    text = f"# Relay outage\n\n## What happened\n\n{said}\n\n## Root cause\n\nThe relay's disk filled up with logs.\n"
    (tmp_path / "relay.md").write_text(text, encoding="utf-8")
    monkeypatch.setattr(sentence_fit, "POSTMORTEMS", tmp_path)
    [(_, cands)] = sentence_fit.documents([truth])
    assert any(c.text == said for _, c in cands["cause"])
    assert not any(c.text == said for _, c in cands["fix"])
    assert any("disk filled up" in c.text for _, c in cands["fix"])


def test_a_wrong_fix_costing_more_than_a_right_one_raises_the_fix_threshold(monkeypatch) -> None:
    from bot.importer.scoring import Truth

    def report(name: str, fix: list[str]) -> Truth:
        return Truth(name, None, [], fix, [], None, False, org=name)

    # three reports the head gives 0.6 read right, two it gives as much have no fix, one it gives 0.95 reads right
    held = [
        ("a", report("a", ["moved the queue"]), [(0.6, "We moved the queue to a new disk.")]),
        ("b", report("b", ["rolled back"]), [(0.6, "We rolled back the deploy.")]),
        ("c", report("c", ["restarted"]), [(0.6, "We restarted the consumer.")]),
        ("d", report("d", []), [(0.6, "The status page was updated.")]),
        ("e", report("e", []), [(0.6, "Customers were told by mail.")]),
        ("f", report("f", ["failed over"]), [(0.95, "We failed over to the replica.")]),
    ]
    monkeypatch.setattr(sentence_fit, "JOINED", {"cause": False, "fix": False})
    monkeypatch.setattr(sentence_fit, "WRONG_COST", {"cause": 1.0, "fix": 1.0})
    assert sentence_fit.pick_threshold(held, "fix")[0] <= 0.6  # 4 right − 2 wrong beats 1 right
    monkeypatch.setattr(sentence_fit, "WRONG_COST", {"cause": 1.0, "fix": 2.5})
    assert sentence_fit.pick_threshold(held, "fix")[0] > 0.6  # 4 − 5 loses to 1: only the sure one
    # FIT_THRESHOLD=fix=0.6:1: the threshold and keep given, not chosen (the one-out column read at a fixed threshold)
    monkeypatch.setattr(sentence_fit, "FIXED", {"fix": (0.6, 1)})
    assert sentence_fit.pick_threshold(held, "fix") == (0.6, 1)
    assert sentence_fit.pick_threshold(held, "cause") != (0.6, 1)  # a head not given is still chosen


def test_the_models_left_one_organisation_out_reuse_the_held_out_fits_and_are_the_same(monkeypatch) -> None:
    # the bench's one-organisation-out models (fields_by_org --sentence-model-loo) take the heads held_out already
    # fitted without each organisation instead of fitting them again: the same models, half the fits
    from bot.importer.scoring import Truth
    from bot.reader.sentences import Candidate, features

    monkeypatch.setattr(sentence_fit, "MIN_ORGS", {"cause": 1, "fix": 1})
    said = {
        "a": ("The disk filled up with logs.", "We rotated the logs.", "disk filled up", "rotated the logs"),
        "b": ("A certificate expired overnight.", "We renewed the certificate.", "certificate expired", "renewed"),
        "c": ("The deploy broke the router.", "We rolled back the deploy.", "deploy broke", "rolled back"),
        "d": ("A bad config was pushed.", "I reverted the config.", "bad config", "reverted the config"),
    }
    docs = []
    for org, (cause, fix, cause_label, fix_label) in said.items():
        truth = Truth(f"{org}.md", None, [cause_label], [fix_label], [], None, False, org=org)
        cands = [Candidate(cause, "summary"), Candidate(fix, "resolution"), Candidate("Users saw errors.", "summary")]
        docs.append((truth, {head: [(features(c), c) for c in cands] for head in sentence_fit.HEADS}))
    reused = sentence_fit.models_without_each(docs)
    held = {head: sentence_fit.held_out(docs, head) for head in sentence_fit.HEADS}
    fitted_again = sentence_fit.models_without_each(docs, held)  # no held-out heads given: each fitted again
    assert set(reused) == set(said)
    assert all(reused[org].as_json() == fitted_again[org].as_json() for org in said)
    assert all(reused[org].heads["fix"].weights for org in said)
