"""A postmortem's metadata: front matter, `Key: value` lines and dates, each with where it was read.

    ---                                   front matter (YAML or TOML)
    service: sessions
    ---
    - **Date:** 2024-03-18 14:05 UTC      `Key: value` lines before the first section, in a
    | Severity | SEV2 |                    metadata section, or at the top of the first one
    **Root cause:** a bad deploy          a line labelled with a section's name feeds that section

Every metadata key is in METADATA. Dates: see `read_dates`.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import PurePath
from typing import Any

from bot.importer.dates import at_time_of, find_date, find_dates, parse_date
from bot.importer.document import Document, outside_code, plain
from bot.importer.drafts import is_placeholder
from bot.importer.timeline import Entry
from bot.importer.vocabulary import normalize_heading, section_kind
from bot.reader.read import is_metadata

# normalized metadata key → memory field
METADATA: dict[str, str] = {
    **dict.fromkeys(["incident id", "incident", "id", "incident number", "incident no", "ticket"], "incident_id"),
    **dict.fromkeys(["title"], "title"),
    **dict.fromkeys(
        [
            "service",
            "services",
            "affected service",
            "affected services",
            "component",
            "components",
            "affected component",
            "affected components",
            "system",
            "systems",
            "affected system",
            "affected systems",
            "product",
            "products",
            "application",
            "app",
        ],
        "service",
    ),  # fmt: skip
    **dict.fromkeys(["severity", "sev", "severity level", "priority", "impact level"], "severity"),
    **dict.fromkeys(
        [
            "date",
            "incident date",
            "date of incident",
            "date of the incident",
            "started",
            "started at",
            "start",
            "start time",
            "start date",
            "occurred",
            "occurred at",
            "when",
            "detected",
            "detected at",
            "began",
            "incident start",
            "outage start",
            "time",
        ],
        "occurred_at",
    ),  # fmt: skip
    **dict.fromkeys(
        ["resolved", "resolved at", "ended", "end", "end time", "end date", "recovered", "incident end", "outage end"],
        "resolved_at",
    ),  # fmt: skip
    **dict.fromkeys(["confirmed by", "verified by"], "verified_by"),
    **dict.fromkeys(["tags", "labels", "categories", "keywords"], "tags"),
    **dict.fromkeys(["error message"], "error_message"),
}
_KEY_VALUE = re.compile(
    r"^\s*(?:[-*+]\s+)?(?P<key>(?:\*\*|__)?[A-Za-z][\w '’/()-]{0,38}?(?:\*\*|__)?)\s*:\s*(?P<value>.*)$"
)


class FoundFields:
    """The memory's fields as they are found, each with where it came from."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.origins: dict[str, str] = {}

    def put(self, name: str, value: Any, origin: str) -> None:
        if value in (None, "", []) or name in self.values:
            return
        self.values[name] = value
        self.origins[name] = origin


def read_metadata(doc: Document, fields: FoundFields, inline: dict[str, list[tuple[str, str]]]) -> None:
    """Front matter, then `Key: value` lines (and two-cell table rows) before the first section,
    in metadata sections, and at the top of the first section. Lines labelled with a section's
    name ("Root cause: ...") are kept for that kind."""
    for key, value in doc.meta.items():
        name = METADATA.get(normalize_heading(key))
        if name and value not in (None, "", []) and not is_placeholder(value):
            fields.put(name, value, f"front matter {key!r}")
    # blank lines hold no `Key: value` (a crafted file is mostly blank lines)
    candidates = [("text under the title", line) for line in outside_code(doc.preamble) if line.strip()]
    for section in doc.sections:
        head = outside_code(section.lines if section.kind in ("metadata", None) else section.lines[:12])
        if section.kind in ("metadata", "summary", None) or section is doc.sections[0]:
            label = section.label
            candidates += [(label, line) for line in head if line.strip()]
    for where, line in candidates:
        pair = key_value(line)
        if pair is None:
            continue
        key, value = pair
        name = METADATA.get(normalize_heading(key))
        if name:
            if value and not is_placeholder(value):
                fields.put(name, value, f"line '{key}:' ({where})")
            continue
        kind = section_kind(key) if len(key.split()) <= 5 else None
        # "Time to resolve: 31 minutes" is about the incident, not its fix (the reader's metadata line)
        if kind and kind not in ("summary", "metadata", "timeline") and value and not is_metadata(f"{key}: {value}"):
            inline.setdefault(kind, []).append((value, f"line '{key}:' ({where})"))


def key_value(line: str) -> tuple[str, str] | None:
    stripped = line.strip()
    if stripped.startswith("|"):
        cells = [plain(c) for c in stripped.strip("|").split("|")]
        return (cells[0], cells[1]) if len(cells) == 2 and cells[0] and cells[1] else None
    match = _KEY_VALUE.match(line) if ":" in line else None  # no colon, no `Key: value` (10,000 list items)
    if not match or "http" in match.group("key"):
        return None
    return plain(match.group("key")), plain(match.group("value").lstrip("*_ "))


_PROSE_WORDS = 8  # a value of this many words or more is a sentence, not a field's value


def is_field_line(line: str) -> bool:
    """A `Key: value` line that is a field of the report ("Date: 2024-03-18", "Severity: SEV2",
    "Root cause: a bad deploy"), not prose that opens with a label ("**Update: 21:48** - The root
    cause was found to be ...", a status page's update): a known key or section name, or a short value."""
    pair = key_value(line)
    if pair is None:
        return False
    key, value = pair
    if METADATA.get(normalize_heading(key)) or section_kind(key) not in (None, "summary"):
        return True
    return len(value.split()) < _PROSE_WORDS


PUBLISHED_KEYS = ("date", "pubdate", "published", "publishdate", "publish date", "post date")


def read_dates(doc: Document, fields: FoundFields, name: str, entries: list[Entry], prose: str) -> None:
    """`occurred_at`: an incident date the document states (a `Date:` line, `started:` in front
    matter), else a date in the title or file name, else the first date of the timeline or text.
    A blog's front-matter `date:` is when the post was published: it is used only when the text
    names no earlier day in the two years before it. `resolved_at`: the last timeline entry."""
    published: datetime | None = None
    for field in ("occurred_at", "resolved_at"):
        if field in fields.values:
            origin = fields.origins.pop(field)
            moment = parse_date(fields.values.pop(field))
            if moment is None:
                continue
            key = origin.removeprefix("front matter ").strip("'")
            if (
                field == "occurred_at"
                and origin.startswith("front matter")
                and normalize_heading(key) in PUBLISHED_KEYS
            ):
                published = moment
                continue
            fields.put(field, moment, origin)
    title_date = find_date(doc.title or "")
    file_date = find_date(PurePath(name).stem.replace("_", " "))
    if title_date is not None:
        fields.put("occurred_at", title_date, "the title")
    elif file_date is not None and published is None:
        fields.put("occurred_at", file_date, "the file name")
    year = (published or file_date or title_date).year if (published or file_date or title_date) else None
    timeline_text = "\n".join([" ".join(s.heading for s in doc.of_kind("timeline")), *(e.when for e in entries)])
    for text, origin in ((timeline_text, "the timeline"), (prose, "the text")):
        if "occurred_at" in fields.values:
            break
        dates = find_dates(text, year=year)
        if published is not None:  # the earliest day it names before the post, within two years
            dates = sorted(d for d in dates if published - timedelta(days=730) <= d <= published + timedelta(days=1))
        if dates:
            fields.put("occurred_at", dates[0], f"the first date in {origin}")
    if published is not None:
        fields.put("occurred_at", published, "front matter 'date' (when the post was published)")
    start: datetime | None = fields.values.get("occurred_at")
    if start is None or not entries or "resolved_at" in fields.values:
        return
    last = entries[-1]
    end = find_date(last.when) or at_time_of(start, last.time, not_before=start)
    if end is not None and end >= start:
        fields.put("resolved_at", end, f"timeline entry {last.when!r}")
