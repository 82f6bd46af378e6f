"""The outcome head asked where the reader reads a later clause or entry as a step's outcome (issue 23, r23-outneg,
bench/outcome_linked.py): the hook's binding in the reader, the pair's label and features, and the threshold."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

import bench.outcome_linked as ol
from bot.reader import narrative, narrative_timeline

STEP, GOES_ON = "We restarted the proxy pods.", "Users kept getting logged out."


@dataclass
class Entry:
    text: str


@pytest.fixture
def asked() -> Iterator[list[tuple[str, str, str]]]:
    said: list[tuple[str, str, str]] = []

    def goes_on(step: str, outcome: str, where: str) -> bool:
        said.append((step, outcome, where))
        return "kept" in outcome

    narrative.outcome_goes_on = goes_on
    yield said
    narrative.outcome_goes_on = None


def test_off_by_default_an_outcome_in_no_failure_word_stores_nothing() -> None:
    assert narrative.outcome_goes_on is None
    assert narrative.failed_in_text(f"{STEP} {GOES_ON}") == []


def test_the_bar_stores_the_step_with_the_later_sentence_it_reads_as_going_on(asked) -> None:
    stored = narrative.failed_in_text(f"{STEP} {GOES_ON}")
    assert stored == [{"action": "We restarted the proxy pods", "why_it_failed": "Users kept getting logged out"}]
    assert asked == [(STEP, GOES_ON, "clause")]
    assert narrative.failed_in_text(f"{STEP} Users were logged out once more.") == []  # the bar said no


def test_the_bar_is_never_asked_about_a_recovery_or_a_step_no_responder_took(asked) -> None:
    assert narrative.failed_in_text(f"{STEP} The service recovered.") == []
    assert narrative.failed_in_text(f"The proxy pods restarted. {GOES_ON}") == []
    assert asked == []


def test_the_fix_reader_never_asks_the_bar(asked) -> None:
    assert narrative.attempts_in(f"{STEP} {GOES_ON}") == []
    assert asked == []


def test_a_timeline_step_and_the_next_entry_s_opening(asked) -> None:
    step, later = Entry("Engineer attempts a restart of the hub pods"), Entry("Users kept getting logged out")
    stored = narrative_timeline.failed_in_timeline([step, later])
    assert [(e.text, a["why_it_failed"]) for e, a in stored] == [(step.text, later.text)]
    assert asked == [(step.text, later.text, "entry")]


def test_a_pair_is_positive_only_where_the_labelled_outcome_is() -> None:
    labelled = [
        {"kind": "action", "quote": "restarted the proxy", "outcome": "did_not_work", "outcome_quote": "kept getting"},
        {"kind": "action", "quote": "scaled the pool", "outcome": "worked", "outcome_quote": "back to normal"},
    ]
    assert ol.pair_label(STEP, GOES_ON, labelled) == 1
    assert ol.pair_label(STEP, "We then scaled the pool.", labelled) == 0
    assert ol.pair_label("We scaled the pool.", "All was back to normal.", labelled) == 0


def test_pair_features_say_how_the_outcome_is_bound_to_its_step() -> None:
    feats = ol.pair_features("We restarted the proxy pods", "The proxy pods kept crashing", "entry")
    assert {"pair:shares_object", "pair:where:entry"} <= set(feats)
    assert "pair:shares_object" not in ol.pair_features("We restarted the proxy pods", "Users kept waiting", None)


def _row(org: str, text: str, label: int, kind: str = "M") -> dict:
    return {"org": org, "kind": kind, "label": label, "features": ol.pair_features("We restarted it", text, "clause")}


def test_the_head_over_pair_features_reads_the_trouble_going_on_on_an_organisation_it_never_saw() -> None:
    goes_on = ["errors kept coming after that", "the pods kept crashing", "users kept seeing timeouts"]
    over = ["the site came back up after that", "the pods came back healthy", "users saw pages load again"]
    train = [_row(f"org{i}", t, 1) for i, t in enumerate(goes_on)] + [_row(f"org{i}", t, 0) for i, t in enumerate(over)]
    kept, back = ol.oh.Fitted(train).scores(
        [_row("new", "the jobs kept failing", 1), _row("new", "the jobs came back", 0)]
    )
    assert kept > 0.5 > back


def test_no_threshold_when_the_met_rows_never_reach_the_precision() -> None:
    train = [_row(f"org{i}", "the pods kept crashing", i % 2) for i in range(10)]
    assert ol.threshold(train) == float("inf")
