"""The postmortem cause head reads a cause's words, not only its cue words (issue 23, rule W: the cause head refitted
with its words as an offset, bot/data/reader_sentences.json): a report that says what broke without "caused",
"because" or "root cause" still has that sentence stored as its cause, and the step that fixed it is not."""

from __future__ import annotations

from bot.importer.markdown import parse_markdown

CAUSE = "The primary database host had insufficient memory for the new search index."
STEP = "We moved the index to a larger host and search recovered."


def test_a_cause_told_without_a_cause_word_is_read_as_the_cause() -> None:
    text = f"# Search outage\n\nOn 2024-03-18 search was unavailable for about an hour.\n\n{CAUSE}\n\n{STEP}\n"
    draft = parse_markdown(text, team_id="T", incident_id="pm-1", name="2024-03-18-search.md")
    assert draft.root_cause == CAUSE
    assert draft.resolution == STEP
