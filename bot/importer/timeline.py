"""Timelines read as (time, text) entries: what they tell (the fix, the attempts that failed) is
read by bot/reader/narrative.py.

    | 17:40 | Rollback fails due to ArgoCD permissions |     table rows whose first cells hold a time
    - **18:46 UTC** - Service fully restored                 bullets or lines that start with one
    ### May 10 (a heading inside the timeline)               the day of the entries that follow
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.importer.dates import MONTH
from bot.importer.document import fence_after, plain
from bot.reader.cues_metadata import APPROX_TIME_MARK

_WEEKDAY = r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]{0,12}\.?,?\s{1,40})?"  # "Thurs 07:06 PDT"
_CLOCKS = (
    r"\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?",  # 2024-03-04 10:02
    r"\d{1,2}[-/]\d{1,2}[ T]\d{1,2}:\d{2}",  # 12-05 16:21 (month and day, no year)
    _WEEKDAY + r"\d{1,2}:\d{2}(?::\d{2})?(?:\s{0,40}[ap]\.?m\.?)?",  # 10:02, 3:15 pm
    _WEEKDAY + r"\d{1,2}\s{0,40}[ap]\.?m\.?",  # 3pm
    r"(?:mon|tue|wed|thu|fri|sat|sun)[a-z]{0,12},?\s{1,40}\S{1,40}\s{1,40}\d{1,2}",  # Tue, May 10
    MONTH + r"\s{1,40}\d{1,2}(?:st|nd|rd|th)?(?:,?\s{1,40}\d{4})?",
    r"\d{1,2}(?:st|nd|rd|th)?\s{1,40}" + MONTH + r"(?:\s{1,40}\d{4})?",
    r"[tT]\s{0,40}[+-]\s{0,40}\d{1,12}\s{0,40}(?:min|m|h|hours?|minutes?)",
)
# a time told as approximate ("| **~20:58** | … still broken |", "- approx. 20:58 -", "20:58 (approx)"): the marker stays
# in the entry's time, a note the reader of the time skips (dates.at_time_of searches for the hh:mm); the marks before
# the clock are the reader's one list of them (review F72)
_APPROX_BEFORE = APPROX_TIME_MARK + "?"
_APPROX_AFTER = r"(?:\s{0,40}\((?:approx\.?|approximately|est\.?|estimated)\))?"
_TIME = "(?:" + _APPROX_BEFORE + "(?:" + "|".join(_CLOCKS) + "))"
# a 24-hour time written without its colon ("1438 - attempted ssh", "* 0717: upgrade merged"): read only
# in a timeline whose lines are written so, and one of them is no year ("2019: we moved" is a year)
_HHMM = r"(?:[01]\d|2[0-3])[0-5]\d(?!\d|[:/.-]\d)"
# a time's zone: the one definition (the entry pattern reads it after a time; a short row's word check asks whether a
# word is one). The two-letter North American zones ("11:15PM CT - Services Restored") only in capitals and as a word
# of their own, so "at" or "PTO" is never one; and only right after a time, where _ZONE is read
_ZONE_NAME = r"(?:UTC|GMT|Z|[A-Z]{2,4}T|(?-i:[ECMP]T)(?![A-Za-z])|[+-]\d{2}:?\d{2})"
_ZONE = r"(?:\s{0,40}" + _ZONE_NAME + ")?"
# (one run of spaces, not two side by side: "\s*x?\s*" splits a line of spaces every way there is)
_MARKS_BEFORE = r"^\s{0,40}(?:(?:[-*+]|\d{1,12}[.)])\s{0,40})?(?:\*\*|__|`)?\[?\(?"
_MARKS_AFTER = r"\)?\]?(?:\*\*|__|`)?"


def _entry_pattern(time: str, separator: str) -> re.Pattern[str]:
    # "03:16/13:46": two zones
    span = time + _ZONE + _APPROX_AFTER + r"(?:\s{0,40}(?:-|–|to|/)\s{0,40}" + time + _ZONE + _APPROX_AFTER + r")?"
    return re.compile(
        _MARKS_BEFORE + r"(?P<time>(?:" + span + r")(?:,?\s{1,40}" + span + r")?)" + _MARKS_AFTER + separator
        + r"(?:\*\*|__)?(?P<text>\S.*)$",
        re.I,
    )  # fmt: skip


_ENTRY = _entry_pattern(_TIME, r"(?:\s{0,40}[-–—:|]\s{0,40}|\s{1,40})")
# with a colonless time the separator is required: "1438 attempted" could be a count
_ENTRY_HHMM = _entry_pattern("(?:" + "|".join((*_CLOCKS, _HHMM)) + ")", r"\s{0,40}[-–—:|]\s{0,40}")
_HHMM_LINE = re.compile(
    _MARKS_BEFORE + r"(?:\d{4}-\d{2}-\d{2}\s{1,40})?(" + _HHMM + r")" + _ZONE + _MARKS_AFTER + r"\s{0,40}[-–—:|]"
)
_DAY_LINE = re.compile(
    r"^(?:\d{1,2}/\d{1,2}/\d{2,4}|\d{4}-\d{2}-\d{2}|(?:[a-z]{1,30},?\s{1,40})?"
    + MONTH
    + r"\s{1,40}\d{1,2}(?:st|nd|rd|th)?(?:,?\s{1,40}\d{4})?)\s{0,40}:?$",
    re.I,
)
_TABLE_RULE = re.compile(r"^\s{0,40}(?:\|\s{0,40})?:?-{2,}")
_HAS_TIME = re.compile(_TIME, re.I)
_HH_MM_ANY = re.compile(r"\d{1,2}:\d{2}")
_FOOTNOTE_REF = re.compile(r"\[\^[^\]\s]{1,20}\]")  # "- 2023-03-03[^3]: …": a footnote's mark, not the entry's text


@dataclass(frozen=True, slots=True)
class Entry:
    time: str
    text: str
    day: str = ""  # a date heading inside the timeline the entry sits under
    # of a status page's updates (read_timeline's `status_updates`): which update it is a sentence of; None else
    update: int | None = None

    @property
    def when(self) -> str:
        return f"{self.day} {self.time}".strip()


def _table_cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _dated_heading(line: str) -> bool:
    """'2025-07-26 Saturday:' (a day's heading inside the timeline): a date, no time of day."""
    text = plain(line)
    return not _HH_MM_ANY.search(text) and bool(re.match(r"^\d{4}-\d{2}-\d{2}\b", text)) and len(text.split()) <= 3


def _bare_time(line: str) -> bool:
    """A line that is only a time: '### 14:29' (as a subsection line '14:29:'), '~13:30-13:45',
    '19. April, 11:00', or a PagerDuty export's '1:03' with the text on the next line."""
    text = plain(line).strip("_*~≈ ")
    return (
        len(text) <= 32
        and bool(_HH_MM_ANY.search(text))
        and len(re.findall(r"[A-Za-z]{3,}", text)) <= 3
        and not text.endswith(".")
    )


# the words a heading of times holds besides its clock: its zone, its meridiem, its joining words ("2021-07-16 at
# 3:50PM CDT", "08:52 PM:", "2017-05-09 10:45a"); a short row has a word besides these after its time ("- 15:10 -
# rolled back")
_TIME_WORD = re.compile(r"(?:[ap]\.?(?:m\.?)?|at|on|to|and)", re.I)
_ZONE_WORD = re.compile(_ZONE_NAME)  # case as written: "CT" is a zone, "ct" a word
SHORT_ROW_CHARS = 200  # a bare-time line is at most 32 characters; the word check reads no more than this


def _short_row(line: str, colonless: bool) -> tuple[str, str] | None:
    """(time, words) of a line `_bare_time` accepts that tells something after its time ("- 15:10 - rolled back",
    "11:15PM CT - Services Restored"); None for a time alone or a heading of times ("14:29:", "~13:30-13:45",
    "July 23 4:10 AM", "2021-07-16 at 3:50PM CDT"), whose text is the paragraphs under it."""
    line = line[:SHORT_ROW_CHARS]
    match = (colonless and _ENTRY_HHMM.match(line)) or _ENTRY.match(line)
    if not match or not (colonless or _HAS_TIME.search(match.group("time"))):
        return None
    words = re.findall(r"[A-Za-z]+", _HAS_TIME.sub(" ", plain(match.group("text"))))
    if all(_TIME_WORD.fullmatch(w) or _ZONE_WORD.fullmatch(w) for w in words):
        return None
    return plain(match.group("time")), _tidy(match.group("text"))


def _colonless_times(lines: list[str]) -> bool:
    """Whether a timeline writes its times without a colon ("1436 - alert that CDN check has failed",
    "* 0717: upgrade merged"): two lines or more start so, and one of them is no year (1970-2039)."""
    times = [int(m.group(1)) for line in lines if line[:40].strip()[:1].isdigit() or line.lstrip()[:1] in "-*+[(_`"
             if (m := _HHMM_LINE.match(line[:80]))]  # fmt: skip
    return len(times) >= 2 and any(not 1970 <= t <= 2039 for t in times)


def read_timeline(lines: list[str], *, status_updates: bool = False) -> tuple[list[Entry], str]:
    """(time, text) entries from a timeline's bullets, lines, time headings and table rows
    (continuation lines join their entry; code blocks and images are left out), and the prose
    between them ("Shortly after starting the stream we discovered ..."). `status_updates`: the lines
    are a status page's updates (bot/importer/status_updates.py), a blank line between two updates;
    each entry is numbered with its update (`Entry.update`)."""
    entries: list[Entry] = []
    update = 0
    prose: list[str] = []
    day = ""
    fence = ""
    previous_blank = False
    under_time_line = False  # the entry began with a line that is only a time: paragraphs follow
    row_words = False  # that line was a short row with words ("21:00 - Team alerted:"), nothing joined yet
    in_prose = False  # the last line was prose: its paragraph's next lines are prose too
    colonless = _colonless_times(lines)
    for line in lines:
        stripped = _FOOTNOTE_REF.sub("", line.strip()) if "[^" in line else line.strip()
        blank, previous_blank = previous_blank, not stripped
        update += int(status_updates and not stripped)  # a blank line between two updates
        before, fence = fence, fence_after(stripped, fence)
        if before or fence:  # a fence or code inside one
            continue
        if not stripped or stripped.startswith("!["):
            continue
        if len(stripped) < 40 and (_DAY_LINE.match(plain(stripped).strip("_*")) or _dated_heading(stripped)):
            day = plain(stripped).strip("_*")  # a subheading ("May 10:", "_4/21/23_") inside the timeline
            continue
        if stripped.startswith("|"):
            under_time_line = False
            if _TABLE_RULE.match(stripped):
                continue
            cells = [plain(c) for c in _table_cells(stripped)]
            times = [c for c in cells[:2] if _time_cell(c)]
            text = " — ".join(c for c in cells if c and c not in times)
            if times and text:
                entries.append(Entry(" ".join(times), text, day))
                in_prose = False
            continue
        if _bare_time(stripped):
            time, text = _short_row(stripped, colonless) or (plain(stripped).strip("_*~≈ "), "")
            entries.append(Entry(time, text, day, update if status_updates else None))
            under_time_line, in_prose, row_words = True, False, bool(text)
            continue
        match = (colonless and _ENTRY_HHMM.match(stripped)) or _ENTRY.match(stripped)
        if match and (colonless or _HAS_TIME.search(match.group("time"))):
            told_in = update if status_updates else None
            entries.append(Entry(plain(match.group("time")), _tidy(match.group("text")), day, told_in))
            under_time_line = in_prose = False
        elif entries and (
            under_time_line
            or (not blank and not in_prose and (line.startswith((" ", "\t")) or not _is_new_block(stripped)))
        ):
            last = entries[-1]
            # a short row's words are a sentence of their own: the first paragraph under them starts the next
            joint = ". " if row_words and under_time_line and not last.text.endswith((".", "!", "?")) else " "
            text = f"{last.text.rstrip(':') if joint == '. ' else last.text}{joint}{_tidy(stripped.lstrip('-*+ '))}"
            entries[-1] = Entry(last.time, text.strip(), last.day, last.update)
            row_words = False
        else:
            prose.append(("\n" if blank else " ") + _tidy(stripped))
            in_prose = True
    return [e for e in entries if e.text], "".join(prose).strip()


def _time_cell(cell: str) -> bool:
    return bool(_OFFSET_CELL.match(cell)) or (
        bool(cell)
        and len(cell) <= 40
        and bool(_HAS_TIME.match(cell))
        and not re.search(r"[a-z]{4,}\s{1,40}[a-z]{4,}", cell)
    )


# "| +130 minutes | Upgrade re-attempted; AP node fails again |", "| [+6.5 hrs] | …": a table timeline told as
# offsets from the start (a cell that is only the offset)
_OFFSET_CELL = re.compile(
    r"^\\?\[?\s{0,40}[+-]\s{0,40}\d{1,4}(?:\.\d)?\s{0,40}(?:m|mins?|minutes?|h|hrs?|hours?|d|days?)\s{0,40}\\?\]?$",
    re.I,
)


def _is_new_block(line: str) -> bool:
    return bool(re.match(r"^(?:[-*+]|\d{1,12}[.)])\s", line)) or line.startswith(("#", ">"))


def _tidy(text: str) -> str:
    return " ".join(plain(text).split())


HEADLESS_MIN_ENTRIES = 3


def headless_timeline(title: str, lines: list[str]) -> list[Entry]:
    """The entries of a document with no timeline heading whose text is a timeline: three lines or
    more led by a time ("1436 - alert that CDN check has failed", "1438 - attempted ssh"), telling
    more than the prose between them; its first line, taken for the title, too when it is led by a
    time the same way. [] when the text is prose that names a few times."""
    entries, prose = read_timeline([title, *lines] if title else lines)
    if len(entries) >= HEADLESS_MIN_ENTRIES and sum(len(e.text) for e in entries) > len(prose):
        return entries
    return []
