"""What a conversation's sentence can never be read as, whatever its score (bot/reader/conversation.py
`vetoed`, precision first): the fix's vetoes and the failed attempt's, from the sentence's features
(its cue groups, bot/reader/cues_conversation.py `CONVERSATION_CUES`, folded as conversation.py folds them) and
its text (the checks of bot/reader/cues_conversation.py). Kept apart from the reading for length
only; each check is one bounded pattern search, so a veto is linear in the sentence.
"""

from __future__ import annotations

import re

from bot.reader.cues import CHAT_FAILED
from bot.reader.cues_attempts import AUTOMATIC
from bot.reader.cues_conversation import (
    BEFORE_THE_TALK,
    CAME_AFTER,
    COUNTERFACTUAL,
    FOLLOW_UP,
    NO_OUTCOME,
    NOT_ENOUGH,
    OUTCOME_ONLY,
    PART_FAILED,
    RETRY,
    SAID_TRIED,
    STEP_AFTER_SO,
    TO_CHECK,
    TRIED_AGAIN,
    TRIED_TO_USE,
)
from bot.reader.cues_conversation import CONVERSATION_CUES as CUES
from bot.reader.cues_conversation import CONVERSATION_VETOES as VETO

DONE = frozenset({"we_did", "bare_did", "passive_did"})
SAID_FAILED = frozenset({"failed_outcome", "said_failed"})  # a failure said in the sentence itself
TOLD_AFTER = frozenset({"next_failed", "reply_failed", "reported_step"})  # how the step went, told by the thread
CAUSE_SAID = frozenset({"cause_marker", "consequence", "might_be"})  # a cause said, however (raw or folded)
STEP_CUES = DONE | {"did", "action"}  # a step named: restarted, cleared, deployed (a sentence's own or folded)
OUTCOME_VERB = re.compile(r"(?:fixed|resolved|solved)$", re.IGNORECASE)  # a step's verb that is the outcome itself


def no_fix(f: frozenset[str], text: str) -> bool:
    """Not the fix: what did not work, a status update, an outage told, a user's workaround or what would
    have happened."""
    failed = "failed_outcome" in f or ("said_failed" in f and not f & {"recovered_again", "resolved_now"})
    told = "outage_noun" in f and not f & {"did", "fix_noun", "how_fixed"}
    # "Some changes to our DNS caused this": what caused it, not what fixed it
    told = told or ("cause_marker" in f and not f & {"did", "how_fixed"})
    # "It looks like it got spun up on another node … and crash looped": a cause offered with doubt, whatever
    # step it names, is a hypothesis, not the told fix
    # ("… crashed around 1 AM, so I've restarted it": the doubt is the cause's, the step after "so" is told)
    told = told or (
        "hedge" in f
        and bool(f & (CAUSE_SAID | {"broken_state"}))
        and "how_fixed" not in f
        and not STEP_AFTER_SO.search(text)
    )
    tried = bool(SAID_TRIED.search(text)) and not f & {"how_fixed", "resolved_now"}
    # "… to see if they all work again": the "work again" is what is to be seen, not what came of it
    tried = tried or (bool(TO_CHECK.search(text) or FOLLOW_UP.search(text)) and "how_fixed" not in f)
    return (
        failed
        or told
        or tried
        or bool(f & {"earlier_fix_not", "confession", "status_update"})
        or ("plan" in f and "did" not in f)
        or bool(COUNTERFACTUAL.search(text))
        or bool(NOT_ENOUGH.search(text))
        or bool(VETO.search(text))
        or says_only_the_outcome(f, text)
    )


def says_only_the_outcome(f: frozenset[str], text: str) -> bool:
    """ "I've fixed it", "Fixed now, thanks", "we have resolved the issue": the only thing said done is the outcome
    on the trouble itself (`OUTCOME_ONLY`), no step named anywhere in the sentence: as the fix it would read "Fixed it"
    (fold A as at e7eedde: of the 16 fixes this vetoes, 14 were drafted where the label has none, 2 wrong, none
    right; judged on the twenty-first collection, both folds: 24 -> 22 of 89 drafted where none, no right fix
    lost). A passive ("has been fixed") is left to the reading that looks back for what worked."""
    if f & {"action", "said_action", "fix_noun", "imperative_advice"} or CUES["passive_did"].search(text):
        return False
    said = [m for cue in ("we_did", "bare_did") for m in CUES[cue].finditer(text)]
    return bool(said) and all(OUTCOME_VERB.search(m.group()) and OUTCOME_ONLY.match(text, m.end()) for m in said)


def no_attempt(f: frozenset[str], text: str) -> bool:
    """Not a failed attempt: a recovery, a confession, a plan, a part that did not do its job, the
    trouble met while using the service, a cause, work done before the incident, what would have
    happened, a failure word that tells no outcome of the step, the step that set the trouble off, one said
    to have fixed it or what the system did on its own."""
    # nor a part that did not do its job, told as the cause or not by the responders ("nginx didn't
    # reload the certs"), nor what was done before the incident ("upgraded the clusters yesterday")
    part = bool(PART_FAILED.search(text)) and ("cause_marker" in f or not f & {"first_person", "first_person_plural"})
    # "trying to browse your docs but getting 503s": the symptom, met while using the service
    used = bool(TRIED_TO_USE.search(text)) and not RETRY.search(text) and not f & STEP_CUES
    # "The problem is, it's more than 24 hours that I'm blocked": what caused it, not a step that failed (fold A:
    # the 3 such sentences past the attempt gate are causes), unless it says what was tried
    cause = bool(f & CAUSE_SAID) and not SAID_TRIED.search(text)
    # "I tried again, still no luck": a retry that names no step of its own is a check
    retried = bool(TRIED_AGAIN.search(text)) and not f & STEP_CUES
    # "We restarted the workers and are still investigating", "Reverting didn't take long": a failure word that
    # tells no outcome of the step, and nothing after it that does
    unbound = bool(f & SAID_FAILED) and not f & TOLD_AFTER and not outcome_told(text)
    # "I have resolved this issue … had to remove and re-add the project", then "Simply restarting would not work":
    # a step said to have fixed it is the fix, whatever the thread says after it failed
    fixed_here = bool(f & {"how_fixed", "resolved_now"}) and not f & SAID_FAILED
    set_off = came_after(text)
    # "… after a mysterious automatic reboot": what the system did by itself, when no one says they did it
    own_accord = bool(AUTOMATIC.search(text)) and not f & {"first_person", "first_person_plural", "tried"}
    return (
        bool(f & {"recovered_again", "confession"})
        or ("plan" in f and "tried" not in f)
        or part
        or used
        or cause
        or retried
        or unbound
        or fixed_here
        or set_off
        or own_accord
        or bool(BEFORE_THE_TALK.search(text))
        or bool(COUNTERFACTUAL.search(text))
        or bool(VETO.search(text))
    )


def outcome_told(text: str) -> bool:
    """The sentence says how a step went (the trouble still there, the step did not help), once the failure words
    that tell no outcome (`NO_OUTCOME`: "still investigating", "didn't take long", "won't help") are set aside."""
    rest = NO_OUTCOME.sub(" ", text)
    return bool(CUES["failed_outcome"].search(rest) or CHAT_FAILED.search(rest))


def came_after(text: str) -> bool:
    """The trouble told as beginning after the step (`CAME_AFTER`: "and since then", "Now it doesn't start"), not
    as the step's failure to end it: the step set it off, unless the trouble is said to be still there, again or back
    (the one list of those, cues.CHAT_FAILED)."""
    return bool(CAME_AFTER.search(text)) and not CHAT_FAILED.search(text)
