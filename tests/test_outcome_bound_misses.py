"""bench/outcome_bound_misses.py (issue 23, r23-pmbind): where a missed failure-word outcome stands by the reader's
cue groups, whether a stored line carries a labelled outcome as its why, and what a change did to the drafts."""

from __future__ import annotations

from types import SimpleNamespace

import bench.outcome_bound_misses as obm

LABELLED = [
    {"kind": "action", "quote": "restarted the proxy", "outcome": "did_not_work", "outcome_quote": "Still 503s"},
    {"kind": "action", "quote": "rolled back", "outcome": "worked", "outcome_quote": "errors stopped"},
]


def test_a_responders_step_and_a_trouble_that_stayed_are_named():
    said = obm.standing("We tried restarting the proxy pods", "The errors persist.", "entry")
    assert "where: entry" in said
    assert "the step is a responder's (EXPLICIT_TRY, or WE_TRIED with TRIED)" in said
    assert "its failure says the step had no effect or the trouble stayed (STEP_OUTCOME)" in said
    assert "the outcome tells a recovery (RESOLVED)" not in said


def test_a_system_state_is_no_responders_step():
    said = obm.standing("The disk filled up", "The database could not start.", "clause")
    assert "the step is a responder's (EXPLICIT_TRY, or WE_TRIED with TRIED)" not in said


def test_the_why_is_the_labelled_outcome_only_when_a_did_not_work_quote_is_in_the_line():
    assert obm.why_is_outcome("Restarted the proxy — still 503s", LABELLED)
    assert not obm.why_is_outcome("Rolled back — errors stopped", LABELLED)  # a worked outcome
    assert not obm.why_is_outcome("Restarted the proxy — no change", LABELLED)


def test_compare_counts_added_real_lines_and_moved_fields():
    truth = SimpleNamespace(failed_attempts=[])
    before = {"a.md": [["Restarted the proxy — still 503s"], {"fix": "x"}], "b.md": [[], {"fix": "y"}]}
    after = {
        "a.md": [["Restarted the proxy — still 503s"], {"fix": "x"}],
        "b.md": [["Scaled up — still 503s"], {"fix": "z"}],
    }
    got = obm.compare(before, after, {"b.md": LABELLED}, {"a.md": truth, "b.md": truth})
    assert got["lines_added"] == 1 and got["lines_removed"] == 0
    assert got["added_real"] == 0  # no labelled attempt to be real against
    assert got["added_why_is_the_labelled_outcome"] == 1
    assert got["drafts_other_fields_changed"] == 1
