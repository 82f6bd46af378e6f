"""How long the trouble went on, and when a sentence of it was said, cut from a stored root cause (issue 23, pmfields'
M2c and pmcause's T, docs/BENCHMARKS.md).

A cause sentence may carry how long its effect lasted: "Our ISP decided to ring in the new year by unplugging us for
12 minutes last night." The duration is metadata (never part of the cause); the rest is the cause. The shared cut
(bot.reader.read `without_metadata`) keeps a bare "for 12 minutes", since "had been failing silently for 30 days
after …" is a cause told with its time: here only the span goes, the sentence stays.

Read on the stored root cause only: in a fix the same words may be part of the step ("drained the queue for 10
minutes, then restarted"), and the cut on fixes cost fold B a fix when measured (M2, the same section).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.reader.cues_metadata import FIGURE_QUALIFIER, NUMBER, UNIT, WHEN
from bot.reader.read import MIN_CLAUSE_WORDS
from bot.reader.text import LINE_SENTENCE_BREAK

# a qualifier of the figure ("for about 12 minutes", "for over 2 hours", "(~20 minutes)"): the reader's one list
_ABOUT = r"(?:" + FIGURE_QUALIFIER + r")?"
# "for / over / during [about] N unit [last night | today …]": not "within" (Mataroa's "10k requests within ~20
# seconds" is a rate), not "N unit of …" (an effort: "after 2 hours of debugging"), not "for the last N …" (NUMBER
# never reads "the"); "(~N unit)" as an aside
HOW_LONG = re.compile(
    r"[ \t]{0,40},?[ \t]{0,40}\b(?:for|over|during)[ \t]{1,40}"
    + _ABOUT
    + NUMBER
    + r"[ \t]{0,40}"
    + UNIT
    + r"\b(?![ \t]{0,40}of\b)(?:[ \t]{1,40}(?:last night|this morning|this afternoon|this evening|today|yesterday|overnight|tonight)\b)?"
    + r"|[ \t]{0,40}\([ \t]{0,40}"
    + _ABOUT
    + NUMBER
    + r"[ \t]{0,40}"
    + UNIT
    + r"[ \t]{0,40}\)",
    re.I,
)


def _sentence_without_how_long(sentence: str) -> str:
    cut = HOW_LONG.sub("", sentence)
    if cut == sentence:
        return sentence
    cut = re.sub(r"[ \t]{1,40}(?=[.,;:!?])", "", cut).strip()
    return cut if len(cut.split()) >= MIN_CLAUSE_WORDS else ""


def cause_without_how_long(cause: str) -> str:
    """`cause` with each "for N minutes" of how long it lasted cut out; a sentence left with fewer than three words
    goes whole ("Down for 2 hours." says no cause)."""
    return _each_sentence_cut(cause, _sentence_without_how_long)


def _each_sentence_cut(cause: str, cut_one: Callable[[str], str]) -> str:
    """`cause`, line by line and sentence by sentence, as `cut_one` leaves each sentence ("" drops it); a line none of
    whose sentences is cut stays as written."""
    lines = []
    for line in cause.split("\n"):
        parts = LINE_SENTENCE_BREAK.split(line)
        cut = [cut_one(p) for p in parts]
        kept = line if cut == parts else " ".join(p for p in cut if p)
        if kept or not line.strip():
            lines.append(kept)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


# a date or time that opens a sentence of the cause ("On July 16, 2023, the team identified …", "- 6:55PM - Found Network
# Issue …", "**2021-07-16 at 3:50PM CDT** We have found …", "2023-02-01 Heavy use of dask-gateway induced …"): list or
# bold markup, an optional "on" / "at", the reader's one date-or-time pattern, closed by a separator or by a space before
# a capital ("On February 16 starting at 14:43 …" is kept: what follows is no clause of its own); after "on" / "at" a
# clause's first word closes it too ("At 23:04 the node …")
_OPENS = r"^[ \t]{0,40}(?:[-*+>][ \t]{1,6})?[*_\[(]{0,3}[ \t]{0,3}"
_CLOSES = r"[*_\])]{0,3}"
_SEPARATOR = r"(?:[ \t]{0,6}(?:[,:—–/]|-{1,2})[ \t*_-]{0,6}|[ \t]{1,6}(?=(?-i:[A-Z])))"
# the whole date or time, never a part of one ("Nov 25 22:24:55 ovh3 smartd…" is a log line, not "Nov 25 22:24" and a
# colon; "On April 14, 2025 <security@…> was notified" is kept, not cut to "2025 <security@…>"), and a dotted figure
# only with its "am" / "UTC" ("1.20: the upgrade …" is a version)
_WHOLE_WHEN = (
    r"(?!\d{1,2}\.\d{2}\b(?![ \t]{0,6}(?:[ap]\.?m\b|\(?(?:utc|gmt|z)\b)))" + WHEN + r"(?![:.]?\d|,?[ \t]{0,3}\d)"
)
WHEN_OPENS = re.compile(
    _OPENS
    + r"(?:(?:(?:on|at)[ \t]{1,6})?"
    + _WHOLE_WHEN
    + _CLOSES
    + _SEPARATOR
    + r"|(?:on|at)[ \t]{1,6}"
    + _WHOLE_WHEN
    + _CLOSES
    + r"[ \t]{1,6}(?=(?:the|we|our|an?|it|they|i)\b))",
    re.I,
)


def _sentence_without_when(sentence: str) -> str:
    opening = WHEN_OPENS.match(sentence)
    if not opening:
        return sentence
    rest = sentence[opening.end() :].strip()
    if len(rest.split()) < MIN_CLAUSE_WORDS:
        return ""
    return rest[0].upper() + rest[1:]


def cause_without_when(cause: str) -> str:
    """`cause` with the date or time that opens any of its sentences cut out (`WHEN_OPENS`): when it was said is
    metadata, never part of the cause; a sentence left with fewer than three words goes whole ("2024-03-18: Outage.")."""
    return _each_sentence_cut(cause, _sentence_without_when)
