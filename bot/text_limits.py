"""How much of what members write any reader reads: one place for the caps' defaults.

Every reader of members' text (the "is it over?" check, the drafters, the guard, the importer)
reads at most these amounts, with patterns whose work grows linearly with what they read, so a
crafted message costs no more than an ordinary long one. The settings (bot/config.py) name each
cap; these are their defaults. Pure: no settings, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# One channel message: stored, and read by any reader, up to this many characters.
MESSAGE_CHARS = 40_000
# A draft reads the incident's newest messages, at most this many and this many characters in all.
DRAFT_MESSAGES = 500
DRAFT_CHARS = 120_000
# Past a draft's caps (messages, characters; the conversation reader's sentences), what is read is
# shared between the authors (`fair_shares`): each author's newest, up to an equal share, the share
# an author does not use going to the others. One member's many messages cannot push what others
# said out of a draft.
# A draft reads at most this many sentences (lines, at least) of any one message, its first: one
# member's flood (40k of "- x" lines is 10,000) cannot push what others said out of the
# conversation reader's newest-2,000-sentence budget (bot/reader/conversation_features.py). eval/'s real
# conversations say at most 12 in one message.
MESSAGE_SENTENCES = 100
# The reader judges a sentence on its first this many characters (a conversation's cues and the steps an
# opening report says were taken: bot/reader/conversation_features.py, conversation_replies.py; a status
# page's stock words in a postmortem: bot/reader/read.py).
SENTENCE_CHARS = 1_000
# An imported postmortem (Markdown or plain text) longer than this is refused, not cut.
DOCUMENT_CHARS = 2_000_000
# An imported document is read for Markdown headings in its first this many lines that can hold
# one (the blocks around lines that could be a heading, bot/importer/document.py); past them, the
# rest is its last section's text. eval/: a postmortem hands it at most 96, an alert write-up 285.
HEADING_LINES = 400
# Messages kept per incident: past this, the oldest are dropped (and counted).
INCIDENT_MESSAGES = 5_000
# The channel's first report, offered in the resolution modal as the memory's symptoms
# (bot/drafting/first_report.py): at most this many characters, the mark saying it was cut included
# (a modal's text input, and a confirmed field, hold 3,000: bot/models.MAX_TEXT).
FIRST_REPORT_CHARS = 3_000


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


def fair_shares(sizes: Mapping[str, int], budget: int) -> dict[str, int]:
    """How much of `budget` each author gets, who has `sizes` to be read: everyone all of theirs
    when it fits; past it, an equal share each, what an author leaves unused shared by the rest
    (water-filling, smallest first: n log n in the authors)."""
    if sum(sizes.values()) <= budget:
        return dict(sizes)
    shares: dict[str, int] = {}
    left = budget
    order = sorted(sizes, key=sizes.__getitem__)
    for taken, author in enumerate(order):
        shares[author] = min(sizes[author], left // (len(order) - taken))
        left -= shares[author]
    return shares


def newest_shared(texts: Sequence[str], authors: Sequence[str], *, messages: int, chars: int) -> list[int]:
    """Which texts (the lists are oldest first; their indices, oldest first) a reader reads within
    `messages` and `chars`: the newest, shared between authors (`fair_shares` of the messages, then
    of the characters of each author's share), each author's newest that fit its shares. All of
    them when they fit; from one author alone, the newest within both caps (`newest_within`)."""
    mine: dict[str, list[int]] = {}  # each author's texts, newest first
    for index in range(len(texts) - 1, -1, -1):
        mine.setdefault(authors[index], []).append(index)
    counts = fair_shares({a: len(ix) for a, ix in mine.items()}, messages)
    room = fair_shares({a: sum(len(texts[i]) for i in ix[: counts[a]]) for a, ix in mine.items()}, chars)
    kept: list[int] = []
    for author, indices in mine.items():
        used = 0
        for index in indices[: counts[author]]:
            if used + len(texts[index]) > room[author]:
                break
            used += len(texts[index])
            kept.append(index)
    return sorted(kept)
