"""The one reader of incident narratives: postmortem timeline entries, channel messages and prose
sentences become typed findings with their quotes. Pure: no Slack, no storage, no settings.

    findings.py   Statement → Finding (kind, outcome, stance, quotes), Reading
    read.py       read(statements, mode="narrative" | "chat") → Reading
    cues.py       the one vocabulary: every cue-word pattern (actions, outcomes, causes, fixes, ...)
    cues_attempts.py  its section on how one failed attempt is told (asides, plans, what refers back)
    narrative.py  postmortems and prose: the entries that fixed it, the attempts that failed
    narrative_timeline.py  an attempt in one timeline entry, its failure told in a later one
    chat.py       channel messages: an attempt and why it failed, in one sentence
    conversation.py  a channel read as a conversation: which sentence says the cause, the fix, an attempt
    conversation_features.py  a channel's messages cut into sentences, each with its cue groups and who said it
    conversation_replies.py, conversation_vetoes.py  how the thread answers a step; what a sentence never is
    conversation_told.py  failed attempts told in so many words ("restarted X, still failing"), cut into step and why
    cues_conversation.py  the conversation's named cue groups (features of its linear models)
    sentences.py, fit.py  a postmortem's cause and fix sentences by a small logistic model, and its fitting
    fix.py        what is no fix (and no cause), whatever its words; cues_fix.py its words
    cues_metadata*.py  what is metadata (durations, impact, fields, status boilerplate), never a fix or cause
    metadata_kind.py  a metadata line's kind, for the reading eval's counts and the cause picks' veto (fix.py)
    over.py       "the incident is over" (the nudge to write down what was learned)
    notice.py     a notice of planned work (scheduled maintenance) is not an incident
    found.py      how an incident was found (an alert, a user report, a log line)
    cues_found.py its words (the vocabulary's section on how it was found)
    support.py    the one check that a field's quotes support it
    text.py       plain text of a Markdown line, statements cut to their caps, where sentences break
"""

from bot.reader.findings import Finding, Kind, Outcome, Quote, Reading, Stance, Statement
from bot.reader.over import says_it_is_over
from bot.reader.read import (
    MAX_STATEMENT_CHARS,
    MAX_STATEMENTS,
    is_metadata,
    read,
    stance,
    strip_metadata,
    without_metadata,
)
from bot.reader.support import Support, commands_and_urls, support

__all__ = [
    "MAX_STATEMENTS",
    "MAX_STATEMENT_CHARS",
    "Finding",
    "Kind",
    "Outcome",
    "Quote",
    "Reading",
    "Stance",
    "Statement",
    "Support",
    "commands_and_urls",
    "is_metadata",
    "read",
    "says_it_is_over",
    "stance",
    "strip_metadata",
    "support",
    "without_metadata",
]
