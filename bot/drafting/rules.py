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
from bot.models import MAX_TEXT, IncidentRecord, TimelineEntry
from bot.text_limits import ReadLimits, newest_within

OFFLINE = "offline"

_ACTION = re.compile(
    r"\b(?:restart(?:ed)?|reboot(?:ed)?|bounc(?:ed|e)|recycl(?:ed|e)|rais(?:ed|e)|increas(?:ed|e)|bump(?:ed)?|"
    r"doubl(?:ed|e)|upp?ed|scal(?:ed|e)(?: up| out| down)?|roll(?:ed)? ?back|rolled back|revert(?:ed)?|"
    r"redeployed|deployed|shipped|flush(?:ed)?|clear(?:ed)?|kill(?:ed)?|fail(?:ed)? ?over|"
    r"drain(?:ed)?|disabl(?:ed|e)|enabl(?:ed|e)|tri(?:ed)|turn(?:ed)? (?:off|on)|add(?:ed)?|remov(?:ed|e)|"
    r"purg(?:ed|e)|rotat(?:ed|e)|patch(?:ed)?|lower(?:ed)?|reduc(?:ed|e)|blocked|throttl(?:ed|e)|"
    r"rate.limited|switch(?:ed)?|moved|resiz(?:ed|e)|vacuum(?:ed)?|reindex(?:ed)?|truncat(?:ed|e))\b",
    re.IGNORECASE,
)
_FAILED = re.compile(
    r"\b(?:still|again|came back|comes? back|(?:errors?|alerts?|timeouts?|latency|it)(?: (?:is|are|was|were))? back|"
    r"back after|returned|reappeared|didn'?t (?:help|work|fix|change)|did not (?:help|work|fix|change)|"
    r"doesn'?t (?:help|work)|does not (?:help|work)|no (?:change|luck|effect|improvement|difference|dice)|"
    r"not (?:fixed|helping|working|enough)|same (?:errors?|problem|thing)|made (?:it|things) worse|"
    r"only (?:bought|helped for|lasted)|bought us|for (?:a few|about|\d{1,4}) min\w{0,12}\b.{0,80}?\bthen|nope)\b",
    re.IGNORECASE,
)
_RECOVERED = re.compile(
    r"\b(?:recovered|recovering|back to normal|(?:errors?|alerts?|timeouts?|5xx|latency)(?: (?:are|is|have|has))? "
    r"(?:gone|stopped|dropped|cleared|down|normal)|stable|stabili[sz]ed|that (?:fixed|did) it|fixed it|"
    r"looks? good|green again|healthy|all clear|mitigated|resolved|working again|back up)\b",
    re.IGNORECASE,
)
_FIX_MARKER = re.compile(
    r"\b(?:the fix (?:is|was)|fix(?:ed)? (?:by|with)|resolved (?:by|with)|mitigated (?:by|with)|fix:)\s*:?\s*",
    re.IGNORECASE,
)
_CAUSE_MARKER = re.compile(
    r"\b(?:root ?cause(?: is| was|:)|the cause (?:is|was)|caused by|turns out|turned out|"
    r"culprit (?:is|was)|it was because|because of)\s*:?\s*",
    re.IGNORECASE,
)
_HOW_FOUND = re.compile(
    r"\b(?:(?:found|spotted|noticed|saw|seen|confirmed) (?:it |this |that )?(?:in|on|via|through|from|with|by)|"
    r"(?:dashboard|graph|logs?|query|trace|profile|heap ?dump|metrics?|explain|pg_stat\w*) "
    r"(?:show(?:s|ed|n)?|says|said|reveal(?:s|ed)|point(?:s|ed)))\b",
    re.IGNORECASE,
)
_LESSON = re.compile(r"\b(?:lesson(?: learned)?:|next time|we should|action item:?|follow.?up:)\s*", re.IGNORECASE)
# where "what was tried" ends and "why it failed" begins; no leading \s*: tried at every space of
# a long run of spaces, it made splitting quadratic (the pieces are tidied of spaces anyway)
_SPLIT = re.compile(r"(?:,|;|\s-\s|\s—\s|\s–\s|\.\.\.|…|\bbut\b|\bthen\b)", re.IGNORECASE)
_STARTS_WITH_ACTION = re.compile(
    r"^(?:(?:i|we|i've|we've|just|so|then|also|ok|okay),? )*" + _ACTION.pattern, re.IGNORECASE
)
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
# a bare "still timing out" answers the message before it, if it came soon after
_FOLLOW_UP_WITHIN = timedelta(minutes=30)


def _clip(text: str, limit: int = MAX_TEXT) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _tidy(text: str) -> str:
    """A clause as a field's text: trimmed of joining words and punctuation, first letter up."""
    text = re.sub(r"^(?:and|so|then|we|i|just|also)\s+", "", text.strip(" ,;:-—–.…"), flags=re.IGNORECASE)
    text = text.strip(" ,;:-—–.…")
    return _clip(text[:1].upper() + text[1:]) if text else ""


def quote(entry: TimelineEntry, words: str | None = None) -> Quote:
    text = _clip(words or entry.text, QUOTE_CHARS)
    return Quote(message_ts=entry.message_ts or entry.at.isoformat(), author=entry.author, text=text)


def split_attempt(sentence: str) -> tuple[str, str] | None:
    """("restarted payments pods", "errors back after 25 minutes"), or None when the sentence
    does not say an action failed."""
    failed = _FAILED.search(sentence)
    action = _ACTION.search(sentence)
    if failed is None or action is None or action.start() > failed.start():
        return None
    before = sentence[: failed.start()]
    cuts = [m for m in _SPLIT.finditer(before) if m.start() > action.end()]
    if cuts:
        tried, why = sentence[: cuts[-1].start()], sentence[cuts[-1].end() :]
    else:
        tried, why = before, sentence[failed.start() :]
    tried, why = _tidy(tried[action.start() :] if action.start() < 12 else tried), _tidy(why)
    return (tried, why) if tried and why else None


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
        fields["root_cause"] = fields["root_cause"] or self._last(unmarked, _CAUSE_MARKER)
        fields["resolution"] = fields["resolution"] or self._fix(timeline, unmarked)
        fields["diagnosis"] = self._diagnosis(unmarked)
        fields["lesson"] = self._last(unmarked, _LESSON)
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
            if not _STARTS_WITH_ACTION.match(sentence.text):
                continue
            if _RECOVERED.search(sentence.text) or _FAILED.search(sentence.text):
                continue
            follow = sentences[position + 1] if position + 1 < len(sentences) else None
            if (
                follow is not None
                and follow.index == sentence.index + 1
                and follow.index not in used
                and _FAILED.search(follow.text)
                and not _ACTION.search(follow.text)
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
        explicit = self._last(sentences, _FIX_MARKER)
        if explicit is not None:
            return explicit
        found: DraftedText | None = None
        for position, sentence in enumerate(sentences):
            action = _ACTION.search(sentence.text)
            if action is None or _FAILED.search(sentence.text):
                continue
            recovered = _RECOVERED.search(sentence.text)
            if recovered is not None:
                if action.start() >= recovered.start():  # "all clear" is not an action that cleared something
                    continue
                action = _SPLIT.split(sentence.text[: recovered.start()])[0] or sentence.text
                found = DraftedText(
                    text=_tidy(action) or _tidy(sentence.text), quotes=[quote(sentence.entry, sentence.text)]
                )
                continue
            follow = sentences[position + 1] if position + 1 < len(sentences) else None
            if (
                follow is not None
                and follow.index == sentence.index + 1
                and _RECOVERED.search(follow.text)
                and not _FAILED.search(follow.text)
            ):
                found = DraftedText(
                    text=_tidy(sentence.text),
                    quotes=[quote(sentence.entry, sentence.text), quote(follow.entry, follow.text)],
                )
        return found

    def _diagnosis(self, sentences: list[_Sentence]) -> DraftedText | None:
        chosen = [s for s in sentences if _HOW_FOUND.search(s.text)]
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
