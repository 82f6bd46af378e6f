"""How the thread answers a step (bot/reader/conversation.py): "Reverted the last two revisions. I
don't think the reversions worked.", or "I restarted the runner." answered, at the opening of the
next message, "Hm. Still seeing the same error" (`reply_failed`: an attempt that did not work, no
fix). Told by the thread's order, not by the step's words: only a message's last told step, and
nothing between it and the outcome names a step, a recovery, a question or a plan. Each message is
looked at a bounded number of times: linear.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

# a step asked, planned, doubted, someone else's, or that says itself it worked ("and restarted and it worked OK")
NOT_A_STEP = frozenset(
    {"question", "plan", "me_too", "template", "hedge", "how_fixed", "resolved_now", "recovered_again"}
)
# what a reply says of the step before it ("still seeing it")
REPLY_FAILED = frozenset({"failed_outcome", "said_failed"})
REPLY_OPENS = 2  # sentences: where a reply says "still failing" of the step before it
_AGAIN_ONLY = re.compile(r"\W{0,20}again\b", re.IGNORECASE)  # "Again, slightly concerned about …": no outcome


class Said(Protocol):
    message: int
    text: str


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
            return j
    return None
