"""bench/attempts_by_path.py (issue 23, pmatt): each stored failed attempt is tagged with the reading path that stored
it without the importer storing anything else, and a path is gated for an organisation only on the others' lines."""

from __future__ import annotations

from bench import attempts_by_path as by_path
from bot.importer.markdown import parse_markdown

REPORT = """# Outage of the API

We restarted the api pods, but the errors did not stop.

## Timeline

- 10:00 Alert fired for API errors
- 10:05 The proxy pod is restarted. This does not resolve the issue.
- 10:30 Rolled back the release; errors stopped.
"""


def _stored(text: str) -> list[tuple[str, str]]:
    draft = parse_markdown(text, team_id="t", incident_id="i", name="org-outage.md")
    return [(a.action, a.why_it_failed) for a in draft.failed_attempts]


def test_the_instrumented_importer_stores_what_the_importer_stores_and_says_by_which_path() -> None:
    plain = _stored(REPORT)
    with by_path.instrumented() as asked:
        tagged = _stored(REPORT)
    assert tagged == plain and plain
    lines = {line["action"][:26]: line for line in by_path._tag(tagged, asked)}
    assert lines["The proxy pod is restarted"]["how"] == "next sentence"
    assert lines["The proxy pod is restarted"]["where"] == "timeline entry"
    assert lines["We restarted the api pods"]["where"] == "the text under the title"
    assert (lines["The proxy pod is restarted"]["kind"], lines["We restarted the api pods"]["kind"]) == ("-", "-")
    assert (lines["We restarted the api pods"]["how"], lines["We restarted the api pods"]["why_stored"]) == (
        "one sentence",
        "we-but",
    )
    # after the block the readers are the importer's own again
    assert _stored(REPORT) == plain


def _row(org: str, how: str, real: bool) -> dict:
    return {"org": org, "how": how, "why_stored": "try", "real": real, "blind": None, "source": "pm"}


def test_a_path_is_gated_for_an_organisation_only_on_the_other_organisations_lines() -> None:
    rows = [_row("a", "next entry", False), _row("b", "next entry", False), _row("c", "next entry", True)]
    rows += [_row(o, "one sentence", True) for o in "abc"]
    assert by_path.gated_paths(rows, 0.5, "labels") == {"next entry / try"}
    # left out, "c" sees a's and b's wrong lines and its own real line on the path is gated; "a" (or "b") sees one
    # wrong line in one organisation and one real: nothing gated, its wrong line stays. One out, the gate costs a real line
    result = by_path.one_out(rows, 0.5, "labels")
    assert result["chosen"] == {"next entry / try": 1}
    assert (result["before"]["pm"], result["after"]["pm"]) == ("4/6", "3/5")


def test_lines_are_split_by_whether_their_document_was_there_when_the_rules_were_written() -> None:
    rows = [
        {**_row("a", "one sentence", True), "file": "old.md", "why": ""},
        {**_row("b", "one sentence", False), "file": "new.md", "why": ""},
        {**_row("b", "next entry", True), "file": "new.md", "why": "still failing"},
        {**_row("c", "one sentence", True), "file": "chat.json", "source": "proxy-timeline"},  # never counted
    ]
    split = by_path.since(rows, {"old.md"})
    assert split["all"] == {"before": "1/1", "since": "1/2"}
    assert split["how: one sentence"] == {"before": "1/1", "since": "0/1"}
    assert split["next entry / try"] == {"before": "0/0", "since": "1/1"}
    assert split["why given: none"] == {"before": "1/1", "since": "0/1"}
    assert split["why given: told"] == {"before": "0/0", "since": "1/1"}


def test_a_line_read_in_a_section_is_tagged_with_the_kind_the_importer_gave_that_section() -> None:
    report = REPORT + "\n## What happened\n\nWe restarted the database, but the errors continued.\n"
    with by_path.instrumented() as asked:
        tagged = _stored(report)
    lines = {line["action"][:24]: line for line in by_path._tag(tagged, asked)}
    assert lines["We restarted the databas"]["kind"] == "summary"
    assert lines["We restarted the databas"]["where"] == "section 'what happened'"
