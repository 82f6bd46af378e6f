"""A Notion export ("Markdown & CSV"): each page a Markdown file named `<Title> <32-hex id>.md`
(its title a `#` heading, its database properties `Key: value` lines under it), and each
database a CSV table of the same properties, `<Name> <id>.csv` (`_all.csv` too).

The pages are read by the Markdown reader; the page id in the name is the memory's id
(`notion-<id>`), so a re-export updates the same memory. A database's CSV repeats its pages'
properties without their text: it is skipped with that reason, never imported as a second copy.
"""

from __future__ import annotations

import re
from pathlib import PurePath

_NOTION_NAME = re.compile(r"^(?P<title>.+?) (?P<id>[0-9a-f]{32})(?:_all)?$")
PAGE_KIND = "Notion page"


def notion_page_id(relative: PurePath) -> str | None:
    found = _NOTION_NAME.match(relative.stem)
    return f"notion-{found.group('id')}" if found and relative.suffix.lower() == ".md" else None


def notion_database(relative: PurePath) -> str | None:
    """Why a Notion database's CSV is not imported."""
    found = _NOTION_NAME.match(relative.stem)
    if found and relative.suffix.lower() == ".csv":
        return (
            f"the Notion database {found.group('title')!r}: its rows are its pages' properties, "
            "imported with each page (export with subpages to get them)"
        )
    return None
