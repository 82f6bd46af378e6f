"""What is no fix (and, at the end, no cause), whatever its words: a step that did not work, work still under way, a fix word
said not to have happened, the state said once it is over. Precision first: an empty fix beats a
wrong one (the next responder would repeat a step that did nothing). The words are the vocabulary's
(bot/reader/cues_fix.py, cues.py); the importer runs every fix it found through `without_non_fixes`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.reader.cues import CAUSE, CAUSE_HEDGE, CAUSE_NEGATED, DID_NOT_WORK, FAILURE_WORDS, FIX, SAYS_IT_FAILED, TRIED
from bot.reader.cues_conversation import CONVERSATION_CUES
from bot.reader.cues_fix import (
    ACTOR_SAID,
    CAUSE_AS_SUBJECT,
    CAUSE_DENIED,
    CAUSE_ELSEWHERE,
    CAUSE_NOT_OWN,
    CAUSE_NOT_SAID,
    CAUSE_OF_THE_INCIDENT,
    CAUSE_RELATED,
    CAUSE_TOLD_OUTRIGHT,
    FIX_ASKED_OF_READER,
    FIX_BY_ITSELF,
    FIX_COUNTED,
    FIX_ELSEWHERE,
    FIX_FOR_LATER,
    FIX_HYPOTHETICAL,
    FIX_INSIDE_THE_CAUSE,
    FIX_IS_THE_ONSET,
    FIX_NOT_DONE,
    FIX_NOT_YET,
    FIX_TOLD,
    FIX_UNDER_WAY,
    INCIDENT_AS_CAUSE,
    STATE_OF_THE_INCIDENT,
    STATE_SAID,
)
from bot.reader.cues_metadata import CAUSE_UNKNOWN
from bot.reader.cues_metadata_shape import HARM_SAID
from bot.reader.metadata_kind import metadata_kind
from bot.reader.narrative import _clauses as clauses
from bot.reader.narrative import attempts_in
from bot.reader.text import LINE_SENTENCE_BREAK, SENTENCE_OPENS, SITE_MARKUP

_A_WORD = re.compile(r"[^\W\d_]{2}")
# a line's sentence break (bot/reader/text.py), and before the site's markup (a fix's sentences)
_FIX_SENTENCES = re.compile(r"(?<=[.!?])\s{1,80}(?=" + SENTENCE_OPENS + r"|:{3}|\{\{[<%])")
_MAX_SENTENCE_CHARS = 1_000  # a sentence is judged on its first 1,000 characters
_MAX_FIX_WORDS = 8  # a sentence with more fix words than this tells more than what caused the incident
# "… succeed again. (alice) Rolled back …": an author's mark after a sentence belongs to it, not to the next
_AUTHOR_MARK = re.compile(r"^\([\w@][\w@ .'-]{0,40}\)(?:\s+|$)")
_TRAILING_MARK = re.compile(r"\s{1,40}\([\w@][\w@ .'-]{0,40}\)$")


def _judged(sentence: str) -> str:
    """The sentence as its words are judged: capped, without an author's mark at its end."""
    return _TRAILING_MARK.sub("", sentence.strip()[:_MAX_SENTENCE_CHARS])


def _without_markup(sentence: str) -> str:
    """The sentence as a fix's words are judged: `_judged`, without a status site's markup."""
    return _judged(SITE_MARKUP.sub(" ", sentence.strip()[:_MAX_SENTENCE_CHARS]))


def _sentences_of(line: str, split: re.Pattern[str] = LINE_SENTENCE_BREAK) -> list[str]:
    parts: list[str] = []
    for part in split.split(line):
        mark = _AUTHOR_MARK.match(part)
        if parts and mark:
            parts[-1] = f"{parts[-1]} {mark.group().strip()}"
            part = part[mark.end() :]
        if part:
            parts.append(part)
    return parts


def names_no_step(sentence: str) -> bool:
    """True when `sentence` reads like a fix but tells no step that fixed it: "restarting the pods did
    not help", "we are working with our provider to restore service", "the certificate had not been
    renewed", "The issue affecting launches has been resolved."."""
    said = _without_markup(sentence)
    return bool(STATE_OF_THE_INCIDENT.match(said)) or _only_the_state_said(said) or tells_no_step_taken(sentence)


def _only_the_state_said(said: str) -> bool:
    """True when `said` tells a state with a free subject (cues_fix.STATE_SAID) and nothing else a step could be: no fix
    word and no one who acts left outside it ("Storage and network performance has returned to normal levels.")."""
    if not STATE_SAID.search(said):
        return False
    rest = STATE_SAID.sub(" ", said)
    return not FIX.search(rest) and not ACTOR_SAID.search(rest)


def tells_no_step_taken(sentence: str) -> bool:
    """`names_no_step` but for the state said once it is over: such a line ("Service is restored") may
    follow the step that restored it, where this one (work under way, a failure, telling people) does not."""
    said = _without_markup(sentence)
    if not _A_WORD.search(said):  # the site's markup alone (":::"), a time: no step
        return True
    if FIX_ASKED_OF_READER.match(said):  # what the readers are asked to do: no step the responders took
        return True
    # the fix word only inside the frame: nothing done named
    for frame in (
        FIX_UNDER_WAY,
        FIX_NOT_DONE,
        FIX_BY_ITSELF,
        FIX_COUNTED,
        FIX_TOLD,
        FIX_IS_THE_ONSET,
        FIX_HYPOTHETICAL,
    ):
        if frame.search(said) and not FIX.search(frame.sub(" ", said)):
            return True
    if _fix_words_inside_the_cause(said):  # "… because of some logs that didn't get rotated": what set it off
        return True
    # under way, planned, expected or only looking right: no step taken, unless one is named beside it
    rest = said
    for frame in (
        FIX_UNDER_WAY,
        FIX_NOT_YET,
        FIX_ELSEWHERE,
        FIX_FOR_LATER,
    ):  # under way, a plan, a pointer, a follow-up
        rest = frame.sub(" ", rest)
    if rest != said and not FIX.search(rest) and not TRIED.search(rest):
        return True
    if attempts_in(said):  # told as a failed attempt, and every clause of it says it failed
        return all(_failed(c) for c in clauses(said))
    return False


def _fix_words_inside_the_cause(said: str) -> bool:
    """True when every fix word of `said` is told inside the clause that says what caused the incident
    (cues_fix.FIX_INSIDE_THE_CAUSE): the text before each fix word ends in that clause."""
    starts = [m.start() for m in FIX.finditer(said)][: _MAX_FIX_WORDS + 1]
    if not starts or len(starts) > _MAX_FIX_WORDS:  # many fix words: more told than a cause (and the work bounded)
        return False
    # the clause is at most 200 characters after its cause word: each look reads the 240 before the fix word
    return all(FIX_INSIDE_THE_CAUSE.search(said[max(0, start - 240) : start]) for start in starts)


def _failed(clause: str) -> bool:
    # SAYS_IT_FAILED too: "…, it didn't." ends in a full stop, where DID_NOT_WORK's closing \b cannot match
    return bool(DID_NOT_WORK.search(clause) or SAYS_IT_FAILED.search(clause))


def without_non_fixes(text: str) -> str:
    """A fix's text without the sentences that name no step (`names_no_step`); "" when none is left."""
    return _without(text, names_no_step, _FIX_SENTENCES)


def _without(text: str, drop: Callable[[str], bool], split: re.Pattern[str] = LINE_SENTENCE_BREAK) -> str:
    """`text`, line by line, without the sentences `drop` says are not what the field holds."""
    kept_lines = []
    for line in text.split("\n"):
        kept = [p for p in _sentences_of(line, split) if not drop(p)]
        if kept:
            kept_lines.append(" ".join(kept))
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept_lines)).strip()


def names_no_cause(sentence: str) -> bool:
    """True when `sentence` says something of the cause but not what it was: "We have identified the
    root cause and are working on the fix", "we are investigating the cause", "restarting instances
    will cause them to be affected", "users may notice restarts due to this issue", "the issue is now
    resolved", "PyPI was not compromised"; or is a status page's progress or state line ("we are working to
    restore service") with no cause word outside it; or points to where the details are ("… are detailed below")."""
    said = _judged(sentence)
    # the cause words only inside these frames: nothing that caused it named
    rest = CAUSE_DENIED.sub(" ", INCIDENT_AS_CAUSE.sub(" ", CAUSE_NOT_SAID.sub(" ", said)))
    if rest != said and not CAUSE.search(rest):
        return True
    if STATE_OF_THE_INCIDENT.match(said) or CAUSE_ELSEWHERE.search(said):
        return True
    return bool(FIX_UNDER_WAY.search(said) and not CAUSE.search(FIX_UNDER_WAY.sub(" ", said)))


def without_non_causes(text: str) -> str:
    """A cause's text without the sentences that name no cause (`names_no_cause`); "" when none is left."""
    return _without(text, names_no_cause)


def tells_the_cause_outright(sentence: str) -> bool:
    """A sentence that names the incident's own cause as such ("The root cause was a path mismatch on k8s01 …", "This
    happened because …", "We've tracked the cause down to …"), asserted: not denied, hedged, unknown, said found but not
    named, or told elsewhere ("The cause is the same as an earlier incident"). Such a summary sentence goes before a root
    cause section even when its heading names the cause: that section may open with the method it was found by ("The
    Infinite How's Chain:", "Swiss Cheese") or the mechanism at length. The cause words alone are not enough there:
    "because" and "due to" tell the harm's own why as often ("The team did not notice because …"; docs/BENCHMARKS.md,
    pmcause, seventeenth session)."""
    told = CAUSE_OF_THE_INCIDENT.search(sentence) or CAUSE_TOLD_OUTRIGHT.search(sentence)
    if not told or names_no_cause(sentence):
        return False
    return not any(p.search(sentence) for p in (CAUSE_NEGATED, CAUSE_UNKNOWN, CAUSE_HEDGE, CAUSE_NOT_OWN))


# the reader's words for trouble met and for a cause named (the vocabulary's, the chat reader's among them): no new list
_TROUBLE = (FAILURE_WORDS, HARM_SAID, *(CONVERSATION_CUES[k] for k in ("outage_noun", "down_state", "status_update")))
_WHY = (CAUSE, CAUSE_RELATED, CAUSE_AS_SUBJECT, CAUSE_OF_THE_INCIDENT, CONVERSATION_CUES["cause_marker"])


def tells_trouble_not_why(sentence: str) -> bool:
    """True when `sentence` is a status page's talk or the harm (`metadata_kind` "status" / "impact"), or tells the
    trouble met with no word of why: "A small number of compute instances have experienced an unexpected restart",
    "The in app purchase is not working on iOS", "We are noticing issues with new node launches". The sentence model's
    cause picks are read with it (bot/importer/cause_fix.py): what users saw is no cause (fold A one organisation out,
    docs/BENCHMARKS.md r23-veto)."""
    if metadata_kind(sentence) in ("status", "impact"):
        return True
    return any(p.search(sentence) for p in _TROUBLE) and not any(p.search(sentence) for p in _WHY)
