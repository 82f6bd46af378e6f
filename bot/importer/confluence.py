"""A Confluence space export (the HTML export, as a folder or its zip): one memory per incident
page, and what is not one skipped with the reason.

    OPS/index.html                          the space's index ("Available Pages")   skipped
    OPS/Postmortems_65540.html              a page that only links to its children  skipped
    OPS/Checkout-outage-2024-03-02_65541.html   an incident page: id `confluence-65541`
    OPS/attachments/65541/65600.txt         an attachment of page 65541             skipped

The page id in the file name is the memory's id, so a re-export (even with the page renamed)
updates the same memory with `--update`.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from bot.importer.drafts import NotAnIncident
from bot.importer.html import Page

_PAGE_ID = re.compile(r"(?:^|_)(\d{3,})$")
_NAVIGATION_TEXT = 40  # characters outside links: less than a sentence of its own


def attachment_of(relative: PurePath) -> str | None:
    """Why a file under `attachments/<page id>/` is not a postmortem of its own."""
    parts = relative.parts
    for i, part in enumerate(parts[:-2]):
        if part == "attachments" and parts[i + 1].isdigit():
            return f"an attachment of Confluence page {parts[i + 1]}, not a page"
    return None


def confluence_page(page: Page, relative: PurePath) -> Page:
    """An exported page with its id as the memory's, or NotAnIncident for the index and for
    navigation pages."""
    if relative.name.lower() == "index.html":
        raise NotAnIncident("the space export's index page (its list of pages), not an incident report")
    if page.links and page.text_outside_links < _NAVIGATION_TEXT:
        raise NotAnIncident(f"a navigation page: {page.links} links to other pages and no text of its own")
    found = _PAGE_ID.search(relative.stem)
    if found:
        page.meta = {"incident id": f"confluence-{found.group(1)}", **page.meta}
    return page
