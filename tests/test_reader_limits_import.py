"""The importer reads a member's file within its caps, in work linear in it (issue 25's crafted inputs, through
`parse_file` and the format readers: a saved HTML or Word page, Jira's wiki markup, a template's placeholders,
inline HTML in Markdown), as tests/test_reading_limits.py checks the other readers of members' text. Work is
counted, never timed: what a pattern or the Markdown parser is handed, and the patterns' shape (no unbounded
repeat followed by more pattern). Times: bench/reading_limits.py, docs/BENCHMARKS.md.
"""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path, PurePath
from typing import Any

import pytest

import bot.importer.alerts as alerts
import bot.importer.cause_fix as cause_fix
import bot.importer.csv_ as csv_
import bot.importer.document as document
import bot.importer.html as page_html
import bot.importer.markdown as markdown
import bot.importer.section_text as section_text
import bot.importer.trackers as trackers
from bot.importer.formats import FoundFile, parse_file
from bot.importer.html import read_page
from bot.importer.trackers import wiki_to_markdown
from bot.text_limits import HEADING_LINES
from tests.test_reading_limits import Counted, count_patterns, unbounded_then_more

reader_read = import_module("bot.reader.read")  # the module (bot.reader exports its function `read`)


def test_parse_file_reads_an_unclosed_comment_in_one_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tally = count_patterns(monkeypatch, document)
    path = tmp_path / "crafted.md"
    path.write_text(
        "# Checkout outage\n\n## Root cause\nA leaked connection.\n\n## Appendix\n" + "<!--" * 25_000, encoding="utf-8"
    )
    parsed = parse_file(FoundFile(path, PurePath(path.name)), team_id="T1")
    assert parsed.error is None and parsed.drafts[0].root_cause == "A leaked connection."
    assert tally[0] <= 10 * path.stat().st_size
    assert not hasattr(document, "_COMMENT")  # no pattern rescans the document from every "<!--"


def test_parse_file_looks_for_a_figure_in_a_sentences_first_characters_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 40,000-character "sentence" of amounts ("$1$1…") in a section read for a fix: each metadata
    figure pattern reads at most the first 1,000 characters of a sentence, not all of it every time
    (it read 280,000 characters: 250 ms CPU for one crafted document)."""
    tally = [0]
    for name in ("METADATA_FIGURE", "METADATA_IMPACT", "METADATA_SPAN"):
        monkeypatch.setattr(reader_read, name, Counted(getattr(reader_read, name), tally))
    path = tmp_path / "crafted.md"
    path.write_text(
        "# Checkout outage\n\n## Root cause\nA leaked connection.\n\n## Notes\n" + "$1" * 20_000, encoding="utf-8"
    )
    parsed = parse_file(FoundFile(path, PurePath(path.name)), team_id="T1")
    assert parsed.error is None and parsed.drafts[0].root_cause == "A leaked connection."
    assert 0 < tally[0] <= 3 * 1_000 * 20


def test_parse_file_looks_for_a_status_pages_stock_words_in_a_sentences_first_characters_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 40,000-character line of "[todo " (no full stop): the status page's boilerplate is looked for in the
    first 1,000 characters of a sentence, not along all of it (it read the whole line: a quarter of the
    importer's work on the crafted document); within them it is still found."""
    tally = [0]
    monkeypatch.setattr(reader_read, "STATUS_BOILERPLATE", Counted(reader_read.STATUS_BOILERPLATE, tally))
    path = tmp_path / "crafted.md"
    path.write_text(
        "# Checkout outage\n\n## Root cause\nA leaked connection.\n\n## Notes\n" + "[todo " * 6_700, encoding="utf-8"
    )
    parsed = parse_file(FoundFile(path, PurePath(path.name)), team_id="T1")
    assert parsed.error is None and parsed.drafts[0].root_cause == "A leaked connection."
    assert 0 < tally[0] <= 1_000 * 20
    assert reader_read.says_status_boilerplate("We apologize for the inconvenience " + "x" * 40_000)
    assert not reader_read.says_status_boilerplate("x" * 1_000 + " We apologize for the inconvenience")


def test_parse_file_joins_each_section_once_and_parses_only_what_can_be_a_heading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    joined, parsed_chars = [0], [0]
    real_join, real_markdown = section_text.join_lines, document._MARKDOWN

    def counting_join(lines: list[str]) -> str:
        joined[0] += len(lines)
        return real_join(lines)

    class CountingMarkdown:
        def parse(self, text: str) -> Any:
            parsed_chars[0] += len(text)
            return real_markdown.parse(text)

    for module in (section_text, markdown, cause_fix):  # every caller of join_lines, counted
        monkeypatch.setattr(module, "join_lines", counting_join)
    monkeypatch.setattr(document, "_MARKDOWN", CountingMarkdown())
    head = "# Checkout outage\n\n## Root cause\nA leaked connection.\n\n## Notes\n"
    path = tmp_path / "blank-lines.md"
    path.write_text(head + "\n" * 40_000 + "all clear", encoding="utf-8")
    parsed = parse_file(FoundFile(path, PurePath(path.name)), team_id="T1")
    assert parsed.drafts[0].root_cause == "A leaked connection."
    assert joined[0] <= 2 * 40_000  # each field, check and date once joined all 40,000 lines again
    assert parsed_chars[0] <= 200  # 40,000 blank lines read as one

    parsed_chars[0] = 0
    path = tmp_path / "a-long-list.md"
    path.write_text("Checkout outage\n\nRoot cause:\nA leaked connection.\n\n" + "- x\n" * 10_000, encoding="utf-8")
    parsed = parse_file(FoundFile(path, PurePath(path.name)), team_id="T1")
    assert (parsed.drafts[0].root_cause or "").startswith("A leaked connection.")
    assert parsed_chars[0] == 0  # no line could be a Markdown heading: the parser is not asked


@pytest.mark.parametrize("line", ["- x", "> x", "restarted the pods", "# h"])
def test_parse_file_hands_the_parser_only_the_blocks_around_possible_headings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str
) -> None:
    handed: list[int] = []
    real_markdown = document._MARKDOWN

    class CountingMarkdown:
        def parse(self, text: str) -> Any:
            handed.append(text.count("\n") + 1)
            return real_markdown.parse(text)

    monkeypatch.setattr(document, "_MARKDOWN", CountingMarkdown())
    head = "# Checkout outage\n\n## Root cause\nA leaked connection.\n\n## Notes\n"
    path = tmp_path / "crafted.md"
    path.write_text(head + f"{line}\n" * 10_000 + "\n## Fix\nRolled back the pool change.\n", encoding="utf-8")
    parsed = parse_file(FoundFile(path, PurePath(path.name)), team_id="T1")
    draft = parsed.drafts[0]
    assert draft.root_cause == "A leaked connection."
    # 10,000 lines the parser's work grows with: only the headings' blocks are handed over, and
    # at most HEADING_LINES of them (10,000 `# h` lines: the rest is the last section's text)
    assert len(handed) == 1 and handed[0] <= (HEADING_LINES if line == "# h" else 12)
    if line != "# h":
        assert draft.resolution == "Rolled back the pool change."


def test_a_heading_in_a_code_block_is_still_no_heading_when_blocks_are_read_apart() -> None:
    text = "# Outage\n\n```\n- x\n\n# not a heading\n```\n\n   ```\n\nx\n\n## Root cause\n~~~\n# nor this\n"
    headings = [h[3] for h in document._markdown_headings(text)]
    assert headings == ["Outage"]  # the indented fence may be top-level: the rest is read whole
    text = "# Outage\n\n<div>\n```\n\n# a heading after the HTML block\n\n```\n# in a fence\n"  # the div holds the first ```
    assert [h[3] for h in document._markdown_headings(text)] == ["Outage", "a heading after the HTML block"]


def test_comments_are_removed_and_an_unclosed_one_is_left_as_written() -> None:
    assert document.without_comments("a<!-- x -->b<!--y-->c") == "abc"
    assert document.without_comments("a<!-- x -->b<!-- never closed") == "ab<!-- never closed"


def test_a_postmortem_over_the_document_cap_is_refused_with_the_setting_named(tmp_path: Path) -> None:
    path = tmp_path / "huge.md"
    path.write_text("# Outage\n\n## Root cause\n" + "word " * 2_000, encoding="utf-8")
    parsed = parse_file(FoundFile(path, PurePath(path.name)), team_id="T1", max_chars=5_000)
    assert parsed.error is not None and "IMPORT_MAX_DOCUMENT_CHARS" in parsed.error and not parsed.drafts


# --- the format readers: a saved page, Jira's wiki markup, a template's placeholders -------------

CONFLUENCE_PAGE = Path(__file__).parent / "fixtures" / "formats" / "confluence-space" / "OPS"
CONFLUENCE_PAGE /= "Checkout-outage-2024-03-02_65541.html"
METADATA_LINE = (
    "Created by <span class='author'> Dana Ops</span>, last modified by <span class='editor'> Sam Lee</span>"
)

# every pattern of the HTML / Word page reader and of the Markdown reader, and the tag and macro patterns of the
# others. Not here: document._IMG and _TAG, whose repeat ([^<>]) stops at the next "<", so each try ends where the
# next could start (linear), and a bound would leave a long inline image (a data: URI) in the text
BOUNDED = {f"html.{name}": value for name, value in vars(page_html).items() if isinstance(value, re.Pattern)}
BOUNDED |= {f"markdown.{name}": value for name, value in vars(markdown).items() if isinstance(value, re.Pattern)}
BOUNDED |= {"document._HTML_HEADING": document._HTML_HEADING, "trackers._WIKI_NOISE": trackers._WIKI_NOISE}
BOUNDED |= {"csv_._ATTEMPT_SEPARATOR": csv_._ATTEMPT_SEPARATOR, "alerts._RUN": alerts._RUN}


@pytest.mark.parametrize("name", sorted(BOUNDED))
def test_no_pattern_of_the_format_readers_can_backtrack_over_a_members_file(name: str) -> None:
    assert unbounded_then_more(BOUNDED[name]) == []


def test_a_confluence_pages_metadata_line_is_read_within_its_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = CONFLUENCE_PAGE.read_text(encoding="utf-8")
    assert METADATA_LINE in page
    path = tmp_path / CONFLUENCE_PAGE.name
    path.write_text(page.replace(METADATA_LINE, "Created by a" + " " * 40_000 + "x"), encoding="utf-8")
    tally = [0]
    monkeypatch.setattr(page_html, "_CREATED", Counted(page_html._CREATED, tally))
    parsed = parse_file(FoundFile(path, PurePath(path.name)), team_id="T1")
    assert parsed.drafts and parsed.drafts[0].title  # the page is still imported
    assert 0 < tally[0] <= page_html.CREATED_CHARS


def test_a_style_sheets_bold_class_is_read_after_a_run_of_unclosed_rules() -> None:
    sheet = ".c1{" * 10_000 + ".c9{font-weight:700}"
    page = read_page(
        f'<html><head><style>{sheet}</style></head><body><p><span class="c9">Root cause</span></p></body></html>'
    )
    assert "**Root cause**" in page.markdown


def test_unclosed_macros_and_mentions_are_left_as_written_and_closed_ones_dropped() -> None:
    crafted = "{code " * 6_000 + "[~a " * 2_000
    assert wiki_to_markdown(crafted) == crafted
    assert wiki_to_markdown("{code:java}x = 1{code} asked [~alice]") == "x = 1 asked "


def test_a_csv_cells_attempts_split_on_lines_and_semicolons_whatever_the_spaces_around() -> None:
    cell = "restarted the pods — still 503s ;  \n ; rolled back" + " " * 20_000 + "; raised the pool"
    assert csv_.failed_attempts_cell(cell.strip()) == [
        {"action": "restarted the pods", "why_it_failed": "still 503s"},
        {"action": "rolled back", "why_it_failed": ""},
        {"action": "raised the pool", "why_it_failed": ""},
    ]


def test_an_alerts_section_reads_written_alerts_and_nothing_from_a_crafted_line_of_braces() -> None:
    section = "- HighErrorRate{service=payments}, DiskFull{host=db1}\n- " + "{a" * 2_500 + "\n- KubePodCrashLooping"
    assert alerts.alerts_in_section(section) == [
        {"name": "HighErrorRate", "labels": {"service": "payments"}},
        {"name": "DiskFull", "labels": {"host": "db1"}},
        {"name": "KubePodCrashLooping", "labels": {}},
    ]
    # a brace never closed: the name before it is still read, what follows it is no alert
    assert alerts.alerts_from("HighErrorRate{service=payments}, DiskFull{" + "x" * 19_000) == [
        {"name": "HighErrorRate", "labels": {"service": "payments"}},
        {"name": "DiskFull", "labels": {}},
    ]
