"""bench/cause_misses.py: a missed root cause is put where the document holds its label, as a person reading the report
would place it (the class decides which reader change is worth trying first)."""

from __future__ import annotations

from bench.cause_misses import CLASSES, classify
from bot.importer.scoring import metadata_kinds_held

REPORT = """# Database outage

## Summary
The primary database ran out of connections after the deploy. Users saw errors for an hour.

## Root cause
The pool size was left at its default.

## Timeline
- 10:00 deploy
"""


def test_a_summary_sentence_holding_the_label_while_another_was_stored() -> None:
    kind, cue = classify(REPORT, ["ran out of connections"], [], "Users saw errors.", "sentences of section 'Summary'")
    assert kind == "another sentence chosen, label in a summary paragraph"
    assert cue  # "ran out" is a cause word


def test_a_root_cause_section_stored_while_the_summary_holds_the_label() -> None:
    kind, _ = classify(
        REPORT, ["ran out of connections"], [], "The pool size was left at its default.", "section 'Root cause'"
    )
    assert kind == "root cause section stored, label in a summary paragraph"


def test_nothing_stored_though_a_root_cause_section_exists() -> None:
    assert classify(REPORT, ["ran out of connections"], [], "", "")[0] == "no cause stored, a root cause section exists"


def test_a_label_that_only_the_text_across_two_sentences_holds() -> None:
    text = "# Outage\n\n## Details\nIt was the nightly cron job. Filled the disk on the node.\n"
    kind, _ = classify(
        text, ["nightly cron job filled the disk"], [], "Something else.", "sentences of section 'Details'"
    )
    assert kind == "label beyond a sentence cut"


def test_a_stored_cause_holding_a_labelled_metadata_line() -> None:
    kind, _ = classify(
        REPORT, ["ran out of connections"], [["errors for an hour"]], "Users saw errors for an hour.", "the summary"
    )
    assert kind == CLASSES[0] == "metadata clause chosen"


def test_the_bench_and_the_score_read_a_metadata_line_in_a_cause_alike() -> None:
    """The class "metadata clause chosen" is the score's own "metadata stored as cause" (one public reading in
    bot/importer/scoring.py), so a leak the table counts is the leak this bench classes, and no other."""
    metadata = [["errors for an hour"]]
    for cause, leak in (("Users saw errors for an hour.", True), ("The pool size was left at its default.", False)):
        kind, _ = classify(REPORT, ["ran out of connections"], metadata, cause, "the summary")
        assert (kind == CLASSES[0]) is leak
        assert bool(metadata_kinds_held(cause, metadata)) is leak
