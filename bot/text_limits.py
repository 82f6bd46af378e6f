"""How much of what members write any reader reads: one place for the caps' defaults.

Every reader of members' text (the "is it over?" check, the drafters, the guard, the importer)
reads at most these amounts, with patterns whose work grows linearly with what they read, so a
crafted message costs no more than an ordinary long one. The settings (bot/config.py) name each
cap; these are their defaults. Pure: no settings, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

# One channel message: stored, and read by any reader, up to this many characters.
MESSAGE_CHARS = 40_000
# A draft reads the incident's newest messages, at most this many and this many characters in all.
DRAFT_MESSAGES = 500
DRAFT_CHARS = 120_000
# A draft reads at most this many sentences (lines, at least) of any one message, its first: one
# member's flood (40k of "- x" lines is 10,000) cannot push what others said out of the
# conversation reader's newest-2,000-sentence budget (bot/reader/conversation.py). eval/'s real
# conversations say at most 12 in one message.
MESSAGE_SENTENCES = 100
# An imported postmortem (Markdown or plain text) longer than this is refused, not cut.
DOCUMENT_CHARS = 2_000_000
# An imported document is read for Markdown headings in its first this many lines that can hold
# one (the blocks around lines that could be a heading, bot/importer/document.py); past them, the
# rest is its last section's text. eval/: a postmortem hands it at most 96, an alert write-up 285.
HEADING_LINES = 400
# Messages kept per incident: past this, the oldest are dropped (and counted).
INCIDENT_MESSAGES = 5_000


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """The caps one reader works under (the settings' values, or the defaults above)."""

    message_chars: int = MESSAGE_CHARS
    draft_messages: int = DRAFT_MESSAGES
    draft_chars: int = DRAFT_CHARS
    document_chars: int = DOCUMENT_CHARS


def newest_within(texts: list[str], *, messages: int, chars: int) -> int:
    """How many of the newest texts (the list is oldest first) fit in `messages` and `chars`."""
    taken = used = 0
    for text in reversed(texts):
        if taken >= messages or used + len(text) > chars:
            break
        taken += 1
        used += len(text)
    return taken
