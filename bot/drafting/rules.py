"""The offline drafter: rules over the channel's own words, always available.

Responders say what they tried in passing ("restarted payments pods, errors back after 25
minutes"): a sentence with an action ("restarted", "raised", "rolled back"…) and a sign it did
not work ("still", "back after", "didn't help"…) is a failed attempt, split into what was
tried and why it failed. An action followed by a sign of recovery is the fix; "root cause
was…", "caused by…" name the cause; "found it in the logs…" says how it was found. Messages a
person marked with "Add to incident memory" come first. Every field quotes its message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

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
from bot.reader.chat import clip as _clip
from bot.reader.chat import split_attempt
from bot.reader.chat import tidy as _tidy
from bot.reader.cues import (
    CAUSE_MARKER,
    CHAT_ACTION,
    CHAT_FAILED,
    CHAT_RECOVERED,
    CHAT_SPLIT,
    FIX_MARKER,
    HOW_FOUND,
    LESSON_MARKER,
    STARTS_WITH_ACTION,
)
from bot.text_limits import ReadLimits, newest_within

OFFLINE = "offline"

_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
# a bare "still timing out" answers the message before it, if it came soon after
_FOLLOW_UP_WITHIN = timedelta(minutes=30)


def quote(entry: TimelineEntry, words: str | None = None) -> Quote:
    text = _clip(words or entry.text, QUOTE_CHARS)
    return Quote(message_ts=entry.message_ts or entry.at.isoformat(), author=entry.author, text=text)


@dataclass
class _Sentence:
    entry: TimelineEntry
    index: int
    text: str


def _sentences(timeline: list[TimelineEntry]) -> list[_Sentence]:
    found = []
    for index, entry in enumerate(timeline):
        for part in _SENTENCES.split(entry.text):
            if part.strip():
                found.append(_Sentence(entry, index, part.strip()))
    return found


def _after(marker: re.Pattern[str], text: str) -> str:
    match = marker.search(text)
    return _tidy(text[match.end() :]) if match else ""


def read_window(
    timeline: list[TimelineEntry], marks: list[Mark], limits: ReadLimits
) -> tuple[list[TimelineEntry], list[Mark], list[str]]:
    """What a draft reads: the newest messages within the draft's caps, each cut to the message
    cap, and the marks cut alike; with a note saying how many older messages were not read."""
    cap = limits.message_chars
    kept = newest_within([e.text[:cap] for e in timeline], messages=limits.draft_messages, chars=limits.draft_chars)
    notes = []
    if kept < len(timeline):
        notes.append(
            f"The {len(timeline) - kept} oldest messages were not read: a draft reads the newest "
            f"{limits.draft_messages} messages, {limits.draft_chars:,} characters at most."
        )
    window = timeline[len(timeline) - kept :]
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
        fields: dict[str, DraftedText | None] = {
            "root_cause": self._marked_text(marks, MarkKind.ROOT_CAUSE),
            "resolution": self._marked_text(marks, MarkKind.FIX),
        }
        sentences = _sentences(timeline)
        unmarked = [s for s in sentences if s.entry.message_ts not in marked]
        attempts += self._attempts(timeline, unmarked)
        fields["root_cause"] = fields["root_cause"] or self._last(unmarked, CAUSE_MARKER)
        fields["resolution"] = fields["resolution"] or self._fix(timeline, unmarked)
        fields["diagnosis"] = self._diagnosis(unmarked)
        fields["lesson"] = self._last(unmarked, LESSON_MARKER)
        notes = list(notes or []) + read_notes
        if len(attempts) > MAX_DRAFTED_ATTEMPTS:
            notes.append(
                f"{len(attempts)} failed attempts were found; the modal has room for the first {MAX_DRAFTED_ATTEMPTS}."
            )
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

    # ---- the channel's words ---------------------------------------------------------------

    def _attempts(self, timeline: list[TimelineEntry], sentences: list[_Sentence]) -> list[DraftedAttempt]:
        attempts: list[DraftedAttempt] = []
        used: set[int] = set()
        for position, sentence in enumerate(sentences):
            split = split_attempt(sentence.text)
            if split is not None:
                attempts.append(
                    DraftedAttempt(
                        action=split[0], why_it_failed=split[1], quotes=[quote(sentence.entry, sentence.text)]
                    )
                )
                used.add(sentence.index)
                continue
            # "bumped the pool size" … next message: "still timing out"
            if not STARTS_WITH_ACTION.match(sentence.text):
                continue
            if CHAT_RECOVERED.search(sentence.text) or CHAT_FAILED.search(sentence.text):
                continue
            follow = sentences[position + 1] if position + 1 < len(sentences) else None
            if (
                follow is not None
                and follow.index == sentence.index + 1
                and follow.index not in used
                and CHAT_FAILED.search(follow.text)
                and not CHAT_ACTION.search(follow.text)
                and follow.entry.at - sentence.entry.at <= _FOLLOW_UP_WITHIN
            ):
                attempts.append(
                    DraftedAttempt(
                        action=_tidy(sentence.text),
                        why_it_failed=_tidy(follow.text),
                        quotes=[quote(sentence.entry, sentence.text), quote(follow.entry, follow.text)],
                    )
                )
                used.update((sentence.index, follow.index))
        return attempts

    def _fix(self, timeline: list[TimelineEntry], sentences: list[_Sentence]) -> DraftedText | None:
        explicit = self._last(sentences, FIX_MARKER)
        if explicit is not None:
            return explicit
        found: DraftedText | None = None
        for position, sentence in enumerate(sentences):
            action = CHAT_ACTION.search(sentence.text)
            if action is None or CHAT_FAILED.search(sentence.text):
                continue
            recovered = CHAT_RECOVERED.search(sentence.text)
            if recovered is not None:
                if action.start() >= recovered.start():  # "all clear" is not an action that cleared something
                    continue
                action = CHAT_SPLIT.split(sentence.text[: recovered.start()])[0] or sentence.text
                found = DraftedText(
                    text=_tidy(action) or _tidy(sentence.text), quotes=[quote(sentence.entry, sentence.text)]
                )
                continue
            follow = sentences[position + 1] if position + 1 < len(sentences) else None
            if (
                follow is not None
                and follow.index == sentence.index + 1
                and CHAT_RECOVERED.search(follow.text)
                and not CHAT_FAILED.search(follow.text)
            ):
                found = DraftedText(
                    text=_tidy(sentence.text),
                    quotes=[quote(sentence.entry, sentence.text), quote(follow.entry, follow.text)],
                )
        return found

    def _diagnosis(self, sentences: list[_Sentence]) -> DraftedText | None:
        chosen = [s for s in sentences if HOW_FOUND.search(s.text)]
        if not chosen:
            return None
        last = chosen[-1]
        return DraftedText(text=_tidy(last.text), quotes=[quote(last.entry, last.text)])

    def _last(self, sentences: list[_Sentence], marker: re.Pattern[str]) -> DraftedText | None:
        for sentence in reversed(sentences):
            text = _after(marker, sentence.text)
            if text:
                return DraftedText(text=text, quotes=[quote(sentence.entry, sentence.text)])
        return None


def draft_offline(
    timeline: list[TimelineEntry], marks: list[Mark], limits: ReadLimits, notes: list[str] | None = None
) -> ResolutionDraft:
    """The rules' draft, as a plain function a reading process can be handed."""
    return OfflineDrafter(limits).answer(timeline, marks, notes=notes)
