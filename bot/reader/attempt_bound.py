"""A postmortem's failed attempt read for what it says, not for one more cue (docs/BENCHMARKS.md, r23-pmatt2): the
line holds a step someone took (not asked, not planned, not a bare "tried again"), and the failure told after it is
that step's outcome (told in the step's own sentence, or the later words refer back to it, tell the trouble going on,
say a step did not help, or name the step again). A line that is neither is not stored: precision first."""

from __future__ import annotations

import re

from bot.reader.cues import TRIED
from bot.reader.cues_attempts import BARE_TRY, CAUSE_TOLD, PLANNED, REFERS_BACK, STEP_OUTCOME, failure_cues

# the key a reading path sets on an attempt whose outcome it bound to the step by construction: a later sentence or
# entry that names the step's object again (narrative._failed_later, narrative_timeline._named_later), or the step's
# consequence told in its own words (narrative._made_it_worse), or the fitted bar read it under its own binding
# (narrative.outcome_unbound; off by default)
BOUND = "bound"
# a later clause opening on a contrast with the step: "instead the node winds up terminated"
_INSTEAD = re.compile(r"(?:instead|rather)\b", re.I)
# the later words must tell the step's outcome first: a failure word further on is another part of the story
OUTCOME_WITHIN = 200
_CLAUSE_START = re.compile(r"[,;:.!?—–(]|\s-\s")
_STOP = re.compile(r"[.!?](?=\s|$)")


def _asked(text: str, at: int) -> bool:
    """The sentence holding `at` ends in a question mark."""
    end = _STOP.search(text, at)
    return end is not None and text[end.start()] == "?"


def _step_taken(action: str) -> bool:
    """A step verb (cues.TRIED) that is not in a question, not after a condition or a plan in its clause, and not a
    bare try."""
    for m in TRIED.finditer(action):
        before = action[max(m.start() - 200, 0) : m.start()]
        cuts = list(_CLAUSE_START.finditer(before))
        clause = before[cuts[-1].end() :] if cuts else before
        if _asked(action, m.end()) or PLANNED.search(clause) or BARE_TRY.match(action, m.start()):
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
