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

from bot.importer.dates import (
    at_time_of,
    dated_spans,
    find_date,
    find_dates,
    first_day_gone_wrong,
    incident_dates,
    other_reading,
    parse_date,
)
from bot.importer.document import Document, outside_code, plain
from bot.importer.drafts import is_placeholder
from bot.importer.section_text import join_lines, section_text
from bot.importer.status_updates import RESOLVED_KEYS as STATUS_POST_RESOLVED_KEYS
from bot.importer.timeline import Entry
from bot.importer.vocabulary import normalize_heading, section_kind
from bot.reader.cues import FAILURE_WORDS
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
        [
            "resolved",
            "resolved at",
            "ended",
            "end",
            "end time",
            "end date",
            "recovered",
            "incident end",
            "outage end",
            # a status page's front matter: cState's `resolvedWhen`, LiveAgent's `resolvedDate` (the post's resolved
            # time its updates read too)
            *(normalize_heading(key) for key in STATUS_POST_RESOLVED_KEYS),
        ],
        "resolved_at",
    ),  # fmt: skip
    **dict.fromkeys(["confirmed by", "verified by"], "verified_by"),
    **dict.fromkeys(["tags", "labels", "categories", "keywords"], "tags"),
    **dict.fromkeys(["error message"], "error_message"),
}
_KEY_VALUE = re.compile(
    r"^\s{0,40}(?:[-*+]\s{1,40})?(?P<key>(?:\*\*|__)?[A-Za-z][\w '’/()-]{0,38}?(?:\*\*|__)?)\s{0,40}:\s{0,40}(?P<value>.*)$"
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
        # a flag is no field's value: cState's `resolved: true` says that it was, `resolvedWhen` says when
        if name and value not in (None, "", []) and not isinstance(value, bool) and not is_placeholder(value):
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


def read_prose_details(doc: Document) -> None:
    """A "Details" (metadata) section that tells the incident in sentences rather than `Key: value`
    fields is read as text: what it says can be the cause or the fix (its fields are read as any
    section's are)."""
    for section in doc.of_kind("metadata"):
        lines = [line for line in outside_code(section.lines) if line.strip()]
        fields = sum(1 for line in lines if is_field_line(line))
        prose = sum(1 for line in lines if not is_field_line(line) and len(line.split()) >= _PROSE_WORDS)
        if prose > fields:
            section.kind = None


PUBLISHED_KEYS = ("date", "pubdate", "published", "publishdate", "publish date", "post date")
# front-matter keys that make the file an incident record (a status page's entry: "resolved: true",
# "resolvedWhen", "severity", "affected"): its `date:` is when the incident began, not a post's date
_INCIDENT_RECORD_KEYS = ("resolved", "resolvedwhen", "resolved when", "severity", "affected")


def is_incident_record(doc: Document) -> bool:
    """Front matter that makes the file an incident record (a status page's entry)."""
    return any(normalize_heading(str(k)) in _INCIDENT_RECORD_KEYS for k in doc.meta)


# where a document's date may be when it was written rather than when the incident began: a `Date:`
# line, the title, the file name, a post's date (an explicit "Started:" / "Incident date:" is not)
_DOCUMENT_DATE_ORIGINS = ("line 'date", "line '**date", "the title", "the file name", "front matter 'date'")
# how far before the document's date the incident may have begun: a postmortem written weeks later
EARLIER_START_DAYS = 31
SAID_START_CHARS = 4000  # the opening of the text: where a report says when it began
# "On November 5th ’24 we had a global outage", "The issues started on Feb 12th", "the incident that
# occurred during the upgrade on March 5, 2025": a day the text says the incident began on, when the
# sentence says something went wrong or began (the date itself is found by find_dates)
_ON_A_DAY = re.compile(r"\b(?:on|since)\s{1,40}(?:the\s{1,40})?[`*_(]?$", re.I)
_BEGAN = re.compile(r"\b(?:start(?:ed|ing)|beg[au]n|beginning|occurr(?:ed|ing)|happen(?:ed|ing)|since)\b", re.I)
_SENTENCE_END = re.compile(r"[.!?\n]\s")


def _said_start(prose: str, year: int | None) -> list[datetime]:
    """The days the opening text says the incident began on ("On November 5th we had an outage")."""
    found = []
    head = prose[:SAID_START_CHARS]
    for moment, start in dated_spans(head, year=year):
        if not _ON_A_DAY.search(head[max(0, start - 12) : start]):
            continue
        opened = max(
            (m.end() for m in _SENTENCE_END.finditer(head, max(0, start - 300), start)), default=max(0, start - 300)
        )
        closed = _SENTENCE_END.search(head, start)
        sentence = head[opened : closed.start() if closed else start + 300]
        if FAILURE_WORDS.search(sentence) or _BEGAN.search(sentence):
            found.append(moment)
    return found


def read_dates(doc: Document, fields: FoundFields, name: str, entries: list[Entry], prose: str) -> None:
    """`occurred_at`: an incident date the document states (a `Date:` line, `started:` in front
    matter), else a date in the title or file name, else the first date of the timeline or text.
    A blog's front-matter `date:` is when the post was published: it is used only when the text
    names no earlier day in the two years before it. A document's own date (a `Date:` line, the
    title, the file name) gives way to an earlier day, within EARLIER_START_DAYS, that its opening
    text says the incident began on; a title and a file name more than a month apart, to the one
    nearer the dates the text names. `resolved_at`: the last timeline entry."""
    published: datetime | None = None
    record = is_incident_record(doc)
    file_date = find_date(PurePath(name).stem.replace("_", " "))
    title_date = find_date(doc.title or "")
    for field in ("occurred_at", "resolved_at"):
        if field in fields.values:
            origin = fields.origins.pop(field)
            value = fields.values.pop(field)
            moment = parse_date(value)
            if moment is None:
                continue
            other = other_reading(value)  # "03/10/2021": the reading the file name or the title agrees with
            if other is not None and any(
                d is not None and abs(d - other) <= timedelta(days=1) for d in (file_date, title_date)
            ):
                moment = other
            key = origin.removeprefix("front matter ").strip("'")
            if (
                field == "occurred_at"
                and origin.startswith("front matter")
                and normalize_heading(key) in PUBLISHED_KEYS
                and not record
            ):
                published = moment
                continue
            fields.put(field, moment, origin)
    if (
        title_date is None and (published or file_date) is not None
    ):  # "Outage on March 5": the year is the file's or the post's
        title_date = find_date(doc.title or "", year=(published or file_date).year)
    timeline_text = "\n".join([" ".join(s.heading for s in doc.of_kind("timeline")), *(e.when for e in entries)])
    if title_date is not None and file_date is not None and abs(title_date - file_date) > timedelta(days=31):
        # the title and the file name disagree by more than a month (a typo: "2012-06-08" for 2023): the
        # one nearer the dates the timeline and the text name
        told = find_dates(timeline_text) + find_dates(prose)
        if told and min(abs(d - file_date) for d in told) < min(abs(d - title_date) for d in told):
            title_date = None
    if title_date is not None:
        fields.put("occurred_at", title_date, "the title")
    elif file_date is not None and published is None:
        fields.put("occurred_at", file_date, "the file name")
    year = (published or file_date or title_date).year if (published or file_date or title_date) else None
    for text, origin in ((timeline_text, "the timeline"), (prose, "the text")):
        if "occurred_at" in fields.values:
            break
        if origin == "the text":  # told outside code, not a deadline ahead; the document's own day last
            told, own = incident_dates(_without_code(doc), year=year)
            dates = told or own
        else:
            dates = find_dates(text, year=year)
        if published is not None:  # the earliest day it names before the post, within two years
            dates = sorted(d for d in dates if published - timedelta(days=730) <= d <= published + timedelta(days=1))
        if dates:
            fields.put("occurred_at", dates[0], f"the first date in {origin}")
    if published is not None:
        fields.put("occurred_at", published, "front matter 'date' (when the post was published)")
    # the timeline as told, without its code: a date in a quoted log line is not a day it tells
    timeline = "\n\n".join(join_lines(outside_code(s.lines)) for s in doc.of_kind("timeline"))
    _earlier_start(fields, prose, year, timeline)
    start: datetime | None = fields.values.get("occurred_at")
    said_end = fields.values.get("resolved_at")
    if start is not None and said_end is not None and said_end < start:
        # a resolved time before the start is a slip in the source (a year typed wrong): none rather than a wrong one
        del fields.values["resolved_at"], fields.origins["resolved_at"]
    if start is None or not entries or "resolved_at" in fields.values:
        return
    last = entries[-1]
    end = find_date(last.when) or at_time_of(start, last.time, not_before=start)
    if end is not None and end >= start:
        fields.put("resolved_at", end, f"timeline entry {last.when!r}")


def _without_code(doc: Document) -> str:
    """The document's text as `read_dates` is given it, without fenced code (a log line's date)."""
    kept = [s for s in doc.sections if s.kind not in ("lesson", "action_items")]
    parts = [join_lines(outside_code(doc.preamble))]
    for section in kept:  # a section with no fence is joined once per parse already (section_text)
        fenced = any(line.lstrip().startswith(("```", "~~~")) for line in section.lines)
        parts.append(join_lines(outside_code(section.lines)) if fenced else section_text(section))
    return "\n".join(parts)[:20_000]


def _earlier_start(fields: FoundFields, prose: str, year: int | None, timeline: str) -> None:
    """A document's own date gives way to an earlier day its opening text says the incident began
    on, or its timeline's first day when that day's entries say something went wrong or was
    reported, within EARLIER_START_DAYS before it."""
    stated: datetime | None = fields.values.get("occurred_at")
    origin = fields.origins.get("occurred_at", "")
    if stated is None or not origin.lower().startswith(_DOCUMENT_DATE_ORIGINS):
        return
    said = _said_start(prose, year or stated.year) + first_day_gone_wrong(timeline, year or stated.year)
    earlier = [d for d in said if stated - timedelta(days=EARLIER_START_DAYS) <= d < stated - timedelta(days=1)]
    if earlier:
        fields.values["occurred_at"] = min(earlier)
        fields.origins["occurred_at"] = f"the day the text says it began (before {origin})"
