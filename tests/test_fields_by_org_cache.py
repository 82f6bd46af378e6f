"""The one-organisation-out bench's kept models (bench/fields_by_org.py --models-cache): a change made after the
sentence model's picks is judged on the very models it was fitted as, and any change to what they were fitted on
fits them again (a stale model would score a change on the wrong heads)."""

from __future__ import annotations

from dataclasses import replace

import bench.fields_by_org as fields_by_org
import bench.fit_reader_sentences as fitting
from bot.reader import sentences
from tests.test_reading_eval import _tiny_fold


def _read_with_cache(monkeypatch, docs, cache) -> tuple[int, list]:
    fits: list = []
    real = fitting.models_without_each
    monkeypatch.setattr(fitting, "documents", lambda _: docs)
    monkeypatch.setattr(fitting, "MIN_ORGS", {"cause": 1, "fix": 1})
    monkeypatch.setattr(fitting, "models_without_each", lambda *a, **k: fits.append(1) or real(*a, **k))
    monkeypatch.setattr(fields_by_org, "read_corpus", lambda path, only: ({}, {}, []))
    used: list = []
    monkeypatch.setattr(sentences, "use_model", lambda model: used.append(model))
    truths = [t for t, _ in docs]
    fields_by_org.held_out_drafts(truths, {}, say=lambda line: None, cache=cache)
    return len(fits), [m.as_json() for m in used if m is not None]


def test_kept_models_are_reused_while_what_they_were_fitted_on_is_unchanged(monkeypatch, tmp_path) -> None:
    _, docs = _tiny_fold()
    cache = tmp_path / "models.pkl"
    fitted, first = _read_with_cache(monkeypatch, docs, cache)
    assert fitted == 1 and cache.exists()
    fitted, again = _read_with_cache(monkeypatch, docs, cache)
    assert fitted == 0  # the same candidates, labels and settings: no fit
    assert again == first


def test_kept_models_are_fitted_again_when_a_candidate_a_label_or_a_setting_changes(monkeypatch, tmp_path) -> None:
    _, docs = _tiny_fold()
    cache = tmp_path / "models.pkl"
    _read_with_cache(monkeypatch, docs, cache)
    truth, by_head = docs[0]
    reworded = {
        head: [(sentences.features(c), c) for c in (replace(c, text=c.text + " Again.") for _, c in rows)]
        for head, rows in by_head.items()
    }
    relabelled = replace(truth, root_cause_keywords=["logs"])
    for changed in ([(truth, reworded), *docs[1:]], [(relabelled, by_head), *docs[1:]]):
        fitted, _ = _read_with_cache(monkeypatch, changed, cache)
        assert fitted == 1
        _read_with_cache(monkeypatch, docs, cache)  # back to the first fit's input: fitted again, kept again
    monkeypatch.setenv("FIT_THRESHOLD", "cause=0.5:1")
    fitted, _ = _read_with_cache(monkeypatch, docs, cache)
    assert fitted == 1


def test_a_metadata_label_change_fits_again_and_joined_heads_are_never_kept(monkeypatch, tmp_path) -> None:
    # The fix threshold's pick weighs metadata labels; a "joined" head's pick reads the importer's own rules' fields.
    _, docs = _tiny_fold()
    cache = tmp_path / "models.pkl"
    _read_with_cache(monkeypatch, docs, cache)
    truth, by_head = docs[0]
    with_metadata = replace(truth, not_attempts=[*truth.not_attempts, (["took 31 minutes"], "metadata")])
    fitted, _ = _read_with_cache(monkeypatch, [(with_metadata, by_head), *docs[1:]], cache)
    assert fitted == 1
    cache.unlink()
    monkeypatch.setattr(fitting, "JOINED", {"cause": False, "fix": True})
    for _ in range(2):
        fitted, _ = _read_with_cache(monkeypatch, docs, cache)
        assert fitted == 1
    assert not cache.exists()


def test_openings_tell_which_moved_fields_open_with_another_sentence() -> None:
    before = {
        "a.md": {"cause_text": "The disk filled up. Logs grew.", "fix_text": "Rotated logs."},
        "b.md": {"cause_text": "A certificate expired.", "fix_text": "Renewed it."},
    }
    after = {
        "a.md": {
            "cause_text": "Users lost 4 hours of work. The disk filled up. Logs grew.",
            "fix_text": "Rotated logs.",
        },
        "b.md": {"cause_text": "A certificate expired. It was not renewed.", "fix_text": "Renewed it."},
    }
    lines = fields_by_org.openings(before, after)
    assert lines[-1] == "moved causes and fixes: 2, opening with another sentence: 1"
    assert "Users lost 4 hours of work." in lines[0]
