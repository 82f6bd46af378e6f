"""The importer on real postmortems (eval/postmortems, labelled by someone who did not write the
extractor): the Done-when figures of issue 12 on the 49 documents from the eight organizations it
was tuned on, scored by the one rule in bot/importer/scoring.py. Offline: no database, no model.
This is an in-sample regression guard, not a quality figure: the out-of-sample fold is scored by
bench/reading_eval.py (docs/BENCHMARKS.md).

    .venv/bin/python bench/import_postmortems.py eval/postmortems --misses   (the same, per file)
"""

from __future__ import annotations

from pathlib import PurePath

import pytest

from bot.config import PROJECT_ROOT
from bot.importer.formats import FoundFile, parse_file
from bot.importer.scoring import (
    attempt_found,
    attempt_is_real,
    attempt_text,
    drafted_attempt_text,
    holds_half,
    keyword_in,
    labelled_attempts,
    load_truth,
    score,
)

CORPUS = PROJECT_ROOT / "eval" / "postmortems"
# The organizations issue 12 tuned the importer on (all in fold A; eval/README.md).
TUNED_ON = {
    "2i2c", "EDGI (Environmental Data & Governance Initiative)", "Hachyderm (Nivenly Foundation)",
    "JupyterHub / Binder team (mybinder.org)", "Kubernetes SIG Testing (kubernetes/test-infra)",
    "Python Software Foundation (PyPI)", "The Matrix.org Foundation", "n0 (number 0, makers of iroh)",
}  # fmt: skip


def test_the_scoring_rule_matches_case_and_word_forms_and_needs_half_of_the_keywords() -> None:
    assert keyword_in("Restarting servers", "we restarted the servers") is False  # not next to each other
    assert keyword_in("restarting servers", "then restarted servers twice")
    assert keyword_in("PVC", "the pvc was still claimed")
    assert not keyword_in("servers restarted", "restarted servers")  # order counts
    assert holds_half("rolled back the hub image", ["hub image", "reverted"])  # 1 of 2
    assert not holds_half("rolled back the hub image", ["hub image", "reverted", "pinned"])  # 1 of 3
    assert not holds_half(None, ["x"]) and not holds_half("x", [])


def test_a_stored_attempt_is_real_by_its_action_and_why_together_and_found_by_any_line() -> None:
    labelled = labelled_attempts({"failed_attempts": [{"action_keywords": ["restarted the hub", "n2sk"], "why": ""}]})
    assert labelled == [["restarted the hub", "n2sk"]]
    # the why is read with the action: where the importer glues two entries, the failed step may be in either
    assert attempt_is_real(attempt_text("Activity bump is noticed", "we restarted the hub, no change"), labelled)
    assert not attempt_is_real(attempt_text("Activity bump is noticed", "no change"), labelled)
    drafted = drafted_attempt_text("Restarted the hub", "still failing")
    assert drafted == "Restarted the hub — still failing" and drafted_attempt_text("Restarted the hub", "") == (
        "Restarted the hub"
    )
    assert attempt_found(labelled[0], ["unrelated", drafted]) and not attempt_found(labelled[0], [])


@pytest.mark.skipif(not (CORPUS / "truth.jsonl").is_file(), reason="eval/postmortems is not in this checkout")
def test_real_postmortems_are_imported_faithfully() -> None:
    truths = [t for t in load_truth(CORPUS / "truth.jsonl") if t.org in TUNED_ON]
    drafts = {}
    for truth in truths:
        parsed = parse_file(FoundFile(CORPUS / truth.file, PurePath(truth.file)), team_id="T")
        drafts[truth.file] = parsed.drafts[0] if parsed.drafts else None
    scores = score(truths, drafts)
    assert len(truths) >= 40
    assert scores.imported.value >= 0.95, scores.imported.misses
    assert scores.not_incidents_skipped.value == 1.0, scores.not_incidents_skipped.misses
    assert scores.date.value >= 0.85, scores.date.misses
    assert scores.root_cause.value >= 0.80, scores.root_cause.misses
    assert scores.fix.value >= 0.70, scores.fix.misses
    assert scores.attempts_real.value >= 0.80, scores.attempts_real.misses
    assert scores.attempts_found.value >= 0.50, scores.attempts_found.misses
