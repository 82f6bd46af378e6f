"""Dates in postmortems, as people write them: '2024-03-18 14:05 UTC', 'September 29, 2025',
'29th of May 2021', 'May-9-2021' in a file name. Finding is done here by pattern (a date needs a
day, a month and a year); reading the found text is dateparser's."""

from __future__ import annotations

import re
from bisect import bisect_right
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from itertools import islice
from typing import Any

import dateparser

from bot.reader.cues import FAILURE_WORDS
from bot.reader.cues_found import FOUND_BY

# a month's name as the importer reads one, short or long ("Sep", "Sept.", "September"): the one list of the
# importer's date and time patterns (bot/importer/timeline.py, document.py; review F83)
MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,12}\.?"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d{2}"
_FOUND = re.compile(
    rf"(?<!\d)(?:{_YEAR}[-/.]\d{{1,2}}[-/.]\d{{1,2}}(?:[ T]\d{{1,2}}:\d{{2}}(?::\d{{2}})?(?:\s{{0,40}}(?:UTC|GMT|Z))?)?"
    rf"|{MONTH}[\s-]{{1,40}}{_DAY},?[\s-]{{1,40}}(?:of\s{{1,40}})?{_YEAR}"
    rf"|{_DAY}(?:\s{{1,40}}of)?[\s-]{{1,40}}{MONTH},?[\s-]{{1,40}}{_YEAR}"
    rf"|\d{{1,2}}[-/]\d{{1,2}}[-/](?:{_YEAR}|\d{{2}}))(?![\d])",
    re.I,
)
_MONTH_DAY = re.compile(
    rf"(?<![\w-])(?:{MONTH}\s{{1,40}}\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)?(?:\s{{1,40}}of)?\s{{1,40}}{MONTH})(?![\w-])",
    re.I,
)
# bounded, and a file name is read from where its word starts: `\S+\.md` tried at every
# character of a long word rescanned the rest of it (6 s on 40k characters without a space)
_URL = re.compile(r"\]\([^)\n]{0,500}\)|https?://\S+|(?<!\S)\S{1,300}?\.md\b")
# A text's first this many dates are read (review F71): the day an incident began is among a document's first (eval/'s
# postmortems name at most 57 in any text read for dates), and each date with a time of day costs dateparser ~3 ms, so a
# timeline of 100,000 dated entries (a 2 MB document, or a status page's front matter repeating one update by alias)
# costs no more than this
DATES_READ = 200
_MONTHS = {
    m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)
}
# an ISO-shaped date with its time of day, in UTC (the zone, when written, UTC's): most timeline entries' dates. dateparser
# reads it the same (checked on 8,414 random such strings and tests/test_import_dates.py) at ~3 ms a date (review F71)
_ISO_TIMED = re.compile(
    rf"({_YEAR})([- ])(\d{{1,2}})\2(\d{{1,2}})[ T](\d{{1,2}}):(\d{{2}})(?::(\d{{2}}))?(?:[ \t]{{0,40}}(?:UTC|GMT|Z))?",
    re.I,
)
_MONTH_FIRST = re.compile(r"(?P<month>[a-z]{1,30}\.?)[\s-]{1,40}(?P<day>\d{1,2}),?[\s-]{1,40}(?P<year>\d{4})", re.I)
_DAY_FIRST = re.compile(r"(?P<day>\d{1,2})[\s-]{1,40}(?P<month>[a-z]{1,30}\.?),?[\s-]{1,40}(?P<year>\d{4})", re.I)
_SETTINGS: dict[str, Any] = {
    "TIMEZONE": "UTC",
    "TO_TIMEZONE": "UTC",
    "RETURN_AS_TIMEZONE_AWARE": True,
    "PREFER_DAY_OF_MONTH": "first",
    "DATE_ORDER": "MDY",
    "REQUIRE_PARTS": ["day", "month", "year"],
}
# "the date the issue started", "errors began": the trouble itself began ("Investigation started" is
# not it: that is the response)
_TROUBLE_BEGAN = re.compile(
    r"\b(?:issues?|problems?|outage|incident|errors?|failures?|trouble|downtime)\s{1,40}(?:\w{1,40}\s{1,40})?(?:start(?:ed|s)|beg[au]n)\b",
    re.I,
)
_HH_MM = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?::\d{2})?\s{0,40}([ap]\.?m\.?)?", re.I)


@lru_cache(maxsize=4096)  # pure: a timeline tells the same day again and again
def _parse(text: str) -> datetime | None:
    cleaned = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", text.replace(" of ", " "), flags=re.I).strip(" ,.")
    iso = re.fullmatch(rf"({_YEAR})[-/.](\d{{1,2}})[-/.](\d{{1,2}})", cleaned)
    if iso:  # dateparser reads 2024.03.04 in its own way; an ISO-shaped date is year-month-day
        try:
            return datetime(int(iso[1]), int(iso[2]), int(iso[3]), tzinfo=UTC)
        except ValueError:
            return None
    timed = _ISO_TIMED.fullmatch(cleaned)
    if timed:  # "2024-03-18 14:05 UTC" (dated_spans hands it as "2024 03 18 14:05 UTC"): read as dateparser reads it
        try:
            return datetime(*(int(timed[i]) for i in (1, 3, 4, 5, 6)), int(timed[7] or 0), tzinfo=UTC)
        except ValueError:
            pass  # no such day or time: dateparser's to read or refuse, as before
    words = _MONTH_FIRST.fullmatch(cleaned) or _DAY_FIRST.fullmatch(cleaned)
    month = _MONTHS.get(words["month"].lower().rstrip(".")[:3]) if words else None
    if words and month:  # "September 29, 2025", "29 Sep 2025": common enough to read without dateparser
        try:
            return datetime(int(words["year"]), month, int(words["day"]), tzinfo=UTC)
        except ValueError:
            return None
    try:
        return dateparser.parse(cleaned, languages=["en"], settings=_SETTINGS)
    except (ValueError, OverflowError):  # dateparser raises on impossible days ("Feb 30")
        return None


def parse_date(value: Any) -> datetime | None:
    """A front-matter or `Date:` value (a date, a datetime, or text that names one), or None."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, date):
        return datetime.combine(value, time(), tzinfo=UTC)
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if len(text) <= 40:
        whole = _parse(re.sub(r"\s*(?:-|–|to)\s*\d{1,2}:\d{2}.*$", "", text))  # "10:02–11:40 UTC": the start
        if whole is not None:
            return whole
    return find_date(text)


_NUMERIC = re.compile(rf"\s{{0,40}}(\d{{1,2}})([-/.])(\d{{1,2}})\2({_YEAR})\b")


def other_reading(value: Any) -> datetime | None:
    """The other way to read a numeric date whose day and month could be either ("03/10/2021": March
    10th read month first, October 3rd day first), or None when only one reading is a date."""
    match = _NUMERIC.match(value) if isinstance(value, str) else None
    if match is None or int(match[1]) > 12 or int(match[3]) > 12 or match[1] == match[3]:
        return None
    try:  # parse_date reads it month first (DATE_ORDER): the other reading is day first
        return datetime(int(match[4]), int(match[3]), int(match[1]), tzinfo=UTC)
    except ValueError:
        return None


def find_dates(text: str, *, year: int | None = None) -> list[datetime]:
    """Every date written in `text`, in order: full dates (day, month and year), and with `year`
    also a month and day alone ("On Saturday, December 17th"), in that year. Links are skipped:
    a date in a URL is when something was published, not when it happened."""
    return [moment for moment, _ in dated_spans(text, year=year)]


def dated_spans(text: str, *, year: int | None = None) -> list[tuple[datetime, int]]:
    """find_dates' dates, each with where it starts in `text` (links blanked to the same length): the first
    `DATES_READ` written, so the work is bounded whatever the text's length."""
    text = _URL.sub(lambda m: " " * len(m.group(0)), text).replace("_", " ")
    found: list[tuple[int, datetime]] = []
    starts: list[int] = []  # the full dates' spans, in order: a month and day inside one is no date of its own
    ends: list[int] = []
    for match in islice(_FOUND.finditer(text), DATES_READ):
        starts.append(match.start())
        ends.append(match.end())
        written = match.group(0)
        moment = _parse(written.replace("-", " ") if re.search("[a-z]", written, re.I) else written)
        if moment is not None and 1990 <= moment.year <= 2100:
            found.append((match.start(), moment))
    if year is not None:
        # past the last full date read, when the cap stopped them, no month and day is read either
        stop = ends[-1] if len(starts) == DATES_READ else len(text)
        for match in islice(_MONTH_DAY.finditer(text, 0, stop), DATES_READ):
            inside = bisect_right(starts, match.start()) - 1
            if inside >= 0 and match.start() < ends[inside]:
                continue
            moment = _parse(f"{match.group(0)} {year}")
            if moment is not None:
                found.append((match.start(), moment))
    return [(moment, start) for start, moment in sorted(found, key=lambda pair: pair[0])[:DATES_READ]]


def find_date(text: str, *, year: int | None = None) -> datetime | None:
    """The first date written in `text` (see find_dates), or None."""
    dates = find_dates(text, year=year)
    return dates[0] if dates else None


def at_time_of(day: datetime, entry_time: str, *, not_before: datetime | None = None) -> datetime | None:
    """`day` at an entry's 'hh:mm' (the next day when that would be before `not_before`)."""
    match = _HH_MM.search(entry_time)
    if match is None:
        return None
    hour, minute = int(match[1]), int(match[2])
    meridiem = (match[3] or "").lower().replace(".", "")
    hour = hour % 12 + (12 if meridiem == "pm" else 0) if meridiem else hour
    if hour > 23 or minute > 59:
        return None
    moment = day.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if not_before is not None and moment < not_before:
        moment += timedelta(days=1)
    return moment


# how much of a timeline's first day is read for a word that something went wrong, and how far in
# the timeline its first day is looked for (a timeline opens with its first day)
DAY_TEXT_CHARS = 600
TIMELINE_HEAD_CHARS = 4000


def first_day_gone_wrong(timeline: str, year: int | None = None) -> list[datetime]:
    """The timeline's first day, when what is told under it says something went wrong, was
    reported or began ("2022-09-21 @ 18:56, Fred posts on Github that search is broken"; a day
    heading, then "Multiple users report invalid block issues"): the day the incident began,
    which a report titled or dated on the day it was handled comes after. A first day that tells
    only a change ("RAM per student is reduced … Life seems fine") is not it: a trigger, not yet
    the incident. [] when there is none."""
    head = timeline[:TIMELINE_HEAD_CHARS]
    spans = dated_spans(head, year=year)
    if not spans:
        return []
    first, start = spans[0]
    following = [s for moment, s in spans[1:] if moment.date() != first.date()]
    told = head[start : min([*following, start + DAY_TEXT_CHARS])]
    # naming the root (underlying) cause says what it was, not that something went wrong that day (a bug report
    # days before the outage: "submitted a bounty report … root cause identified")
    went_wrong = any(not m.group(0).lower().endswith(" cause") for m in FAILURE_WORDS.finditer(told))
    return [first] if went_wrong or FOUND_BY.search(told) or _TROUBLE_BEGAN.search(told) else []


# the words just before a date that make it the document's own day (when it was written, edited,
# published: "Last updated: 2024-06-20", "_Last edited 2024-06-20_") or a deadline ahead (a
# follow-up's "by 2024-07-01", "Due date: …"): not the day the incident began
_LEAD_IN_CHARS = 40
_THE_DOCUMENT_S = re.compile(
    r"\b(?:(?:last\s{1,40})?(?:updated|edited|modified|revised|reviewed)|published|posted|written|created|authored)"
    r"(?:\s{1,40}on|\s{1,40}at)?[\s:*_,(]{0,40}$",
    re.I,
)
_DEADLINE = re.compile(
    r"\b(?:by|due(?:\s{1,40}date)?|deadline|no\s{1,40}later\s{1,40}than|(?:scheduled|planned|targeted)\s{1,40}for|target\s{1,40}date|eta)"
    r"[\s:*_,(]{0,40}(?:the\s{1,40})?$",
    re.I,
)


def incident_dates(text: str, *, year: int | None = None) -> tuple[list[datetime], list[datetime]]:
    """find_dates' dates of `text` in order, without deadlines, split in two: the ones that may tell
    when the incident happened, and the document's own (last updated, published) — a last resort."""
    told: list[datetime] = []
    own: list[datetime] = []
    for moment, start in dated_spans(text, year=year):
        line_start = text.rfind("\n", 0, start) + 1
        before = text[max(line_start, start - _LEAD_IN_CHARS) : start]
        if _DEADLINE.search(before):
            continue
        (own if _THE_DOCUMENT_S.search(before) else told).append(moment)
    return told, own
