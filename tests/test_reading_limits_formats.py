"""The format readers (a saved HTML or Word page, Jira's wiki markup, a template's placeholders, inline HTML in
Markdown) read a member's file in bounded work, as tests/test_reading_limits.py checks the reader's: their patterns
hold no unbounded repeat followed by more pattern, and a page's metadata line is read within its cap. Checked by
the patterns' shape and by counting what a pattern is handed, never by timing (bench/reading_limits.py times it).
"""

from __future__ import annotations

import re
from pathlib import Path, PurePath

import pytest

import bot.importer.document as document
import bot.importer.html as page_html
import bot.importer.markdown as markdown
import bot.importer.trackers as trackers
from bot.importer.formats import FoundFile, parse_file
from bot.importer.html import read_page
from bot.importer.trackers import wiki_to_markdown
from tests.test_reading_limits import Counted, unbounded_then_more

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
