"""A postmortem's failed attempt read for what it says, not for one more cue (docs/BENCHMARKS.md, r23-pmatt2): the
line holds a step someone took (not asked, not planned, not a bare "tried again"), and the failure told after it is
that step's outcome (told in the step's own sentence, or the later words refer back to it, tell the trouble going on,
say a step did not help, or name the step again). A line that is neither is not stored: precision first."""

from __future__ import annotations

import re

from bot.reader.cues import CHAT_ACTION, SEEING_VERB, TRIED
from bot.reader.cues_attempts import BARE_TRY, CAUSE_TOLD, PLANNED, REFERS_BACK, SENTENCE, STEP_OUTCOME, failure_cues

# the key a reading path sets on an attempt whose outcome it bound to the step by construction: a later sentence or
# entry that names the step's object again (narrative._failed_later, narrative_timeline._named_later), or the step's
# consequence told in its own words (narrative._made_it_worse), or the fitted bar read it under its own binding
# (narrative.outcome_unbound; off by default)
BOUND = "bound"
# a later clause opening on a contrast with the step: "instead the node winds up terminated"
_INSTEAD = re.compile(r"(?:instead|rather)\b", re.I)
# the later words must tell the step's outcome first: a failure word further on is another part of the story
OUTCOME_WITHIN = 200
# "We were seeing a bug … Upon further investigation it looks like … when we re-deploy": a sentence that tells what
# someone saw, checked or tested (cues.SEEING_VERB and the checks; "to see if" is a test of a step, not one) tells a
# state, and a step verb in it is the observation's content unless it is a remedy (cues.CHAT_ACTION: restarted,
# rolled back, tried …). "monitoring" and "testing" name things as often as they tell a check, "see below" points at
# the text: none is read as one (r23-pmcheck's rule C', reverted for the case below, back with it as rule C2)
CHECKED = re.compile(
    r"\b(?:" + SEEING_VERB + r"|seeing|(?<!to )see(?! (?:below|above))|looks? like|look(?:ed|ing) at|check(?:ed|ing)|"
    r"tested|monitored|investigat\w{0,6}|inspect(?:ed|ing)|watch(?:ed|ing))\b",
    re.I,
)
# "@sam deletes the dns pod and finds yet another network error": a check told after the step and joined to it is
# what the step's outcome showed, not an observation the step is told inside (rule C2, r23-pmatt)
_SEEN_AFTER = re.compile(r"\b(?:and|but|then|only to)\s{1,4}(?:then\s{1,4}|just\s{1,4})?$", re.I)
_CLAUSE_START = re.compile(r"[,;:.!?—–(]|\s-\s")
_STOP = re.compile(r"[.!?](?=\s|$)")


def _asked(text: str, at: int) -> bool:
    """The sentence holding `at` ends in a question mark."""
    end = _STOP.search(text, at)
    return end is not None and text[end.start()] == "?"


def _observed(action: str, at: int) -> bool:
    """The sentence holding `at` tells what someone saw or checked (CHECKED, but not a check joined after the step:
    _SEEN_AFTER) and holds no remedy verb (CHAT_ACTION)."""
    starts = [0] + [m.end() for m in SENTENCE.finditer(action) if m.end() <= at]
    end = _STOP.search(action, at)
    sentence = action[starts[-1] : end.end() if end else len(action)]
    if CHAT_ACTION.search(sentence):
        return False
    step = at - starts[-1]  # the step verb's place in the sentence
    return any(
        c.start() < step or not _SEEN_AFTER.search(sentence[max(step, c.start() - 30) : c.start()])
        for c in CHECKED.finditer(sentence)
    )


def _step_taken(action: str) -> bool:
    """A step verb (cues.TRIED) that is not in a question, not after a condition or a plan in its clause, not a
    bare try, and not in a sentence that tells an observation with no remedy in it (_observed)."""
    for m in TRIED.finditer(action):
        before = action[max(m.start() - 200, 0) : m.start()]
        cuts = list(_CLAUSE_START.finditer(before))
        clause = before[cuts[-1].end() :] if cuts else before
        if _asked(action, m.end()) or PLANNED.search(clause) or BARE_TRY.match(action, m.start()):
            continue
        if _observed(action, m.start()):
            continue
        return True
    return False


def _bound(action: str, why: str) -> bool:
    """The failure told in a later clause or entry is this step's outcome: it opens on a back-reference ("it",
    "this", "still", "the site …"; never one that tells the cause: "the problem is that"), a failure word in its first
    OUTCOME_WITHIN characters tells the trouble going on or a step
    not helping (cues_attempts.STEP_OUTCOME: "still", "no change", "did not help", "in vain"), or it names the step
    again (a step verb of the same stem)."""
    opening = re.sub(r"^[\W_]+", "", why)
    if CAUSE_TOLD.match(opening):
        return False
    if REFERS_BACK.match(opening) or _INSTEAD.match(opening):
        return True
    if any(STEP_OUTCOME.search(m.group()) for m in failure_cues(why[:OUTCOME_WITHIN])):
        return True
    return bool(
        {m.group().lower()[:5] for m in TRIED.finditer(why)} & {m.group().lower()[:5] for m in TRIED.finditer(action)}
    )


def step_bound(attempt: dict[str, str]) -> bool:
    """A stored postmortem attempt holds a step taken (`_step_taken`) and a failure bound to it: in the step's own
    sentence ("told": the reader cut action and why out of one sentence, or the why is empty), bound by the path that
    read it (BOUND), or `_bound`."""
    action, why = attempt["action"], attempt["why_it_failed"]
    if not _step_taken(action):
        return False
    return "told" in attempt or BOUND in attempt or not why.strip() or _bound(action, why)
