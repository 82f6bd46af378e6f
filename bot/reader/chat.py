"""Channel messages, read: the cause, the fix, how it was found, the lesson and the attempts that
did not work, each with the words of the messages it came from (`read_chat`). The cue words are
bot/reader/cues.py's; the offline drafter (bot/drafting/rules.py) puts what this finds in the
resolution modal. Which sentences are failed attempts is decided once, by the conversation reader
(bot/reader/conversation.py, with the ones told in so many words from bot/reader/conversation_told.py);
this module only puts them in words. `split_attempt` (conversation_told.py, named here for the
drafter's marks) cuts a sentence that says an action failed into what was tried and why it failed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bot.reader.conversation import ConversationReading, Picked, never, read_conversation
from bot.reader.conversation_features import CODE_BLOCK, Message, cues_of, split_sentences
from bot.reader.conversation_told import clip, split_attempt, tidy
from bot.reader.cues import (
    CAUSE_HEDGE,
    CAUSE_HEDGED_OPENING,
    CAUSE_MARKER,
    CAUSE_NEGATED,
    CAUSE_OPENING_NOT,
    CHAT_ACTION,
    CHAT_FAILED,
    CHAT_RECOVERED,
    CHAT_SPLIT,
    FIX_MARKER,
    LESSON_MARKER,
    RESOLVED,
)
from bot.reader.cues_conversation import CONVERSATION_CUES
from bot.reader.cues_found import (
    ADJACENT_SOURCE,
    ERROR_LINE,
    EVIDENCE_INTRO,
    EVIDENCE_TOLD,
    FOUND_BY_INSTRUMENT,
    LOOKING_STEP,
    NOT_AN_ERROR_LINE,
    OPENING_SOURCE,
    SYMPTOM_PASTE,
    UNPROVEN_IN_CHANNEL,
)
from bot.reader.found import LATER_STATE, MAX_SENTENCE_CHARS, how_found_cue
from bot.text_limits import MESSAGE_SENTENCES

__all__ = ["ChatFinding", "ChatMessage", "ChatReading", "Said", "clip", "read_chat", "split_attempt", "tidy", "whole"]

# ---- a whole channel, read: the findings the offline drafter puts in the modal ----------------------

# how it was found is told as the response begins: fold A's labelled ones are all in the first nine messages; a log
# read late in a long thread ("Audit logs also indicate …", message 66 of 68) is the look back at the cause
FOUND_WITHIN = 20  # messages
MAX_QUOTED_CHARS = 20_000  # a message's start, searched for a pasted block
QUOTED_LINE_CHARS = 200  # an error line quoted as how it was found


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One channel message as the reader gets it (already cut to the reading's caps)."""

    author: str
    text: str
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Said:
    """The words of one message a finding came from."""

    message: int  # index into the messages read
    words: str


@dataclass(frozen=True, slots=True)
class ChatFinding:
    text: str
    quotes: tuple[Said, ...]
    why: str = ""  # an attempt's: why it did not work
    hedged: bool = False  # a cause said with doubt: offered as a hypothesis


@dataclass(slots=True)
class ChatReading:
    root_cause: ChatFinding | None = None
    fix: ChatFinding | None = None
    found: ChatFinding | None = None
    lesson: ChatFinding | None = None
    attempts: list[ChatFinding] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Sentence:
    message: int
    text: str


def whole(text: str) -> str:
    """A whole sentence as a field's text: trimmed of end punctuation and a list item's bullet, first letter up."""
    text = text.strip(" ,;:-—–.…*•")
    return clip(text[:1].upper() + text[1:]) if text else ""


def read_chat(messages: Sequence[ChatMessage]) -> ChatReading:
    """What the channel says of the cause, the fix, how it was found, the lesson and the attempts
    that did not work. The explicit phrasings come first ("root cause was …", "the fix was …",
    "restarted X, still failing", an action then a recovery); the conversation's models
    (bot/reader/conversation.py) fill what they leave empty; a cause still empty is taken from what broke told by the
    one who fixed it, else from a reply opening with a doubt (either a hypothesis)."""
    talk = read_conversation([Message(m.author, m.text, m.at) for m in messages])
    sentences = [_Sentence(s.message, s.text) for s in talk.sentences]
    reading = ChatReading()
    reading.root_cause = (
        _last(sentences, CAUSE_MARKER, "cause")
        or _confessed(sentences)
        or _picked(talk, talk.cause)
        or _told_with_the_fix(talk)
        or _hedged_opening(talk)
    )
    reading.fix = _last(sentences, FIX_MARKER, "fix") or _fix(_picked(talk, talk.fix), _action_then_recovery(sentences))
    reading.found = _diagnosis(sentences) or _quoted_evidence(messages)
    reading.lesson = _last(sentences, LESSON_MARKER, "lesson")
    # which sentences are failed attempts is the conversation reader's (told in so many words, cut
    # already, or scored); here they are only put in words
    for picked in talk.attempts:
        sentence = talk.sentences[picked.sentence]
        if picked.words is not None:
            told = [sentence] if picked.follow is None else [sentence, talk.sentences[picked.follow]]
            quoted = tuple(Said(s.message, s.text) for s in told)
            reading.attempts.append(ChatFinding(picked.words[0], quoted, why=picked.words[1]))
            continue
        split = None if picked.suggested else split_attempt(sentence.text) or _split_at_outcome(sentence.text)
        action, why = split if split else (_as_step(sentence.text) if picked.suggested else whole(sentence.text), "")
        quotes = [Said(sentence.message, sentence.text)]
        if not split and picked.follow is not None:
            follow = talk.sentences[picked.follow]
            why = whole(follow.text)
            quotes.append(Said(follow.message, follow.text))
        reading.attempts.append(ChatFinding(action, tuple(quotes), why=why))
    return reading


_ASKED = re.compile(
    r"^(?:(?:@\w{1,40}[,:]?|please|could|can|would|will|did|have|you|maybe|just|tr(?:y|ied)(?: to)?|and|then|simply|"
    r"should)\s{1,8}){1,12}",
    re.I,
)


def _as_step(sentence: str) -> str:
    """ "Could you please retrigger it?" as the step that was taken: "Retrigger it"."""
    return whole(_ASKED.sub("", sentence.strip()).rstrip(" ?")) or whole(sentence)


def _split_at_outcome(sentence: str) -> tuple[str, str] | None:
    """ "I tried to cancel it and start a new one, but nothing happened": cut where the outcome
    ("nothing happened", "doesn't seem to do anything") begins, at the last joint before it."""
    failed = CONVERSATION_CUES["failed_outcome"].search(sentence)
    if failed is None:
        return None
    cuts = list(CHAT_SPLIT.finditer(sentence[: failed.start()]))
    if cuts:
        tried, why = sentence[: cuts[-1].start()], sentence[cuts[-1].end() :]
    else:
        tried, why = sentence[: failed.start()], sentence[failed.start() :]
    tried, why = tidy(tried), tidy(why)
    return (tried, why) if tried and why else None


def _said(sentence: _Sentence) -> Said:
    return Said(sentence.message, sentence.text)


def _picked(talk: ConversationReading, picked: Picked | None) -> ChatFinding | None:
    if picked is None:
        return None
    sentence = talk.sentences[picked.sentence]
    quotes = [Said(sentence.message, sentence.text)]
    if picked.follow is not None:  # "that worked": the words that say the action fixed it
        follow = talk.sentences[picked.follow]
        quotes.append(Said(follow.message, follow.text))
    return ChatFinding(whole(sentence.text), tuple(quotes), hedged=picked.hedged)


def _confessed(sentences: list[_Sentence]) -> ChatFinding | None:
    """ "I had disabled the timers during maintenance and forgot to turn them back on": the cause,
    told by the one who caused it (never an attempt, never the fix)."""
    for sentence in reversed(sentences):
        if CONVERSATION_CUES["confession"].search(sentence.text) and not never("cause", sentence.text):
            return ChatFinding(whole(sentence.text), (_said(sentence),))
    return None


# what a cause told in so many words is never: asked, planned, the service back, the outage itself
_NO_TOLD_CAUSE = frozenset({"question", "plan", "resolved_now", "recovered_again", "down_state", "tried"})


def _told_with_the_fix(talk: ConversationReading) -> ChatFinding | None:
    """ "That's fixed now - a database update filled the server with Wal.": when nothing else names the cause, a
    part that broke told in the past by the one who fixed it, after the opening message (the last such). Offered as a
    hypothesis: out of sample these fallbacks' causes are right less often than the field's own (docs/BENCHMARKS.md),
    and precision comes first."""
    for s in reversed(talk.sentences):
        f = s.features
        if s.message == 0 or "by_fixer" not in f or "hedge" in f or "question" in f or "plan" in f:
            continue
        # the cue group `broke_past` (cues_conversation.py), read from the text: no feature (`NOT_WEIGHED`)
        if "broke_past" in cues_of(s.text) and not never("cause", s.text):
            return ChatFinding(whole(s.text), (Said(s.message, s.text),), hedged=True)
    return None


def _hedged_opening(talk: ConversationReading) -> ChatFinding | None:
    """ "Looks like the compiler-benchmark job artifacts have been hogging disk space": when nothing else names the
    cause, a reply that opens with a doubt and goes on to say what is wrong, offered as a hypothesis (the last such);
    never the trouble still there or the same as before, the service back, a plan or a question."""
    for s in reversed(talk.sentences):
        if s.message == 0 or s.features & _NO_TOLD_CAUSE or CAUSE_OPENING_NOT.search(s.text):
            continue
        if CAUSE_HEDGED_OPENING.match(s.text.strip()) and not never("cause", s.text):
            return ChatFinding(whole(s.text), (Said(s.message, s.text),), hedged=True)
    return None


def _fix(picked: ChatFinding | None, rule: ChatFinding | None) -> ChatFinding | None:
    """The model's fix; the rule's ("rolled back X, errors gone" → "Rolled back X") when it is the
    same sentence or the model found none."""
    if picked is None or (rule is not None and rule.quotes[0] == picked.quotes[0]):
        return rule or picked
    return picked


def _last(sentences: list[_Sentence], marker: re.Pattern[str], kind: str) -> ChatFinding | None:
    """The words after the last "root cause was" / "the fix was" / "next time" that is not vetoed
    ("not sure what the root cause was", "the fix was merged but has not propagated")."""
    for sentence in reversed(sentences):
        match = marker.search(sentence.text)
        if match is None or (kind != "lesson" and never(kind, sentence.text)):
            continue
        text = tidy(sentence.text[match.end() :])
        if text:
            hedged = kind == "cause" and bool(CONVERSATION_CUES["hedge"].search(sentence.text))
            return ChatFinding(text, (_said(sentence),), hedged=hedged)
    return None


def _action_then_recovery(sentences: list[_Sentence]) -> ChatFinding | None:
    """ "rolled back payments-client to 2.2, errors gone", or the action with the next message
    saying it recovered: the last such."""
    found: ChatFinding | None = None
    for position, sentence in enumerate(sentences):
        action = CHAT_ACTION.search(sentence.text)
        if action is None or CHAT_FAILED.search(sentence.text) or never("fix", sentence.text):
            continue
        recovered = CHAT_RECOVERED.search(sentence.text)
        if recovered is not None:
            if action.start() >= recovered.start():  # "all clear" is not an action that cleared something
                continue
            # the clause that names the step, not one before it ("well, the restart fixed it": not "well")
            told = sentence.text[: recovered.start()]
            start = max((cut.end() for cut in CHAT_SPLIT.finditer(told) if cut.end() <= action.start()), default=0)
            clause = CHAT_SPLIT.split(told[start:])[0] or sentence.text
            found = ChatFinding(tidy(clause) or tidy(sentence.text), (_said(sentence),))
            continue
        follow = sentences[position + 1] if position + 1 < len(sentences) else None
        if (
            follow is not None
            and follow.message == sentence.message + 1
            and CHAT_RECOVERED.search(follow.text)
            and not CHAT_FAILED.search(follow.text)
        ):
            found = ChatFinding(tidy(sentence.text), (_said(sentence), _said(follow)))
    return found


def _diagnosis(sentences: list[_Sentence]) -> ChatFinding | None:
    """The first sentence after the opening message that says how it was found in the reader's one
    vocabulary (bot/reader/found.py) and names what showed it ("got an alert earlier this morning",
    "The logs show …"); never the opening report itself, a step of looking ("checking dashboards"),
    nor an issue template's heading ("Describe the outage: …")."""
    for sentence in sentences:
        if sentence.message > FOUND_WITHIN:
            break
        text = sentence.text[:MAX_SENTENCE_CHARS]
        if (sentence.message == 0 and not OPENING_SOURCE.match(text)) or CONVERSATION_CUES["template"].search(text):
            continue
        cue = how_found_cue(text)
        if sentence.message > 0 and cue and UNPROVEN_IN_CHANNEL.fullmatch(cue) and not ADJACENT_SOURCE.fullmatch(cue):
            continue
        # a look is the looking, not the finding, unless it opens the report that tells what it showed (OPENING_SOURCE)
        looking = cue is not None and LOOKING_STEP.match(cue) and sentence.message > 0
        if cue and not looking and FOUND_BY_INSTRUMENT.search(text):
            return ChatFinding(tidy(sentence.text), (_said(sentence),))
    return None


def _quoted_evidence(messages: Sequence[ChatMessage]) -> ChatFinding | None:
    """A message after the opening that pastes a machine's error in a code block and says around it that
    the block showed the trouble, or gives the cause the block bears out ("The issue was caused by Redis being killed
    … Here are the relevant log entries that identified the problem: ``` … Out of memory: Kill process 61377
    (redis-server) … ```"): that sentence and the block's first two error lines. A block with no words around it, or
    pasted as the symptom met or going on ("I get the following error:", "We still get ``` … ```"), is not how it was
    found."""
    for index, message in enumerate(messages[: FOUND_WITHIN + 1]):
        if index == 0:
            continue
        text = message.text[:MAX_QUOTED_CHARS]
        # a log's error is often two lines, what failed then why ("Failed to write out the queue file …" then
        # "java.io.IOException: No space left on device"): the first block's first two error lines
        blocks = [
            [line.strip() for line in block.strip("`").splitlines() if _error_told(line)]
            for block in CODE_BLOCK.findall(text)
        ]
        errors = next((found for found in blocks if found), [])[:2]
        line = " / ".join(clip(error, QUOTED_LINE_CHARS) for error in errors) or None
        # its words as the reader's sentences are: the message's first MESSAGE_SENTENCES, each cut at MAX_SENTENCE_CHARS
        prose = [said[:MAX_SENTENCE_CHARS] for said in split_sentences(text, MESSAGE_SENTENCES)] if line else []
        if not prose or any(LATER_STATE.search(s) or SYMPTOM_PASTE.search(s) or _a_try(s) for s in prose):
            continue
        # the sentence that names the paste as the log or its entries first, else the one that gives the cause
        intro = next((s for s in prose if EVIDENCE_INTRO.search(s)), None) or next(
            (s for s in prose if _cause_told(s)), None
        )
        # a message that tells the recovery pastes the error for the record, unless it says the paste showed the problem
        if any(_recovered(s) for s in prose) and not any(EVIDENCE_TOLD.search(s) for s in prose):
            continue
        if intro is not None and line is not None:
            # each quote the message's own words: the sentence, then each error line as pasted
            quotes = (Said(index, intro), *(Said(index, error) for error in errors))
            said = (
                intro.strip() if intro.lstrip().lower().startswith(("http://", "https://")) else tidy(intro)
            )  # a link kept as is
            return ChatFinding(f'{said}: "{line}"', quotes)
    return None


def _error_told(line: str) -> bool:
    """A pasted line that tells an error, not a command or a setting that names one."""
    return bool(ERROR_LINE.search(line)) and not NOT_AN_ERROR_LINE.search(line)


def _a_try(sentence: str) -> bool:
    """ "Tried restarting, it seems to fail the same way": a step's outcome, not how it was found."""
    return bool(CONVERSATION_CUES["tried"].search(sentence))


def _recovered(sentence: str) -> bool:
    return bool(RESOLVED.search(sentence) or CONVERSATION_CUES["resolved_now"].search(sentence))


def _cause_told(sentence: str) -> bool:
    """A cause stated plainly, as the reader reads one: not doubted, denied or vetoed as a cause ("The cause is unknown so
    far"), nor an aside ("Turns out I had the wrong issue open, sorry") (the review's F1c)."""
    return bool(CAUSE_MARKER.search(sentence)) and not (
        never("cause", sentence)
        or CAUSE_HEDGE.search(sentence)
        or CAUSE_NEGATED.search(sentence)
        or CONVERSATION_CUES["thanks"].search(sentence)
    )
