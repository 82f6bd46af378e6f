"""Postmortems and narrative prose, read (bot/reader/narrative.py, continued for length only): a failed attempt told
across a timeline's entries, the action in one and its failure in a later one ("12:05 Engineer attempts hub pod
restarts." then "12:20 Still 503s."), as the first words of the next entry, after entries that only observe, or
where a later entry names the action again. The cue words are bot/reader/cues.py's and cues_attempts.py's.
"""

from __future__ import annotations

import re

from bot.reader.attempt_bound import BOUND
from bot.reader.cues import CRITIQUE, PARTLY_WORKED, RESOLVED, TRIED
from bot.reader.cues_attempts import (
    EXPLICIT_TRY,
    FAILED_OUTCOME,
    NEGATED_RECOVERY,
    QUOTED,
    REFERS_BACK,
    REPEATED,
    REPORTS_A_STATE,
    SAYS_THE_STEP_FAILED,
    TESTING_IT,
    WE_TRIED,
)
from bot.reader.narrative import (
    READ_AS_OUTCOME,
    E,
    _actions,
    _as_stored,
    _attempts,
    _clauses,
    _linked,
    _objects,
    _read_as_outcome,
    kept,
)
from bot.reader.text import plain

# how many entries later a failure may still name an action again ("13:29 Engineer attempts hub pod
# restarts." … "14:35 Engineer notes restarting hub pods is not having the intended effect")
NAMED_LATER_WITHIN = 8
# how many entries that only observe may stand between an action and "still failing"
OBSERVED_BETWEEN = 3


def _acts_before_failing(opening: str) -> bool:
    """The entry names an action of its own before it says something failed ("Restarted the proxy,
    still 503s"), not after ("EPP came back, but the error recurred and the pod was removed")."""
    failing = FAILED_OUTCOME.search(opening)
    return bool(TRIED.search(opening[: failing.start()] if failing else opening))


def _names_again(action: str, outcome: str, failing: re.Match[str] | None = None) -> bool:
    """ "10:11 Redis instance is resized" … "10:15 cache turned off, since resizing the instances did
    not solve the issue": the later entry names the same action (a word of the same stem) where it
    says it failed, so the failure is that action's, not a new one's."""
    failing = failing or FAILED_OUTCOME.search(outcome)
    if failing is None or EXPLICIT_TRY.search(outcome[: failing.start()]):
        return False  # "tried deleting the rebooting pods, which just made more": an attempt of its own
    return bool(_actions(outcome[: failing.start()]) & _actions(action))


def _failing_clauses(text: str, read: dict[str, list[tuple[str, re.Match[str]]]]) -> list[tuple[str, re.Match[str]]]:
    """The clauses of an entry that say something failed (no critique), each with that match; read
    once per entry however many actions before it look at it (`read` keeps them for one timeline)."""
    if text not in read:
        read[text] = [
            (c, m) for c in _clauses(text) if (m := FAILED_OUTCOME.search(c)) is not None and not CRITIQUE.search(c)
        ]
    return read[text]


def _named_later(
    entries: list[E], i: int, read: dict[str, list[tuple[str, re.Match[str]]]] | None = None
) -> tuple[int, str] | None:
    """A later entry (within NAMED_LATER_WITHIN) that names entry i's action again, on the same
    object, where it says it failed: (its index, that clause). Entry i must be an action said to be
    tried or taken by someone, not a failure or a critique of its own."""
    action = entries[i].text
    if not (EXPLICIT_TRY.search(action) or WE_TRIED.search(action) and TRIED.search(action)):
        return None
    named = _identifiers(action)  # once per action, not per later clause
    read = {} if read is None else read
    for j in range(i + 1, min(i + 1 + NAMED_LATER_WITHIN, len(entries))):
        for clause, failing in _failing_clauses(entries[j].text, read):
            if _names_again(action, clause, failing) and _objects(clause[: failing.start()]) & _objects(action):
                return j, plain(" ".join(clause.split()))
            if named and named & _identifiers(clause) and not TRIED.search(clause[: failing.start()]):
                return j, plain(" ".join(clause.split()))
    return None


def _identifiers(text: str) -> set[str]:
    """What names one thing and no other ("report #3", "db-02", "v2.3.1"): a word with a digit and a
    letter or "#" (never a time, a date or a count)."""
    words = re.findall(r"#?[a-z0-9][a-z0-9_.#-]*[a-z0-9]|#\d+", text.lower())
    return {w for w in words if re.search(r"\d", w) and re.search(r"[a-z#]", w)}


def _refers_back(action: str, opening: str) -> bool:
    """The opening of a later entry tells the state the action left: it opens on it ("Still 503s",
    "The errors persist") or says the trouble is there still or again ("Engineer reports the issue
    still persists", "After CI times out again, …"); never a recovery or "it mostly worked". Said
    only as still or again, the action must be one: not a recovery that relapsed ("service
    restored" … "the issue recurs"), not a state someone reported ("X confirms the nodes are updated")."""
    failing = FAILED_OUTCOME.search(opening)
    if failing is None or RESOLVED.search(NEGATED_RECOVERY.sub(" ", opening)) or PARTLY_WORKED.search(opening):
        return False  # ("The problem is not fixed" tells no recovery)
    if REFERS_BACK.match(opening):
        return True
    acted = not (RESOLVED.search(action) or REPORTS_A_STATE.match(plain(action)))
    return acted and bool(REPEATED.search(failing.group()))


def failed_in_timeline(entries: list[E]) -> list[tuple[E, dict[str, str]]]:
    """Attempts within an entry, and across two: "12:05 Engineer attempts hub pod restarts." then
    "12:20 Still 503s." (an attempt said in one entry, its failure in the next one's first words, or
    in the first words of the one after when the entry between only observes)."""
    found = []
    told: dict[int, str] = {}  # an entry's words already read as the failure of an entry before it
    read: dict[str, list[tuple[str, re.Match[str]]]] = {}  # entries' failing clauses, read once
    for i, entry in enumerate(entries):
        # "…, since resizing the instances did not solve the issue" told the failure of the entry
        # before: not an attempt of this entry (its action is what was done next)
        told_before = told.pop(i, "")
        within = [
            a for a in _attempts(entry.text, read_outcomes=True) if not told_before or a["action"] not in told_before
        ]
        found += [(entry, attempt) for attempt in within]
        following = entries[i + 1] if i + 1 < len(entries) else None
        # "deleted the pod to see if a clean data directory would clear the issue": testing, not a critique's "would"
        judged = TESTING_IT.sub(" ", entry.text)
        if within or following is None or FAILED_OUTCOME.search(entry.text) or CRITIQUE.search(judged):
            continue
        if not TRIED.search(QUOTED.split(entry.text, 1)[0]):
            continue  # "received an email > … please reactivate …": the action is in what it quotes, not done
        first = " ".join(_clauses(following.text)[:2])
        opening = _clauses(following.text)[0]
        # "Restarted the node." then "Still failing." / "The errors persist.": the next entry opens on
        # the state the action left, referring back to it
        refers_back = _refers_back(entry.text, opening)
        tried = EXPLICIT_TRY.search(entry.text) or (
            TRIED.search(entry.text) and (SAYS_THE_STEP_FAILED.search(first) or refers_back)
        )
        named_again = _names_again(entry.text, opening)
        linked = refers_back or _linked(entry.text, first)
        if tried and linked and FAILED_OUTCOME.search(first) and (not _acts_before_failing(opening) or named_again):
            found.append(
                (entry, {"action": plain(entry.text).rstrip(" ."), "why_it_failed": plain(first).rstrip(" .")})
            )
            if named_again:
                told[i + 1] = plain(" ".join(opening.split()))
            continue
        named_later = _named_later(entries, i, read)
        if named_later is not None:
            j, clause = named_later
            found.append(
                (
                    entry,
                    {
                        "action": plain(entry.text).rstrip(" ."),
                        "why_it_failed": clause.rstrip(" ."),
                        BOUND: "named again",
                    },
                )
            )
            told[j] = clause
            continue
        # a few entries later: "restarted the hub" · "checked the dashboards" · "still failing" (the
        # entries between only observe: no action, no recovery, no failure of their own)
        if not (EXPLICIT_TRY.search(entry.text) or WE_TRIED.search(entry.text) and TRIED.search(entry.text)):
            continue
        bound = False
        for j in range(i + 2, min(i + 2 + OBSERVED_BETWEEN, len(entries))):
            between = entries[j - 1].text
            if TRIED.search(between) or RESOLVED.search(between) or FAILED_OUTCOME.search(between):
                break
            opening = _clauses(entries[j].text)[0]
            if _refers_back(entry.text, opening) and not TRIED.search(opening):
                found.append(
                    (entry, {"action": plain(entry.text).rstrip(" ."), "why_it_failed": plain(opening).rstrip(" .")})
                )
                bound = True
                break
        # the next entry's opening told in no failure word: the fitted bar (off unless set) reads whether it goes on
        if not bound and _read_as_outcome(entry.text, first, "entry"):
            found.append(
                (
                    entry,
                    {
                        "action": plain(entry.text).rstrip(" ."),
                        "why_it_failed": plain(first).rstrip(" ."),
                        READ_AS_OUTCOME: "yes",
                        BOUND: "outcome_unbound",
                    },
                )
            )
    return [(e, _as_stored(a)) for e, a in found if kept(a)]
