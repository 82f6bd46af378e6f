"""Failed attempts a conversation tells in so many words (bot/reader/conversation.py `read_conversation`
reads them first, beside its scored ones): "restarted payments pods, errors back after 25 minutes" (an
action then, in the same sentence, its failure: `split_attempt`), a step named as the subject of its failure
("clearing the cache didn't do anything": `step_as_subject`), or an action answered by the next
message ("bumped the pool size" … "still timing out") within `FOLLOW_UP_WITHIN`. Each comes with its
words already cut into what was tried and why it did not work (`Told.words`).

The cue words are bot/reader/cues.py's (`CHAT_ACTION`, `CHAT_FAILED`, …); the same cue groups are
features the conversation's heads weigh (`said_action`, `said_failed`). `split_attempt` also cuts a
message a person marked "did not work" with the message shortcut (bot/drafting/rules.py): there the
person decided, and it only cuts their words. Every pattern is bounded: linear in what is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from bot.models import MAX_TEXT
from bot.reader.cues import CHAT_ACTION, CHAT_FAILED, CHAT_RECOVERED, CHAT_SPLIT, STARTS_WITH_ACTION
from bot.reader.cues_conversation import CONVERSATION_CUES, EVEN_AFTER, NO_OUTCOME, STEP_AS_SUBJECT, STEP_GERUND

# a bare "still timing out" answers the message before it, if it came soon after
FOLLOW_UP_WITHIN = timedelta(minutes=30)
# "restarting can't fix it", "wouldn't help": foretold, not told
_FORETOLD = re.compile(r"(?:would|will|wo|could|can)(?:n'?t| not)", re.IGNORECASE)
_ANSWER_ONLY = re.compile(
    r"\W{0,3}(?:(?:no|nope|yes|yeah|yep|ok|okay|hm{1,4}|well|sadly|unfortunately|simply|just|also|even|then|and|so|but)"
    r"\W{1,3}){0,3}",
    re.IGNORECASE,
)
_STEP_ADVERB = re.compile(r"(?<![\w'-])(?:(?:\w{2,12}ly|already|even) )+$", re.IGNORECASE)  # right before the verb
_AUXILIARY_END = re.compile(r"\s{1,8}(?:is|are|was|were|has|have|had|does|do|did)$", re.IGNORECASE)


def clip(text: str, limit: int = MAX_TEXT) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def tidy(text: str) -> str:
    """A clause as a field's text: trimmed of joining words and punctuation, first letter up."""
    text = re.sub(r"^(?:and|so|then|we|i|just|also)\s+", "", text.strip(" ,;:-—–.…"), flags=re.IGNORECASE)
    text = text.strip(" ,;:-—–.…")
    return clip(text[:1].upper() + text[1:]) if text else ""


def split_attempt(sentence: str) -> tuple[str, str] | None:
    """("restarted payments pods", "errors back after 25 minutes"), or None when the sentence
    does not say an action failed."""
    failed = CHAT_FAILED.search(sentence)
    action = CHAT_ACTION.search(sentence) or CONVERSATION_CUES["action"].search(sentence)  # "cloning …"
    if failed is None or action is None or action.start() > failed.start():
        return None
    before = sentence[: failed.start()]
    cuts = [m for m in CHAT_SPLIT.finditer(before) if m.start() > action.end()]
    if cuts:
        tried, why = sentence[: cuts[-1].start()], sentence[cuts[-1].end() :]
    else:
        tried, why = before, sentence[failed.start() :]
    if action.start() < 12:
        tried = tried[_step_begins(tried, action.start()) :]
    tried = _AUXILIARY_END.sub("", tried.rstrip())
    tried, why = tidy(tried), tidy(why)  # "Rebuilding the image is | not working": the verb's auxiliary is the why's
    return (tried, why) if tried and why else None


def _step_begins(tried: str, verb: int) -> int:
    """Where the told step's words begin: at its verb, the subject and joining words before it cut ("I've restarted"),
    but an adverb of the step kept ("I manually upgraded to 0.6.3", "I already tried to change the file type": the
    speaker's own words, which a label quotes)."""
    adverb = _STEP_ADVERB.search(tried, 0, verb)
    return adverb.start() if adverb else verb


def step_as_subject(sentence: str) -> tuple[str, str] | None:
    """ "Live site, clearing the cache didn't do anything": ("Live site, clearing the cache", "Didn't do anything"), a step
    named as the subject of its own failure (bot/reader/cues_conversation.py `STEP_AS_SUBJECT`); None when the
    sentence does not open with a step's gerund, or says no told outcome of it (a failure foretold, "wouldn't help",
    or one that tells no outcome, `NO_OUTCOME`, is none)."""
    opening = STEP_AS_SUBJECT.match(sentence)
    if opening is None:
        return None
    step = opening.group("step")
    if not _a_step(step):
        return None
    told = NO_OUTCOME.sub(lambda m: " " * len(m.group()), sentence)  # blanked in place: positions hold
    failed = CONVERSATION_CUES["failed_outcome"].search(told, opening.end())
    if failed is None or _FORETOLD.match(failed.group()):
        return None
    cuts = list(CHAT_SPLIT.finditer(sentence, opening.end(), failed.start()))
    # the lead names where the step was taken ("Live site, clearing the cache"), unless it only answers ("Nope, …")
    begin = 0 if not _ANSWER_ONLY.fullmatch(sentence[: opening.start("step")]) else opening.start("step")
    tried = sentence[begin : cuts[-1].start() if cuts else failed.start()]
    why = sentence[cuts[-1].end() if cuts else failed.start() :]
    tried, why = tidy(_AUXILIARY_END.sub("", tried.rstrip())), tidy(why)
    return (tried, why) if tried and why else None


def step_even_after(sentence: str) -> tuple[str, str] | None:
    """ "I'm still getting a 500 even after updating nodester-cli": ("Updating nodester-cli", "I'm still getting a
    500"), the step named after "even after / when" (`EVEN_AFTER`: tried, or a step's gerund, not "waiting"), the
    rest of the sentence telling how it went (the trouble still there, the same result); None when it does not."""
    named = EVEN_AFTER.search(sentence)
    verb = named.group("verb") if named else ""
    if named is None or not (named.group("tried") or _a_step(verb) or CHAT_ACTION.fullmatch(verb)):
        return None
    tail = sentence[named.end() :].lstrip(" ,")
    rest = sentence[: named.start()].rstrip() + ("" if tail[:1] in ".!?;:" else " ") + tail
    told = NO_OUTCOME.sub(" ", rest)
    if not (CONVERSATION_CUES["failed_outcome"].search(told) or CHAT_FAILED.search(told)):
        return None
    tried, why = tidy(named.group("step")), tidy(rest)
    return (tried, why) if tried and why else None


def _a_step(gerund: str) -> bool:
    """ "clearing", "deploying", "re-joining": the gerund of a step on the system, by the reader's step lists
    (`CONVERSATION_CUES["action"]`, cues.CHAT_ACTION's stems, `STEP_GERUND`), not a use of it ("loading", "trying")."""
    stem = gerund[:-3]
    return bool(
        CONVERSATION_CUES["action"].fullmatch(gerund)
        or STEP_GERUND.fullmatch(gerund)
        or any(CHAT_ACTION.fullmatch(form) for form in (stem, stem + "e", stem + "ed"))
    )


class Said(Protocol):
    message: int
    text: str


@dataclass(frozen=True, slots=True)
class Told:
    """A failed attempt told in so many words: its sentence, the next message's sentence that says it
    failed (None: its own sentence says so) and (what was tried, why it did not work)."""

    sentence: int
    follow: int | None
    words: tuple[str, str]


def told_attempts(
    found: Sequence[Said], at: Sequence[datetime | None], never_attempt: Callable[[str], bool]
) -> list[Told]:
    """The attempts `found`'s sentences tell in so many words (see the module's docstring); `at`: when
    each sentence's message was posted (None: not known), `never_attempt`: the reader's attempt vetoes
    for a sentence read by itself."""
    attempts: list[Told] = []
    used: set[int] = set()
    for position, sentence in enumerate(found):
        if never_attempt(sentence.text):
            continue
        split = split_attempt(sentence.text) or step_as_subject(sentence.text) or step_even_after(sentence.text)
        if split is not None:
            attempts.append(Told(position, None, split))
            used.add(sentence.message)
            continue
        if not STARTS_WITH_ACTION.match(sentence.text):
            continue
        if CHAT_RECOVERED.search(sentence.text) or CHAT_FAILED.search(sentence.text):
            continue
        follow = found[position + 1] if position + 1 < len(found) else None
        if (
            follow is not None
            and follow.message == sentence.message + 1
            and follow.message not in used
            and CHAT_FAILED.search(follow.text)
            and not CHAT_ACTION.search(follow.text)
            and not CONVERSATION_CUES["status_update"].search(follow.text)  # "still investigating": no outcome
            and not never_attempt(follow.text)
            and (
                at[position] is None or at[position + 1] is None or at[position + 1] - at[position] <= FOLLOW_UP_WITHIN
            )
        ):
            attempts.append(Told(position, position + 1, (tidy(sentence.text), tidy(follow.text))))
            used.update((sentence.message, follow.message))
    return attempts
