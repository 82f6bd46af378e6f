"""A drafted resolution: what a drafter read in the incident's channel, each field with the
messages it came from. Pure domain, free of Slack and Anthropic.

A draft is a proposal shown in the resolution modal; nothing is stored as memory until a person
submits it. Every drafted field carries at least one `Quote` (the message's ts, its author and
the words it came from): a field that cannot point to the channel is left empty.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from bot.models import Identifier, RequiredText, Strict, Text

MAX_DRAFTED_ATTEMPTS = 5  # the modal's attempt rows
QUOTE_CHARS = 300


class Quote(Strict):
    """The words of one channel message a drafted field came from."""

    message_ts: Identifier
    author: Identifier
    text: RequiredText


class DraftedText(Strict):
    text: RequiredText
    quotes: list[Quote] = Field(min_length=1)


class DraftedAttempt(Strict):
    action: RequiredText
    why_it_failed: Text = ""
    quotes: list[Quote] = Field(min_length=1)


class MarkKind(StrEnum):
    """What "Add to incident memory" can mark a message as."""

    FAILED_ATTEMPT = "failed_attempt"
    FIX = "fix"
    ROOT_CAUSE = "root_cause"


class Mark(Strict):
    """A channel message a person marked for the draft (with why, for a failed attempt)."""

    message_ts: Identifier
    author: Identifier
    text: RequiredText
    kind: MarkKind
    why: Text | None = None
    marked_by: Identifier


# the outcome a drafter reads from the channel, in the modal's order
OUTCOME_FIELDS = ("root_cause", "diagnosis", "resolution", "lesson")
# the modal's drafted text fields, in its order: the symptoms are the channel's first report
# (bot/drafting/first_report.py, offered when none were declared), never read by a drafter
TEXT_FIELDS = ("symptoms", *OUTCOME_FIELDS)


class ResolutionDraft(Strict):
    """What a drafter proposes for the resolution modal."""

    drafter: Identifier = Field(description='"offline", or "anthropic:<model>"')
    symptoms: DraftedText | None = None
    root_cause: DraftedText | None = None
    diagnosis: DraftedText | None = None
    resolution: DraftedText | None = None
    lesson: DraftedText | None = None
    failed_attempts: list[DraftedAttempt] = Field(default_factory=list, max_length=MAX_DRAFTED_ATTEMPTS)
    notes: list[Text] = Field(default_factory=list, description="what the person should know about this draft")

    def text_fields(self) -> dict[str, DraftedText]:
        """The drafted text fields by name (only those drafted)."""
        return {name: value for name in TEXT_FIELDS if (value := getattr(self, name)) is not None}

    @property
    def is_empty(self) -> bool:
        """No outcome drafted (the first report offered as symptoms is no outcome)."""
        return not any(name in OUTCOME_FIELDS for name in self.text_fields()) and not self.failed_attempts

    def without_message(self, message_ts: str) -> ResolutionDraft:
        """The draft with every field that quotes the message at `message_ts` left out (it was
        deleted or edited: what was drafted from it may no longer be what anyone says)."""

        def keeps(quotes: list[Quote]) -> bool:
            return all(q.message_ts != message_ts for q in quotes)

        fields = {name: value if keeps(value.quotes) else None for name, value in self.text_fields().items()}
        attempts = [a for a in self.failed_attempts if keeps(a.quotes)]
        if all(v is not None for v in fields.values()) and len(attempts) == len(self.failed_attempts):
            return self
        note = "A field drafted from a message that was since deleted or edited was left out."
        notes = self.notes if note in self.notes else [*self.notes, note]
        return self.model_copy(update={**fields, "failed_attempts": attempts, "notes": notes})
