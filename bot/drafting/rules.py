"""The offline drafter: the channel's own words, read by the one reader, always available.

The one reader (`bot.reader.read(…, mode="chat")`, bot/reader/chat.py) finds the cause, the fix, how it was found, the lesson
and the attempts that did not work, each with the words it came from; this module puts them in
the resolution modal: messages a person marked with "Add to incident memory" first, every field
with its quotes, a cause said with doubt labelled a hypothesis, and a note naming the fields it
could not fill. It reads the newest messages within the draft's caps (`read_window`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.drafting.models import (
    MAX_DRAFTED_ATTEMPTS,
    QUOTE_CHARS,
    DraftedAttempt,
    DraftedText,
    Mark,
    MarkKind,
    Quote,
    ResolutionDraft,
)
from bot.jobs.reading import INLINE, ReadingPool
from bot.models import IncidentRecord, TimelineEntry
from bot.reader import Finding, Kind, Outcome, Stance, Statement, read
from bot.reader.chat import clip as _clip
from bot.reader.chat import split_attempt
from bot.reader.chat import tidy as _tidy
from bot.text_limits import ReadLimits, newest_shared

__all__ = [
    "HYPOTHESIS",
    "OFFLINE",
    "OfflineDrafter",
    "draft_offline",
    "quote",
    "read_window",
    "split_attempt",
    "unfilled",
]

OFFLINE = "offline"
# a cause the channel said with doubt ("I think…", "looks like…") is drafted as one
HYPOTHESIS = "Hypothesis (said with doubt in the channel): "


def quote(entry: TimelineEntry, words: str | None = None) -> Quote:
    text = _clip(words or entry.text, QUOTE_CHARS)
    return Quote(message_ts=entry.message_ts or entry.at.isoformat(), author=entry.author, text=text)


def read_window(
    timeline: list[TimelineEntry], marks: list[Mark], limits: ReadLimits
) -> tuple[list[TimelineEntry], list[Mark], list[str]]:
    """What a draft reads: the newest messages within the draft's caps, shared between their
    authors (`newest_shared`: one member's many messages do not push out what others said), in
    channel order, each cut to the message cap, and the marks cut alike; with a note saying how
    many older messages were not read."""
    cap = limits.message_chars
    kept = newest_shared(
        [e.text[:cap] for e in timeline],
        [e.author for e in timeline],
        messages=limits.draft_messages,
        chars=limits.draft_chars,
    )
    notes = []
    if len(kept) < len(timeline):
        notes.append(
            f"{len(timeline) - len(kept)} older messages were not read: a draft reads the newest "
            f"{limits.draft_messages} messages, {limits.draft_chars:,} characters at most, shared between their authors."
        )
    window = [timeline[i] for i in kept]
    window = [e if len(e.text) <= cap else e.model_copy(update={"text": e.text[:cap]}) for e in window]
    marks = [m if len(m.text) <= cap else m.model_copy(update={"text": m.text[:cap]}) for m in marks]
    return window, marks, notes


class OfflineDrafter:
    """Rules over the timeline; deterministic, never calls out; reads within `limits`, in time
    linear in what it reads."""

    def __init__(self, limits: ReadLimits | None = None, reading: ReadingPool = INLINE) -> None:
        self.limits = limits or ReadLimits()
        self.reading = reading

    async def draft(
        self, incident: IncidentRecord, timeline: list[TimelineEntry], marks: list[Mark]
    ) -> ResolutionDraft:
        return await self.read(timeline, marks)

    async def read(
        self, timeline: list[TimelineEntry], marks: list[Mark], *, notes: list[str] | None = None
    ) -> ResolutionDraft:
        """`answer`, in the reading pool (off the event loop, within its deadline)."""
        size = sum(len(e.text) for e in timeline) + sum(len(m.text) for m in marks)
        return await self.reading.run(
            "Drafting from the channel", draft_offline, timeline, marks, self.limits, notes, size=size
        )

    async def aclose(self) -> None:
        return None

    def answer(
        self, timeline: list[TimelineEntry], marks: list[Mark], *, notes: list[str] | None = None
    ) -> ResolutionDraft:
        timeline, marks, read_notes = read_window(timeline, marks, self.limits)
        by_ts = {e.message_ts: e for e in timeline if e.message_ts}
        marked = {m.message_ts for m in marks}
        attempts = [
            self._marked_attempt(m, by_ts.get(m.message_ts)) for m in marks if m.kind is MarkKind.FAILED_ATTEMPT
        ]
        reading = read([Statement(e.text, e.message_ts or "", e.author, e.at) for e in timeline], mode="chat")
        # a marked message is drafted from its mark; the reader's findings from it give way
        found = [f for f in reading.findings if timeline[f.quotes[0].statement].message_ts not in marked]
        attempts += [
            _attempt(timeline, f) for f in found if f.kind is Kind.ACTION and f.outcome is Outcome.DID_NOT_WORK
        ]
        first = {kind: next((f for f in found if f.kind is kind), None) for kind in Kind}
        fields: dict[str, DraftedText | None] = {
            "root_cause": self._marked_text(marks, MarkKind.ROOT_CAUSE) or _text(timeline, first[Kind.CAUSE]),
            "resolution": self._marked_text(marks, MarkKind.FIX) or _text(timeline, first[Kind.FIX]),
            "diagnosis": _text(timeline, first[Kind.FOUND]),
            "lesson": _text(timeline, first[Kind.FOLLOW_UP]),
        }
        notes = list(notes or []) + read_notes + reading.notes
        if len(attempts) > MAX_DRAFTED_ATTEMPTS:
            notes.append(
                f"{len(attempts)} failed attempts were found; the modal has room for the first {MAX_DRAFTED_ATTEMPTS}."
            )
        notes += unfilled(fields, attempts)
        return ResolutionDraft(
            drafter=OFFLINE,
            failed_attempts=attempts[:MAX_DRAFTED_ATTEMPTS],
            notes=notes,
            **{k: v for k, v in fields.items() if v is not None},
        )

    # ---- marks -----------------------------------------------------------------------------

    @staticmethod
    def _mark_quote(mark: Mark, entry: TimelineEntry | None) -> Quote:
        return Quote(
            message_ts=mark.message_ts,
            author=entry.author if entry else mark.author,
            text=_clip(mark.text, QUOTE_CHARS),
        )

    def _marked_attempt(self, mark: Mark, entry: TimelineEntry | None) -> DraftedAttempt:
        """A message the person marked "did not work" with the message shortcut: the person decided it is a
        failed attempt, not the reader (not a second reading of attempts); `split_attempt` only cuts their words
        into what was tried and why, when they say both."""
        split = split_attempt(mark.text)
        action = split[0] if split else _tidy(mark.text)
        why = mark.why or (split[1] if split else "")
        return DraftedAttempt(
            action=action or _clip(mark.text), why_it_failed=_clip(why), quotes=[self._mark_quote(mark, entry)]
        )

    def _marked_text(self, marks: list[Mark], kind: MarkKind) -> DraftedText | None:
        chosen = [m for m in marks if m.kind is kind]
        if not chosen:
            return None
        text = "\n".join(_tidy(m.text) for m in chosen)
        return DraftedText(text=_clip(text), quotes=[self._mark_quote(m, None) for m in chosen])


# ---- the reader's findings, as the modal's fields ---------------------------------------------------


def _quotes(timeline: list[TimelineEntry], finding: Finding) -> list[Quote]:
    return [quote(timeline[said.statement], said.text) for said in finding.quotes]


def _text(timeline: list[TimelineEntry], finding: Finding | None) -> DraftedText | None:
    if finding is None or finding.stance is Stance.NEGATED:
        return None
    text = f"{HYPOTHESIS}{finding.text}" if finding.stance is Stance.HEDGED else finding.text
    return DraftedText(text=_clip(text), quotes=_quotes(timeline, finding))


def _attempt(timeline: list[TimelineEntry], finding: Finding) -> DraftedAttempt:
    return DraftedAttempt(action=finding.text, why_it_failed=_clip(finding.why), quotes=_quotes(timeline, finding))


_FIELD_NAMES = {"root_cause": "root cause", "diagnosis": "how it was found", "resolution": "fix"}


def unfilled(fields: Mapping[str, DraftedText | None], attempts: Sequence[DraftedAttempt]) -> list[str]:
    """The note that says what the draft left for the person: an empty field is honest, and should
    be seen to be empty on purpose."""
    empty = [name for key, name in _FIELD_NAMES.items() if fields.get(key) is None]
    if not attempts:
        empty.append("failed attempts")
    if not empty:
        return []
    return [f"Not drafted (the channel does not say it plainly enough to quote): {', '.join(empty)}."]


def draft_offline(
    timeline: list[TimelineEntry], marks: list[Mark], limits: ReadLimits, notes: list[str] | None = None
) -> ResolutionDraft:
    """The rules' draft, as a plain function a reading process can be handed."""
    return OfflineDrafter(limits).answer(timeline, marks, notes=notes)
