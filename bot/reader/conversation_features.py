"""A channel's messages as the conversation reader sees them (bot/reader/conversation.py picks
from these): its sentences, each described by named features: the cue groups of
bot/reader/cues_conversation.py it matches (`CONVERSATION_CUES`, but `NOT_WEIGHED`), who says it (the
person who opened the channel, or someone answering; `by_fixer`: someone who says elsewhere that they did something),
where it stands, what the sentence after it says, how the thread answers it
(bot/reader/conversation_replies.py).

Bounded: each message is read up to the caller's cap and its first `MESSAGE_SENTENCES`
sentences (bot/text_limits.py: one member's flood does not push what others said out of the
budget), each sentence up to `SENTENCE_CHARS`, at most `MAX_SENTENCES` sentences, the newest (the
end of a channel says the fix), shared between the authors (bot/text_limits.py `fair_shares`:
each author's newest up to an equal share, so one member's many messages do not push out what
others said); the patterns have no unbounded backtracking, so the work grows
linearly with what is read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from bot.reader.conversation_replies import answered_by_reply, reported_steps
from bot.reader.conversation_vetoes import DONE, came_after, outcome_told
from bot.reader.cues import GETTING_BETTER, TROUBLE_BACK
from bot.reader.cues_conversation import CONVERSATION_CUES as CUES
from bot.reader.cues_conversation import NOT_WEIGHED, POINTS_AT_ITEM, STILL_OPENS
from bot.text_limits import MESSAGE_SENTENCES, SENTENCE_CHARS, fair_shares

MAX_SENTENCES = 2_000  # a 500-message channel says ~1,500; a crafted 40k of short lines, 10,000
ACTED = frozenset({"action", "tried", "did", "said_action"})
STEP_TOLD = frozenset({"action", "tried", "said_action"})  # a step named, not only "done" ("I ran out of inodes")
NOT_TOLD = frozenset(
    {"question", "plan", "hedge", "me_too", "template", "how_fixed", "resolved_now", "recovered_again"}
)
STILL_SAYS_MORE = frozenset({"status_update", "cause_marker", "consequence", "might_be"})
FIXED = DONE | {"how_fixed"}

CODE_BLOCK = re.compile(r"```[^`]{0,20000}```")
_ABBREVIATION = re.compile(r"\b(?:i\.e|e\.g|etc|vs|approx|incl|cf)\.", re.IGNORECASE)
# a sentence ends at ". " before a capital, or before a small letter (chat is often written in lower
# case: "Nope still dead. the last reversion seemed to kill the world") when a word ends there: not
# after "...", a number ("the update from 1. is broken") or an abbreviation ("w.r.t. cleanup")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s{1,80}(?=[A-Z`\"'(@#\[])|(?<=[A-Za-z]{2}[.!?])\s{1,80}(?=[a-z])")
_DOT = "\x00"


@dataclass(frozen=True, slots=True)
class Message:
    """One channel message as the reader gets it."""

    author: str
    text: str
    at: datetime | None = None  # when it was posted: a bare "still failing" answers only a recent step


@dataclass(slots=True)
class Sentence:
    text: str
    message: int  # index of its message
    author: str
    features: frozenset[str] = frozenset()
    reply: int | None = None  # the sentence that says this step did not work (`reply_failed`), if one does


def split_sentences(text: str, limit: int = MAX_SENTENCES) -> list[str]:
    """A message's sentences: code blocks and quoted lines (">") left out, "i.e." and "e.g." not
    taken for a sentence's end, each line a sentence at least; the first `limit` of them (what
    is past the reading's cap is not split either)."""
    text = CODE_BLOCK.sub("\n", text)
    found: list[str] = []
    for line in text.split("\n"):
        if len(found) >= limit:
            return found[:limit]
        line = line.strip()
        if not line or line.startswith(">"):
            continue
        protected = _ABBREVIATION.sub(lambda m: m.group().replace(".", _DOT), line)
        for part in _SENTENCE_END.split(protected):
            part = part.replace(_DOT, ".").strip()
            if len(part) >= 2:
                found.append(part[:SENTENCE_CHARS])
    return found[:limit]


def sentences(messages: Sequence[Message]) -> list[Sentence]:
    """Every sentence with its features (see the module's docstring)."""
    if not messages:
        return []
    opener = messages[0].author
    alone = len({m.author for m in messages}) == 1
    # past the cap, the oldest go unread (the end says the fix), and the cap is shared between the
    # authors (`fair_shares`): one member's many messages do not push out what others said
    newest_first: list[tuple[int, list[str]]] = []
    has: dict[str, int] = {}
    for index in range(len(messages) - 1, -1, -1):
        author = messages[index].author
        if has.get(author, 0) < MAX_SENTENCES:  # past it, more than any share: not split
            said = split_sentences(messages[index].text, MESSAGE_SENTENCES)
            newest_first.append((index, said))
            has[author] = has.get(author, 0) + len(said)
    share = fair_shares(has, MAX_SENTENCES)
    taken: list[tuple[int, list[str]]] = []
    for index, said in newest_first:  # each author's newest sentences, up to its share
        author = messages[index].author
        if share[author] > 0:
            taken.append((index, said[: share[author]]))  # where the share ends, a message's first ones
            share[author] -= len(taken[-1][1])
    out = [Sentence(text, index, messages[index].author) for index, said in reversed(taken) for text in said]
    matched = [cues_of(s.text) for s in out]
    last = max(1, len(messages) - 1)
    fixers = _fixers(out, matched, opener)
    answered = answered_by_reply(out, matched, ACTED | DONE)
    reported = reported_steps(out, matched, opener) if not alone else frozenset()
    for i, s in enumerate(out):
        f = set(matched[i] - NOT_WEIGHED)  # what rules alone read is no feature a head weighs (or a fit sees)
        # one feature for "it was done", however said: a way of saying it the tuning fold lacks
        # (the passive) still counts as what the fold taught about "we deployed" and "Deployed"
        if f & DONE:
            f -= DONE
            f.add("did")
        # "I had disabled the timers … and forgot": the cause, told; so is "…a deleted instance, so errors
        # were appearing" (by what came of it) and "we think it might be some custom DNS work" (with
        # doubt: the hedge says so)
        if f & {"confession", "consequence", "might_be"}:
            f.add("cause_marker")
        after = matched[i + 1] if i + 1 < len(out) else frozenset()
        before = matched[i - 1] if i else frozenset()
        # ("Did 2. already - without success": the outcome of a numbered item, not of this sentence)
        if "failed_outcome" in after and "recovered_again" not in after and not POINTS_AT_ITEM.match(out[i + 1].text):
            f.add("next_failed")
        if i + 1 < len(out) and _still_after(s, matched[i], out[i + 1], after):
            f.add("next_still")
        if "resolved_now" in after:
            f.add("next_resolved")
        if "resolved_now" in before:
            f.add("prev_resolved")
        if "failed_outcome" in before:
            f.add("prev_failed")
        if i in reported:
            f.add("reported_step")
        if i in answered:
            f.add("reply_failed")
            s.reply = answered[i]
        f.add("reporter" if s.author == opener and not alone else "responder")
        if s.message == 0:
            f.add("first_msg")
        elif s.message / last >= 0.5:
            f.add("late")
        if s.author in fixers:
            f.add("by_fixer")
        if len(s.text) > 250:
            f.add("long")
        if len(s.text.split()) <= 3:
            f.add("short")
        for cue in ("cause_marker", "outage_noun", "broken_state", "did", "how_fixed", "tried",
                    "failed_outcome", "fix_noun"):  # fmt: skip
            if cue in f:
                if "responder" in f:
                    f.add(f"{cue}*responder")
                if "hedge" in f:
                    f.add(f"{cue}*hedge")
        if "did" in f and "fix_noun" in f:
            f.add("did*fix_noun")
        if "tried" in f and "failed_outcome" in f:
            f.add("tried*failed")
        if "action" in f:
            f.update(f"action*{c}" for c in ("failed_outcome", "next_failed", "prev_failed", "reply_failed") if c in f)
        if "first_msg" in f and "tried" in f:
            f.add("first*tried")
        s.features = frozenset(f)
    return out


def _still_after(step: Sentence, cues: frozenset[str], then: Sentence, then_cues: frozenset[str]) -> bool:
    """ "We restarted our webserver. The Cloud is still unavailable.", "Tried flushing my DNS on local and server. Still
    coming up empty.": a step told as taken, answered by the next sentence of its own message that opens on the trouble
    still there and says nothing else (no step, plan, question, status, hedge or cause, nor the trouble getting better;
    not "still investigating", conversation_vetoes.py `outcome_told`), nor that the trouble began after the step
    (`came_after`). A failure word of `failed_outcome` there is `next_failed`; this is the bare "still" bound to its
    step, for the attempt only (the fix's reading does not see it)."""
    return (
        then.message == step.message
        and bool(cues & STEP_TOLD)
        and not cues & NOT_TOLD
        and "failed_outcome" not in then_cues
        and not then_cues & (ACTED | NOT_TOLD | STILL_SAYS_MORE)
        and STILL_OPENS.match(then.text) is not None
        and not GETTING_BETTER.search(then.text)
        and outcome_told(then.text)
        and not came_after(then.text)
    )


def _fixers(out: list[Sentence], matched: list[frozenset[str]], opener: str) -> frozenset[str]:
    """Who, other than the one who opened the channel, says anywhere that they did something or
    how it was fixed: in a real thread that is the one who explains what went wrong, whatever the
    words (a feature of who speaks, not of a fold's vocabulary)."""
    return frozenset(s.author for s, m in zip(out, matched, strict=True) if m & FIXED and s.author != opener)


@lru_cache(maxsize=MAX_SENTENCES)
def cues_of(text: str) -> frozenset[str]:
    """The cue groups a sentence matches, by themselves (no context). Remembered: a draft's rules
    ask again for sentences already read (`never`), and ~30 searches a sentence were most of it."""
    text = text[:SENTENCE_CHARS]
    found = frozenset(name for name, cue in CUES.items() if cue.search(text))
    if "resolved_now" in found and TROUBLE_BACK.search(text):
        return found - {"resolved_now"}  # "the errors are back": the trouble is back, not the service
    return found
