"""Postmortems and narrative prose, read: the entries that fixed it, the attempts that failed.

An entry that restored, mitigated, resolved or rolled back is the fix when the postmortem has no
resolution section. A failed attempt is an action tried during the incident that did not work
("changed the health-check path — still 404"); a critique of the response ("it took us 9 hours",
"we should have used bigint") is never one. The cue words are bot/reader/cues.py's.

Entries are anything with a `text` (the importer's timeline entries, a channel's messages).
"""

from __future__ import annotations

import re
from typing import Protocol, TypeVar

from bot.reader.cues import (
    ADDRESSED,
    ANAPHOR,
    ASIDE,
    BEFORE_THE_INCIDENT,
    CLAUSE,
    CRITIQUE,
    DID_NOT_WORK,
    EXPLICIT_TRY,
    FAILS_BECAUSE,
    NOTHING_NAMED,
    PENDING,
    REFERS_BACK,
    RESOLVED,
    SAYS_IT_FAILED,
    SENTENCE,
    TESTING_IT,
    TRIED,
    WE_TRIED,
    WHY_SPLIT,
)
from bot.reader.text import plain


class HasText(Protocol):
    @property
    def text(self) -> str: ...


E = TypeVar("E", bound=HasText)

# An action told in more than this many characters is a story of several steps (a procedure, a
# list of checks), not one attempt: precision first, it is not stored as one.
MAX_ACTION_CHARS = 500


def resolving(entries: list[E]) -> list[E]:
    """Entries that restored, mitigated, resolved or rolled back (and did not fail doing it); when
    such an entry only reports the state ("Service is restored"), the action just before it too."""
    chosen: dict[int, None] = {}
    for i, entry in enumerate(entries):
        if any(
            RESOLVED.search(c) and not DID_NOT_WORK.search(c) and not PENDING.search(c) for c in _clauses(entry.text)
        ):
            before = entries[i - 1] if i else None
            if (
                before is not None
                and not TRIED.search(entry.text)
                and TRIED.search(before.text)
                and not DID_NOT_WORK.search(before.text)
            ):
                chosen[i - 1] = None
            chosen[i] = None
    return [entries[i] for i in chosen]


def _attempt(text: str) -> dict[str, str] | None:
    """An action tried that did not work, said in one sentence, as {action, why_it_failed}."""
    text = " ".join(plain(text).split())
    judged = TESTING_IT.sub(" ", text)  # "to see if it would help" is the attempt, not a critique's "would"
    # SAYS_IT_FAILED too: "…, it didn't." ends in a full stop, where DID_NOT_WORK's closing \b cannot match
    # a failure said in an aside is not this action's outcome; "(it does not) manually reset the
    # node in the hope that …" opens with its outcome, not an aside
    told = (text[:1] + ASIDE.sub(" ", text[1:])).replace("*", "")  # "does *not* fix": emphasis is not a word
    failed = DID_NOT_WORK.search(told) or SAYS_IT_FAILED.search(told)
    if len(text) < 8 or CRITIQUE.search(judged) or not failed or ADDRESSED.search(text):
        return None
    if NOTHING_NAMED.match(text) or BEFORE_THE_INCIDENT.search(text) or ANAPHOR.match(text):
        return None  # "As said above, it did not work": no action named; "the day before, …": not during it
    if not TRIED.search(text) and not SAYS_IT_FAILED.search(text):
        return None
    split = WHY_SPLIT.match(text)
    if split and TRIED.search(split.group("action")) and len(split.group("action")) >= 6:
        return {"action": split.group("action").rstrip(" ,;:.—–-"), "why_it_failed": split.group("why").strip()}
    return {"action": text.rstrip(" ."), "why_it_failed": ""}


def _clauses(text: str) -> list[str]:
    """Sentences, and the clauses of "This did not help, so the pods were restarted."."""
    parts = []
    for sentence in SENTENCE.split(" ".join(text.split())):
        parts += [p.strip() for p in CLAUSE.split(sentence) if p.strip()]
    return parts


def attempts_in(text: str, *, said_by_someone: bool = False) -> list[dict[str, str]]:
    """Attempts that did not work, in one sentence ("Restarted the pods — still 404") or in two
    ("The proxy pod is restarted. This does not resolve the issue."). With `said_by_someone`, a
    sentence must say who tried (narrative prose, where most sentences describe the system)."""
    found = []
    clauses = _clauses(text)
    for i, clause in enumerate(clauses):
        previous = clauses[i - 1] if i else ""
        if (
            previous
            and (REFERS_BACK.match(clause) or re.search(r"\battempt(?:ed|s)?\b", previous, re.I))
            # "Latest deploy is attempted." then "Deploying fails due to a bug": the failure of what was attempted
            and (DID_NOT_WORK.search(clause) or (FAILS_BECAUSE.search(clause) and EXPLICIT_TRY.search(previous)))
            and TRIED.search(previous)
            and not DID_NOT_WORK.search(previous)
            and not CRITIQUE.search(previous + " " + clause)
            and (not said_by_someone or WE_TRIED.search(previous))
        ):
            found.append({"action": plain(previous).rstrip(" ,;:."), "why_it_failed": plain(clause).rstrip(" .")})
            continue
        if said_by_someone and not WE_TRIED.search(clause):
            continue
        attempt = _attempt(clause)
        if attempt is not None:
            found.append(attempt)
    return [a for a in found if len(a["action"]) <= MAX_ACTION_CHARS]


def _actions(text: str) -> set[str]:
    return {m.group().lower()[:5] for m in TRIED.finditer(text)}


def _acts_before_failing(opening: str) -> bool:
    """The entry names an action of its own before it says something failed ("Restarted the proxy,
    still 503s"), not after ("EPP came back, but the error recurred and the pod was removed")."""
    failing = DID_NOT_WORK.search(opening)
    return bool(TRIED.search(opening[: failing.start()] if failing else opening))


def _names_again(action: str, outcome: str) -> bool:
    """ "10:11 Redis instance is resized" … "10:15 cache turned off, since resizing the instances did
    not solve the issue": the later entry names the same action (a word of the same stem) where it
    says it failed, so the failure is that action's, not a new one's."""
    failing = DID_NOT_WORK.search(outcome)
    if failing is None or EXPLICIT_TRY.search(outcome[: failing.start()]):
        return False  # "tried deleting the rebooting pods, which just made more": an attempt of its own
    return bool(_actions(outcome[: failing.start()]) & _actions(action))


def failed_in_timeline(entries: list[E]) -> list[tuple[E, dict[str, str]]]:
    """Attempts within an entry, and across two: "12:05 Engineer attempts hub pod restarts." then
    "12:20 Still 503s." (an attempt said in one entry, its failure in the next one's first words, or
    in the first words of the one after when the entry between only observes)."""
    found = []
    told_before = ""  # an entry's opening already read as the failure of the entry before it
    for i, entry in enumerate(entries):
        # "…, since resizing the instances did not solve the issue" told the failure of the entry
        # before: not an attempt of this entry (its action is what was done next)
        within = [a for a in attempts_in(entry.text) if not told_before or a["action"] not in told_before]
        told_before = ""
        found += [(entry, attempt) for attempt in within]
        following = entries[i + 1] if i + 1 < len(entries) else None
        if within or following is None or DID_NOT_WORK.search(entry.text) or CRITIQUE.search(entry.text):
            continue
        first = " ".join(_clauses(following.text)[:2])
        tried = EXPLICIT_TRY.search(entry.text) or (TRIED.search(entry.text) and SAYS_IT_FAILED.search(first))
        opening = _clauses(following.text)[0]
        named_again = _names_again(entry.text, opening)
        if tried and DID_NOT_WORK.search(first) and (not _acts_before_failing(opening) or named_again):
            found.append(
                (entry, {"action": plain(entry.text).rstrip(" ."), "why_it_failed": plain(first).rstrip(" .")})
            )
            told_before = plain(" ".join(opening.split())) if named_again else ""
            continue
        # two entries later: "restarted the hub" · "checked the dashboards" · "still failing" (the entry
        # between only observes: no action, no recovery, no failure of its own)
        later = entries[i + 2] if i + 2 < len(entries) else None
        between = following.text
        if (
            later is not None
            and (EXPLICIT_TRY.search(entry.text) or WE_TRIED.search(entry.text) and TRIED.search(entry.text))
            and not (TRIED.search(between) or RESOLVED.search(between) or DID_NOT_WORK.search(between))
        ):
            opening = _clauses(later.text)[0]
            if REFERS_BACK.match(opening) and DID_NOT_WORK.search(opening) and not TRIED.search(opening):
                found.append(
                    (entry, {"action": plain(entry.text).rstrip(" ."), "why_it_failed": plain(opening).rstrip(" .")})
                )
    return [(e, a) for e, a in found if len(a["action"]) <= MAX_ACTION_CHARS]


def failed_in_prose(text: str) -> list[dict[str, str]]:
    """Sentences of narrative prose that say someone tried something and it did not work ("We
    first restarted the pods, but errors continued")."""
    return attempts_in(text, said_by_someone=True)


def is_critique(text: str) -> bool:
    return bool(CRITIQUE.search(text))
