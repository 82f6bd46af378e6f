"""A status page's updates kept in a post's front matter, read as the post's timeline.

Some status-page sites keep an incident's whole story in the post's front matter and leave the body
empty: LiveAgent's Jekyll site (dshymanskyi/la-status-v2, 112 of its 150 posts) writes

    incident_states:
    - status: investigating
      content: 'We are currently experiencing …'
    - status: update
      content: 'The problem occured when switching Elasticsearch …'
      date: 2024-07-26 17:30 UTC

and its page shows each update with its state and time. Atlassian Statuspage's export
(`incident_updates`: status, body, created_at, newest first) and Stactus (`timeline`: ts,
description) keep the same list under other names. Each update becomes timeline lines,
"- <time>: <sentence>", one per sentence (bot/reader/text.py's sentence break), with a blank line
between two updates in the timeline section: the sentences of one update were told together, the
timeline reader numbers them with their update, and the fix's "step told just before a restored
entry" never takes a sentence of the same update (review F64: the cause, told in the update that
reports a shard restored). The timeline reader (bot/importer/timeline.py) reads them as any
postmortem's timeline: an update is a paragraph, and
with whole paragraphs as entries no cause was found on the tuning posts. The state ("resolved",
"investigating") is the site's label, not the writer's words: written before the text it made a
"resolved" update's first sentence a fix, whatever it said (docs/BENCHMARKS.md, "Status-page posts
told only in their front matter").
An update without a time takes the one its page shows: the post's `date` for the first, the post's
resolved time for a "resolved" one; else its lines have no time and are read as the timeline's prose.

Bounded: at most `MAX_UPDATES` updates, each text cut at `MAX_UPDATE_CHARS`, and never more text in
all than the document holds (a YAML alias repeats a long string for three characters); only
strings and dates are read, never a nested value (a tree of aliases is not walked).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from bot.reader.text import LINE_SENTENCE_BREAK

MAX_UPDATES = 200
MAX_UPDATE_CHARS = 5_000
_TIME_CHARS = 60  # a time value longer than this is no time
# the front-matter keys that hold the list of updates, as sites write them (lower-cased by the parser)
UPDATE_LISTS = ("incident_states", "incident_updates", "updates", "timeline")
# within an update: its text, its time and its state, the first key present of each
_TEXT_KEYS = ("content", "body", "message", "description", "text")
_TIME_KEYS = ("date", "created_at", "ts", "time", "timestamp", "display_at", "updated_at")
_STATUS_KEYS = ("status", "state")
# the post's own times (lower-cased keys): when it began, when it was resolved (LiveAgent's `resolvedDate`, cState's
# `resolvedWhen`); the resolved ones are also the memory's resolved time (bot/importer/metadata.py METADATA: written
# once, review F75)
_STARTED_KEYS = ("date", "started_at", "created_at")
RESOLVED_KEYS = ("resolveddate", "resolved_at", "resolvedwhen", "resolved_date")


@dataclass(frozen=True, slots=True)
class Updates:
    key: str  # the front-matter key they were read from
    lines: list[str]  # the timeline's lines, one per sentence, oldest update first
    first: str  # the first update's text: what was seen when it was first reported
    update_of: list[int]  # for each line, the update it is a sentence of

    def timeline_lines(self) -> list[str]:
        """The lines as the post's timeline section holds them: a blank line between two updates."""
        out: list[str] = []
        for i, line in enumerate(self.lines):
            out += [""] if i and self.update_of[i] != self.update_of[i - 1] else []
            out.append(line)
        return out


def front_matter_updates(meta: dict[str, Any], budget: int) -> Updates | None:
    """The updates under the first key of `UPDATE_LISTS` whose value is a list of updates with text,
    or None. `budget`: the most characters of text they may hold in all (the document's length)."""
    for key in UPDATE_LISTS:
        listed = meta.get(key)
        if not isinstance(listed, list):
            continue
        updates = [u for u in listed[:MAX_UPDATES] if isinstance(u, dict) and _first_text(u, _TEXT_KEYS).strip()]
        if not updates:
            continue
        if _newest_first([_first(u, _TIME_KEYS) for u in updates]):
            updates.reverse()  # as Statuspage lists them: the story is read oldest first
        lines: list[str] = []
        update_of: list[int] = []
        first = ""
        for index, update in enumerate(updates):
            text = " ".join(_first_text(update, _TEXT_KEYS)[:MAX_UPDATE_CHARS].split())[: max(budget, 0)]
            budget -= len(text)
            if not text:
                break
            first = first or text
            when = _when(meta, update, index)
            said = [f"- {when}: {s}" if when else f"- {s}" for s in LINE_SENTENCE_BREAK.split(text) if s.strip()]
            lines += said
            update_of += [index] * len(said)
        return Updates(key, lines, first, update_of)
    return None


def _newest_first(times: list[Any]) -> bool:
    """Whether every update has a timestamp and they go from the newest to the oldest."""
    if len(times) < 2 or not all(isinstance(t, datetime) for t in times):
        return False
    try:
        return all(a > b for a, b in zip(times, times[1:], strict=False))
    except TypeError:  # times with and without a zone: no order to read
        return False


def _when(meta: dict[str, Any], update: dict[Any, Any], index: int) -> str:
    """The update's time, else the one its page shows (the post's start for the first update, the
    post's resolved time for a "resolved" one), else ""."""
    when = _time(_first(update, _TIME_KEYS))
    if not when and index == 0:
        when = _time(_first(meta, _STARTED_KEYS))
    if not when and _first_text(update, _STATUS_KEYS).strip().lower() == "resolved":
        when = _time(_first(meta, RESOLVED_KEYS))
    return when


def _first(values: dict[Any, Any], keys: tuple[str, ...]) -> Any:
    return next((values[k] for k in keys if values.get(k) not in (None, "")), None)


def _first_text(values: dict[Any, Any], keys: tuple[str, ...]) -> str:
    value = _first(values, keys)
    return value if isinstance(value, str) else ""


def _time(value: Any) -> str:
    """A time as the timeline reader reads one ("2024-07-26 17:30 UTC"; a YAML timestamp as
    "2024-08-12 14:03:13"); "" for anything else."""
    if isinstance(value, datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, str) and len(value.strip()) <= _TIME_CHARS and "\n" not in value.strip():
        return value.strip()
    return ""
