"""The channel's first report, offered as a resolved memory's symptoms. Pure.

A Slack incident declared without symptoms (or found by its channel's name) would be kept with
nothing but a title to be found by: recall reads a memory's opening (title, symptoms, error), and
the next responder's first report is written like this channel's. So the resolution modal offers
the channel's first report as the symptoms, for the person to confirm, edit or clear: the first
message people wrote in the channel after the incident was declared (or the message that declared
it), never a bot's (the timeline keeps none: bot/handlers/event_message.py), never a late note.
A report longer than the modal holds is cut, saying so. Once the incident has dropped its oldest
messages (past TIMELINE_MAX_MESSAGES) the first report is gone: nothing is offered then, and a note
says why, rather than the oldest message kept under a label that says "first".
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.drafting.models import DraftedText
from bot.drafting.rules import quote
from bot.models import MAX_TEXT, TimelineEntry
from bot.text_limits import FIRST_REPORT_CHARS

# how far back a cut may move to end on a whole word
_WORD_SLACK = 40


def cut_mark(length: int) -> str:
    return f" … [cut here: the first message runs to {length:,} characters; the rest is in the channel]"


def bounded(text: str, limit: int = min(FIRST_REPORT_CHARS, MAX_TEXT)) -> str:
    """`text` (stripped) within `limit` characters; cut on a word when longer, with a mark saying how
    long the message was."""
    text = text.strip()
    if len(text) <= limit:
        return text
    mark = cut_mark(len(text))
    head = text[: limit - len(mark)]
    space = head.rfind(" ", max(0, len(head) - _WORD_SLACK))
    return (head[:space] if space > 0 else head).rstrip() + mark


def first_report(timeline: Iterable[TimelineEntry]) -> DraftedText | None:
    """The channel's first report as the symptoms field, quoting its message; None when nobody has
    said anything yet. `timeline` oldest first (as bot/memory/incidents keeps it)."""
    entry = next((e for e in timeline if not e.late and e.text.strip()), None)
    if entry is None:
        return None
    return DraftedText(text=bounded(entry.text), quotes=[quote(entry)])


def dropped_note(kept: int) -> str:
    """Why the symptoms are left empty when the first report was dropped past the cap."""
    return (
        f"Symptoms left empty: the channel's first report is no longer kept (the incident keeps only its newest "
        f"{kept:,} messages, TIMELINE_MAX_MESSAGES); copy it from the channel if it should be kept."
    )
