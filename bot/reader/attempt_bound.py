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
# a thing told as the subject of the step verb, right before it: a determiner, up to two words, the thing, then an
# active verb ("the bridge stopped relaying", "the job has again restarted"); never a passive ("the node was
# restarted", "the pods are restarted": someone did it, a step), so no form of "be" may stand between
THE_THING_BEFORE = re.compile(
    r"\b(?:the|our|its|their|this|that)\s{1,4}(?:[\w.-]{1,30}\s{1,4}){0,2}?(?P<thing>[A-Za-z][\w-]{3,29})\s{1,4}"
    r"(?:(?:has|had|have|also|then|just|again|already)\s{1,4}){0,3}$",
    re.I,
)
TITLE_WITHIN = 300
# title words that name no thing (a title's frame: "Postmortem: incident of 2023-03-28")
_NOT_THINGS = frozenset(
    "incident incidents outage outages postmortem post-mortem issue issues problem problems report with from after "
    "during about when while that this they there their down failing failure failed errors error".split()
)


def _asked(text: str, at: int) -> bool:
    """The sentence holding `at` ends in a question mark."""
    end = _STOP.search(text, at)
    return end is not None and text[end.start()] == "?"


def _the_trouble_acted(clause: str, trouble: set[str]) -> bool:
    """The step verb's subject, told right before it in its clause ("the bridge stopped relaying"), is a thing the
    incident's title names ("outage of the Libera bridge"): the broken thing acting is the trouble told, not a step."""
    subject = THE_THING_BEFORE.search(clause)
    return subject is not None and _stem(subject.group("thing")) in trouble


def _stem(word: str) -> str:
    return word.lower().rstrip("s")[:6]


def trouble_words(title: str) -> set[str]:
    """The title's words that can name the thing in trouble (`_stem`med, as `_the_trouble_acted` compares them)."""
    return {_stem(w) for w in re.findall(r"[A-Za-z][\w-]{3,29}", title[:TITLE_WITHIN]) if w.lower() not in _NOT_THINGS}


def _step_taken(action: str, trouble: set[str] = frozenset()) -> bool:
    """A step verb (cues.TRIED) that is not in a question, not after a condition or a plan in its clause, not a
    bare try, and whose subject is not the thing in trouble (`_the_trouble_acted`)."""
    for m in TRIED.finditer(action):
        before = action[max(m.start() - 200, 0) : m.start()]
        cuts = list(_CLAUSE_START.finditer(before))
        clause = before[cuts[-1].end() :] if cuts else before
        if _asked(action, m.end()) or PLANNED.search(clause) or BARE_TRY.match(action, m.start()):
            continue
        if trouble and _the_trouble_acted(clause, trouble):
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


def step_bound(attempt: dict[str, str], trouble: str = "") -> bool:
    """A stored postmortem attempt holds a step taken (`_step_taken`; `trouble` is the incident's title) and a failure
    bound to it: in the step's own sentence ("told": the reader cut action and why out of one sentence, or the why is
    empty), bound by the path that read it (BOUND), or `_bound`."""
    action, why = attempt["action"], attempt["why_it_failed"]
    if not _step_taken(action, trouble_words(trouble) if trouble else frozenset()):
        return False
    return "told" in attempt or BOUND in attempt or not why.strip() or _bound(action, why)
