"""How the thread answers a step (bot/reader/conversation.py): "Reverted the last two revisions. I
don't think the reversions worked.", or "I restarted the runner." answered, at the opening of the
next message, "Hm. Still seeing the same error" (`reply_failed`: an attempt that did not work, no
fix). Told by the thread's order, not by the step's words: only a message's last told step, and
nothing between it and the outcome names a step, a recovery, a question or a plan. Each message is
looked at a bounded number of times: linear. And the steps the opening report says were taken
before it was written (`reported_steps`): they did not fix it, or it would not have been reported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from bot.reader.cues_conversation import POINTS_AT_ITEM, REPORTED_STEP
from bot.text_limits import SENTENCE_CHARS

# a step asked, planned, doubted, someone else's, or that says itself it worked ("and restarted and it worked OK")
NOT_A_STEP = frozenset(
    {"question", "plan", "me_too", "template", "hedge", "how_fixed", "resolved_now", "recovered_again"}
)
# what a reply says of the step before it ("still seeing it")
REPLY_FAILED = frozenset({"failed_outcome", "said_failed"})
REPLY_OPENS = 2  # sentences: where a reply says "still failing" of the step before it
_LIST_ITEM = re.compile(r"^\s{0,8}(?:[-*\u2022]|\d{1,3}[.)])\s")
_AGAIN_ONLY = re.compile(r"\W{0,20}again\b", re.IGNORECASE)  # "Again, slightly concerned about …": no outcome
_TRIED = re.compile(r"(?:tried|attempted)$", re.IGNORECASE)
_NAMED = re.compile(r"\w")  # a word after "tried": what was tried


class Said(Protocol):
    message: int
    text: str
    author: str


def answered_by_reply(out: Sequence[Said], cues: Sequence[frozenset[str]], steps_are: frozenset[str]) -> dict[int, int]:
    """{a step: the sentence after it that says it did not work}; `cues`: each sentence's cue groups,
    `steps_are`: the groups that tell a step."""
    failed: dict[int, int] = {}
    starts = [i for i in range(len(out)) if i == 0 or out[i - 1].message != out[i].message]
    stops = steps_are | {"recovered_again", "resolved_now", "question", "plan", "status_update"}
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(out)
        steps = [i for i in range(start, end) if cues[i] & steps_are and not cues[i] & NOT_A_STEP]
        if not steps:
            continue
        failure = _says_failed(out, cues, steps[-1] + 1, end, frozenset({"failed_outcome"}), stops)
        if failure is None and end < len(out) and out[end].message == out[start].message + 1:
            failure = _says_failed(out, cues, end, min(len(out), end + REPLY_OPENS), REPLY_FAILED, stops)
        if failure is not None:
            failed[steps[-1]] = failure
    return failed


def _says_failed(
    out: Sequence[Said], cues: Sequence[frozenset[str]], begin: int, stop: int, failed: frozenset[str],
    stops: frozenset[str],
) -> int | None:  # fmt: skip
    """The first sentence of `begin`'s message, from it to `stop`, that says a failure, none before it
    naming a step, a recovery, a question or a plan (None: none)."""
    for j in range(begin, stop):
        if out[j].message != out[begin].message or cues[j] & stops:
            return None
        if cues[j] & failed and ("failed_outcome" in cues[j] or not _AGAIN_ONLY.match(out[j].text)):
            # "Did 2. already - without success": the outcome of the list's item 2, not of the step told last
            return None if POINTS_AT_ITEM.match(out[j].text) else j
    return None


def reported_steps(out: Sequence[Said], matched: list[frozenset[str]], opener: str) -> frozenset[int]:
    """ "I have restarted the machine and runner.", "I already tried re-installing the bot": a step the one
    who opens the channel says, in the opening report, that they took is one that did not fix it (the
    trouble is reported after it), unless the report says it is over. Told by who speaks where and by the
    tense, not by the step's words; read only when someone else answers (conversation_features.py `sentences`).
    `matched`: each sentence's cue groups; a list item under a heading of what was tried gets its "tried"."""
    opening = [i for i, s in enumerate(out) if s.message == 0 and s.author == opener]
    if any(matched[i] & {"how_fixed", "resolved_now", "recovered_again"} for i in opening):
        return frozenset()
    steps = set()
    listed = False  # under a heading that says what was tried ("things I have tried so far:"), its list's items
    for i in opening:
        text = out[i].text
        if listed and _LIST_ITEM.match(text):
            steps.add(i)
            matched[i] = matched[i] | {"tried"}  # the heading's "tried" is each item's
            continue
        listed = "tried" in matched[i] and text.rstrip().endswith(":")
        if _told_step(text, matched[i]):
            steps.add(i)
    return frozenset(steps)


def _told_step(text: str, cues: frozenset[str]) -> bool:
    """A step the speaker says they took before now: "I have restarted", "we've tried", "I already cleared"
    (bot/reader/cues_conversation.py `REPORTED_STEP`), not asked, planned or a list's heading ("things I have
    tried so far:")."""
    if cues & {"question", "plan", "status_update"} or text.rstrip().endswith(":"):
        return False
    step = REPORTED_STEP.search(text[:SENTENCE_CHARS])
    # "I'm wondering if it's a network issue, so I've tried": tried, and nothing named (a heading without its colon)
    return step is not None and not (_TRIED.search(step.group()) and not _NAMED.search(text, step.end()))
