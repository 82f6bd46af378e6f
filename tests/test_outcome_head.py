"""A fitted reading of an outcome statement (issue 23, bench/outcome_head.py): the sentence that holds a labelled
outcome quote, its features beyond the cue words, and a head that reads "the trouble goes on" from them; fold A's
rows only, and no conversation from an organisation outside the set asked for (the seventeenth collection on)."""

from __future__ import annotations

import json
from pathlib import Path

import bench.outcome_head as oh

EVAL = Path(__file__).resolve().parent.parent / "eval"
OLD_THREADS = ("appveyor-1263-builds-queued.json", "travis-ci-6310-stuck-build.json")


def test_the_quote_is_widened_to_its_sentence() -> None:
    text = "We restarted the pods at 10:02. Users still saw 503s for an hour!\nThen we scaled up."
    assert oh.sentence_of(text, "still saw 503s") == "Users still saw 503s for an hour!"
    assert oh.sentence_of(text, "not in the text") is None


def test_negation_scope_reads_beyond_the_failure_words() -> None:
    feats = oh.features("The restart did not seem to help.")
    assert {"n:seem", "n:to", "n:help"} <= set(feats)
    assert "n:help" not in oh.features("The restart helped.")


def _row(org: str, text: str, label: int) -> dict:
    return {"org": org, "features": oh.features(text), "label": label, "cue": 0, "any_cue": 0, "kind": "action"}


def test_a_head_fitted_on_other_organisations_reads_the_trouble_going_on() -> None:
    goes_on = ["errors kept coming after that", "the pods kept crashing", "users kept seeing timeouts"]
    over = ["the site came back up after that", "the pods came back healthy", "users saw pages load again"]
    train = [_row(f"org{i}", t, 1) for i, t in enumerate(goes_on)] + [_row(f"org{i}", t, 0) for i, t in enumerate(over)]
    fitted = oh.Fitted(train)
    held = [_row("new", "the jobs kept failing", 1), _row("new", "the jobs came back", 0)]
    kept, back = fitted.scores(held)
    assert kept > 0.5 > back


def test_rows_are_fold_a_and_only_the_conversation_organisations_asked_for() -> None:
    truth = {
        c: {t["file"]: t for t in map(json.loads, filter(None, (EVAL / c / "truth.jsonl").read_text().splitlines()))}
        for c in ("postmortems", "conversations")
    }
    # two organisations of the first collections, named so that no later collection's thread is read here
    old = frozenset(truth["conversations"][f]["org"] for f in OLD_THREADS)
    data, _ = oh.rows(old)
    assert {r["label"] for r in data} == {0, 1}
    assert {r["org"] for r in data if r["corpus"] == "conv"} == old
    for r in data:
        corpus = "postmortems" if r["corpus"] == "pm" else "conversations"
        assert truth[corpus][r["file"]]["fold"] == "A"
    assert not any(r["corpus"] == "conv" for r in oh.rows(frozenset())[0])
