"""Postmortems and narrative prose, read: the entries that fixed it, the attempts that failed.

An entry that restored, mitigated, resolved or rolled back is the fix when the postmortem has no
resolution section. A failed attempt is an action tried during the incident that did not work
("changed the health-check path — still 404"); a critique of the response ("it took us 9 hours",
"we should have used bigint") is never one. The cue words are bot/reader/cues.py's.

Entries are anything with a `text` (the importer's timeline entries, a channel's messages). An attempt whose
failure a later entry tells is read in bot/reader/narrative_timeline.py (`failed_in_timeline`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol, TypeVar

from bot.reader.attempt_bound import BOUND, step_bound
from bot.reader.cues import ANAPHOR, CRITIQUE, PARTLY_WORKED, PENDING, RESOLVED, TRIED
from bot.reader.cues_attempts import (
    ADDRESSED,
    AFTER_IT_WAS_OVER,
    ALERT_SAID,
    ASIDE,
    AUTOMATIC,
    BEFORE_THE_INCIDENT,
    CLAUSE,
    CONCEDED,
    CONSEQUENCE,
    EXPLICIT_TRY,
    FAILED_OUTCOME,
    FAILS_BECAUSE,
    FIGURING_OUT,
    IF_IT_FAILS,
    LOG_LINE,
    LOOKED_FOR_IT,
    NOT_TAKEN,
    NOTHING_NAMED,
    OWN_FAILURE,
    QUALIFIES,
    REFERS_BACK,
    REMEDY,
    RESPONDER_STEP,
    SAYS_THE_STEP_FAILED,
    SENTENCE,
    STEP_OUTCOME,
    STEP_WORKED,
    SYSTEM_ACTED,
    TESTING_IT,
    TRIGGERED_IT,
    TROUBLE_MADE,
    USED_THE_SERVICE,
    WE_TRIED,
    WHY_SPLIT,
    failure_cues,
    reason_begins,
    stepped_back,
    told_as_failed,
)
from bot.reader.cues_metadata import ALERT_LINE
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
    such an entry only reports the state ("Service is restored"), the action just before it too, unless
    both are sentences of one status-page update (`_one_update`)."""
    chosen: dict[int, None] = {}
    for i, entry in enumerate(entries):
        if any(
            RESOLVED.search(c) and not FAILED_OUTCOME.search(c) and not PENDING.search(c) for c in _clauses(entry.text)
        ):
            before = entries[i - 1] if i else None
            if (
                before is not None
                and not _one_update(before, entry)
                and not TRIED.search(entry.text)
                and TRIED.search(before.text)
                and not FAILED_OUTCOME.search(before.text)
            ):
                chosen[i - 1] = None
            chosen[i] = None
    return [entries[i] for i in chosen]


def _one_update(before: HasText, entry: HasText) -> bool:
    """Whether two entries are sentences of one status-page update (bot/importer/timeline.py's `Entry.update`):
    the sentence before a state-only one in the same update is not the step that restored it, but what the update
    told first: the cause, the harm ("The problem occurred when switching X, so 3% of tickets were not visible.
    Now one of the two shards was restored"; review F64). An entry of no update (a channel's message) has none."""
    update = getattr(before, "update", None)
    return update is not None and update == getattr(entry, "update", None)


def _attempt(text: str) -> dict[str, str] | None:
    """An action tried that did not work, said in one sentence, as {action, why_it_failed}."""
    text = " ".join(plain(text).split())
    judged = TESTING_IT.sub(" ", text)  # "to see if it would help" is the attempt, not a critique's "would"
    # SAYS_THE_STEP_FAILED too: "…, it didn't." ends in a full stop, where DID_NOT_WORK's closing \b cannot match
    # a failure said in an aside is not this action's outcome; "(it does not) manually reset the
    # node in the hope that …" opens with its outcome, not an aside
    told = (text[:1] + ASIDE.sub(" ", text[1:])).replace("*", "")  # "does *not* fix": emphasis is not a word
    failed = FAILED_OUTCOME.search(told) or SAYS_THE_STEP_FAILED.search(told)
    if len(text) < 8 or CRITIQUE.search(judged) or IF_IT_FAILS.search(judged) or not failed or ADDRESSED.search(text):
        return None
    if NOTHING_NAMED.match(text) or BEFORE_THE_INCIDENT.search(text) or ANAPHOR.match(text) or AUTOMATIC.search(text):
        return None  # "As said above, it did not work": no action named; "the day before, …": not during it
    if not TRIED.search(_QUOTED_WORDS.sub(" ", text)):
        return (
            None  # "Insufficient testing caused a new kind of outage": a failure word, no action (nor one only quoted)
        )
    if not SAYS_THE_STEP_FAILED.search(told) and (
        not _acted_before(told, failed.start()) or PARTLY_WORKED.search(told)
    ):
        return None  # a failure said only as a state ("still …", "persists") needs an action before it, and no "it mostly worked"
    reason = reason_begins(told, failed.start())
    if reason is not None:
        # "We scaled up, since restarting them did not help": the step that failed is the one the reason names
        # ("restarting them"), when it names one; the step before "since" is what was done next
        named = told[reason : failed.start()].strip(" ,")
        if not TRIED.search(named) or len(named) < 6:
            return None
        return {"action": named, "why_it_failed": told[failed.start() :].strip(" ."), "told": told[reason:]}
    if CONCEDED.search(told[max(failed.start() - 130, 0) : failed.start()]):
        return None  # "The queue drained, although a few jobs still failed": a remainder conceded
    relative = re.match(r"(?:that|which|who)\b", failed.group(), re.I)  # "the pods that failed": the cue's own "that"
    if QUALIFIES.search(told[: failed.start() + (relative.end() if relative else 0)]):
        return None  # "We removed those that could not be processed": the failure says which, not how it went
    if not _linked(told, told):
        return None  # "dev changes are deployed but hub does not start": the system's own failure, no one's step
    split = WHY_SPLIT.match(text)
    if split and TRIED.search(split.group("action")) and len(split.group("action")) >= 6:
        # "told": the sentence as judged, the "but" it was split on kept (told_as_failed reads it)
        return {
            "action": split.group("action").rstrip(" ,;:.—–-"),
            "why_it_failed": split.group("why").strip(),
            "told": told,
        }
    return {"action": text.rstrip(" ."), "why_it_failed": "", "told": told}


def _linked(action: str, said: str) -> bool:
    """The failure said is this action's outcome: it says the step did not help ("did not resolve",
    "no effect", "still 503s"), or, when it only tells the system's own failure ("the upgrade fails",
    "the hub does not start"), the action is a responder's step ("we", "@ops", "attempted",
    "manually") or the failure names the action again ("triggers a rebuild" ... "the rebuild failed")."""
    cues = failure_cues(said)
    if stepped_back(said, cues):
        return False  # "…, but wal-g had failed to restore": the background, not this step's outcome
    if not cues or not all(OWN_FAILURE.search(m.group()) and not STEP_OUTCOME.search(m.group()) for m in cues):
        return True
    if RESPONDER_STEP.search(action):
        return True
    if action == said and all(_SAID_OF_IT.search(said[max(m.start() - 40, 0) : m.start()]) for m in cues):
        return True  # "X was rebooted from the shell, however it did not come back online": "it" is what was acted on
    # the failure's own words count: "the index rebuild failed" names "to rebuild the index"
    return action != said and bool(_actions(said[: max(m.end() for m in cues)]) & _actions(action))


# "A planned service restart at 00:30 UTC did not resolve the issue": the step is the subject of
# words that say it had no effect, however it is told (no one named)
_NO_EFFECT = re.compile(
    r"\b(?:did|does|do) ?n[o']t (?:seem to )?(?:help|resolve|fix|solve|improve|make (?:a|any) difference|have (?:any|an|the intended) effect)\b|"
    r"\b(?:made|had) no (?:difference|effect)\b|"
    # "The stated fix of simply deleting the addrbook and restarting did not work": a step did not work ("features
    # such as bulk editing did not work at all" is a symptom: the subject must name a step)
    r"\b(?:fix|workaround|restart|rollback|roll-?back|revert|patch|hotfix|reboot|redeploy|failover|retry|attempt)s?\b"
    r"[^;]{0,250}?\b(?:did|does) ?n[o']t (?:seem to )?work\b",
    re.I,
)
# "… this time it had a different message similar to: "Server upgrade failed"": words in quotation marks are
# what something said (a message, a title), not a step someone took
_QUOTED_WORDS = re.compile(r"\"[^\"]{1,200}\"|“[^”]{1,200}”")
# the failure's subject is what the step was done to, told back as "it" / "they" after a contrast
_SAID_OF_IT = re.compile(r"\b(?:but|however|yet)\b,?\s{1,40}(?:it|they)\s{1,40}(?:\w{1,40}\s{1,40}){0,2}$", re.I)


# A second bar for a step's outcome told in no failure word the cues know (docs/BENCHMARKS.md, r23-outneg): a fitted
# reading of (step, outcome, where: "clause" or "entry") that says whether the trouble goes on after the step. None:
# off, the cue reading alone. Asked only under `_read_as_outcome`'s binding; a line it passes is stored without
# told_as_failed (which needs a failure word), `_one_attempt` still holds.
outcome_goes_on: Callable[[str, str, str], bool] | None = None
READ_AS_OUTCOME = "read_as_outcome"


def outcome_unbound(step: str, outcome: str) -> str | None:
    """Why the fitted bar is not asked whether `outcome` is `step`'s failure, or None when it is: the step must be a
    responder's (EXPLICIT_TRY, or WE_TRIED with TRIED) failing in none of its own words; the outcome must tell no
    failure (the cue paths read those), step, recovery, success or critique of its own."""
    if failure_cues(outcome):
        return "the outcome holds a failure word"
    if not (EXPLICIT_TRY.search(step) or WE_TRIED.search(step) and TRIED.search(step)):
        return "the step is no responder's"
    if failure_cues(step) or CRITIQUE.search(TESTING_IT.sub(" ", step)):
        return "the step holds a failure word or a critique"
    if any(p.search(outcome) for p in (TRIED, RESOLVED, STEP_WORKED, PARTLY_WORKED, CRITIQUE)):
        return "the outcome tells a step, recovery, success or critique"
    return None


def _read_as_outcome(step: str, outcome: str, where: str) -> bool:
    """The later clause or entry `outcome` is read as `step`'s failure by the fitted bar (`outcome_goes_on`), when
    it is set and the pair is bound (`outcome_unbound`)."""
    if outcome_goes_on is None or not outcome.strip() or outcome_unbound(step, outcome):
        return False
    return outcome_goes_on(step, outcome, where)


def kept(attempt: dict[str, str]) -> bool:
    """What a postmortem stores: one attempt, told as failed (or read so by the fitted bar, `_read_as_outcome`), that
    holds a step taken with its failure bound to it (attempt_bound.step_bound)."""
    return (
        _one_attempt(attempt)
        and (attempt.get(READ_AS_OUTCOME) == "yes" or told_as_failed(attempt))
        and step_bound(attempt)
    )


def _one_attempt(attempt: dict[str, str]) -> bool:
    """Not a story of several steps (MAX_ACTION_CHARS), a step told as having worked (STEP_WORKED) or not
    taken (NOT_TAKEN), a search for what is wrong (LOOKED_FOR_IT,
    FIGURING_OUT), a clean-up once it was over (AFTER_IT_WAS_OVER), the change that set it off
    (TRIGGERED_IT, in the why too; BEFORE_THE_INCIDENT), someone using the service or the system's own
    tries (USED_THE_SERVICE, SYSTEM_ACTED), an alert's words (ALERT_SAID, ALERT_LINE after the entry's
    time) or a pasted log (LOG_LINE)."""
    action = attempt["action"]
    if len(action) > MAX_ACTION_CHARS or TRIGGERED_IT.search(attempt["why_it_failed"]):
        return False
    vetoes = (LOOKED_FOR_IT, FIGURING_OUT, AFTER_IT_WAS_OVER, TRIGGERED_IT, BEFORE_THE_INCIDENT, USED_THE_SERVICE)
    if STEP_WORKED.search(action):
        return False  # "…, after which the database restarted without issues": the step worked
    failing = FAILED_OUTCOME.search(action)
    if NOT_TAKEN.search(action[: failing.start()] if failing else action):
        return False  # "we decided not to restart it": no step was taken
    if any(p.search(action) for p in vetoes + (SYSTEM_ACTED, ALERT_SAID, LOG_LINE)):
        return False
    if NOTHING_NAMED.match(action) or IF_IT_FAILS.search(TESTING_IT.sub(" ", f"{action} {attempt['why_it_failed']}")):
        return False  # "As said above, it did not work"; "if the restart did not help, we would …": no step, or a plan
    return not ALERT_LINE.match(re.sub(r"^[\W\d_]{0,25}(?:utc\W+)?", "", action))


def _acted_before(text: str, at: int) -> bool:
    """An action is told before the words that say it still failed ("The pods are deleted; the cluster
    is still full"), not only after them ("As the build is still not fit, I restored the node": the
    state is the reason for the action, not its outcome)."""
    return bool(TRIED.search(text[:at]))


def _clauses(text: str) -> list[str]:
    """Sentences, and the clauses of "This did not help, so the pods were restarted."."""
    parts = []
    for sentence in SENTENCE.split(" ".join(text.split())):
        start = 0
        for cut in CLAUSE.finditer(sentence):
            before = sentence[start : cut.start()]
            if before.count("(") > before.count(")") and ")" in sentence[cut.end() : cut.end() + 200]:
                continue  # "removed it (we don't use it much, so it was quick)": an aside, not a clause of its own
            parts.append(sentence[start : cut.start()].strip())
            start = cut.end()
        parts.append(sentence[start:].strip())
    return [p for p in parts if p]


def attempts_in(text: str, *, said_by_someone: bool = False) -> list[dict[str, str]]:
    """Attempts that did not work, in one sentence ("Restarted the pods — still 404") or in two
    ("The proxy pod is restarted. This does not resolve the issue."). With `said_by_someone`, a
    sentence must say who tried (narrative prose, where most sentences describe the system)."""
    return [_as_stored(a) for a in _attempts(text, said_by_someone=said_by_someone)]


def _as_stored(attempt: dict[str, str]) -> dict[str, str]:
    return {"action": attempt["action"], "why_it_failed": attempt["why_it_failed"]}


def _attempts(text: str, *, said_by_someone: bool = False, read_outcomes: bool = False) -> list[dict[str, str]]:
    found = []
    told: set[int] = set()  # sentences read as the failure of an attempt told before them
    clauses = _clauses(text)
    for i, clause in enumerate(clauses):
        previous = clauses[i - 1] if i else ""
        if i in told:
            continue
        if (
            previous
            and (REFERS_BACK.match(clause) or re.search(r"\battempt(?:ed|s)?\b", previous, re.I))
            # "Latest deploy is attempted." then "Deploying fails due to a bug": the failure of what was attempted
            and (FAILED_OUTCOME.search(clause) or (FAILS_BECAUSE.search(clause) and EXPLICIT_TRY.search(previous)))
            and (SAYS_THE_STEP_FAILED.search(clause) or not PARTLY_WORKED.search(clause))
            and TRIED.search(previous)
            # "This attracted more traffic …" then "This caused …": a chain of effects, nobody's step
            and not ANAPHOR.match(previous)
            and _linked(previous, clause)
            and not FAILED_OUTCOME.search(previous)
            and not CRITIQUE.search(previous + " " + ASIDE.sub(" ", clause))  # "(… we should have …)": an aside
            and (not said_by_someone or WE_TRIED.search(previous))
        ):
            found.append({"action": plain(previous).rstrip(" ,;:."), "why_it_failed": plain(clause).rstrip(" .")})
            continue
        if (
            read_outcomes
            and previous
            and (not said_by_someone or WE_TRIED.search(previous))
            and (i - 1) not in told
            and not any(a["action"] == plain(previous).rstrip(" ,;:.") for a in found)
            and _read_as_outcome(previous, clause, "clause")
        ):
            found.append(
                {
                    "action": plain(previous).rstrip(" ,;:."),
                    "why_it_failed": plain(clause).rstrip(" ."),
                    READ_AS_OUTCOME: "yes",
                    BOUND: "outcome_unbound",
                }
            )
            continue
        if said_by_someone and not WE_TRIED.search(clause) and not _NO_EFFECT.search(clause):
            continue
        later = _failed_later(clauses, i)
        if later is not None:
            told.add(later)
            why = plain(clauses[later]).rstrip(" .")
            found.append({"action": plain(clause).rstrip(" ,;:."), "why_it_failed": why, BOUND: "named again"})
            continue
        attempt = _attempt(clause) or _made_it_worse(clauses, i)
        if attempt is not None:
            found.append(attempt)
    return [a for a in found if _one_attempt(a)]


_JOINED = re.compile(r"[,;]?\s{0,40}(?:\b(?:which|and|but|that|this|so)\b\s{0,40}){0,20}$", re.I)


def _made_it_worse(clauses: list[str], i: int) -> dict[str, str] | None:
    """ "To fix this we increased the parallel processing, which in turn led to builds not finishing":
    a responder's step taken against the trouble (REMEDY names it: "this", "the increase") whose
    consequence, told after it in the same sentence or in the next one that refers back, is trouble."""
    clause = clauses[i]
    remedy = REMEDY.search(clause)
    if remedy is None or not (WE_TRIED.search(clause) and TRIED.search(clause)) or CRITIQUE.search(clause):
        return None
    after = clause[remedy.end() :]
    if (made := CONSEQUENCE.search(after)) and TROUBLE_MADE.search(after[made.end() :]):
        head = clause[: remedy.end() + made.start()]
        tail = max(len(head) - 40, 0)  # ", which in turn led to …": the why begins with its "which" (a bounded look)
        cut = tail + _JOINED.search(head[tail:]).start()
        return {
            "action": plain(head[:cut]).rstrip(" ,;:."),
            "why_it_failed": plain(clause[cut:]).strip(" ,;."),
            BOUND: "its consequence",
        }
    told = clauses[i + 1] if i + 1 < len(clauses) else ""
    if not (ANAPHOR.match(told) or REFERS_BACK.match(told)) or not (made := CONSEQUENCE.search(told)):
        return None
    if not TROUBLE_MADE.search(told[made.end() :]):
        return None
    return {
        "action": plain(clause).rstrip(" ,;:."),
        "why_it_failed": plain(told).rstrip(" ."),
        BOUND: "its consequence",
    }


# how many sentences after an explicit attempt its failure may be told, the ones between explaining
FAILED_WITHIN_SENTENCES = 2
_CODE = re.compile(r"`[^`]{0,200}`")
SHARED_OBJECTS = 2


def _failed_later(clauses: list[str], i: int) -> int | None:
    """ "We attempted to start the replica in standby mode." · (why that could not work) · "It
    refused to start in standby mode.": an attempt said as one, not failing in its own sentence,
    whose failure two sentences later names its object again (two words of it), the sentence
    between naming no action or recovery of its own."""
    action = clauses[i]
    if not EXPLICIT_TRY.search(action) or FAILED_OUTCOME.search(action) or CRITIQUE.search(TESTING_IT.sub(" ", action)):
        return None
    if IF_IT_FAILS.search(action) or BEFORE_THE_INCIDENT.search(action) or AUTOMATIC.search(action):
        return None
    for k in range(i + 1, min(i + 1 + FAILED_WITHIN_SENTENCES, len(clauses))):
        said = _CODE.sub(" ", clauses[k])  # "`restore_command`" is a name, not "restored"
        failing = FAILED_OUTCOME.search(said)
        if failing is None:
            if TRIED.search(said) or RESOLVED.search(said):
                return None
            continue
        if (
            k == i + 1
            or EXPLICIT_TRY.search(said[: failing.start()])
            or RESOLVED.search(said)
            or PARTLY_WORKED.search(said)
        ):
            return None  # the next sentence's failure is read with its action by the rules above
        if len(_objects(said) & _objects(action)) >= SHARED_OBJECTS and not CRITIQUE.search(said):
            return k
        return None
    return None


def _actions(text: str) -> set[str]:
    return {m.group().lower()[:5] for m in TRIED.finditer(text)}


# words that say who or when, not what was acted on: two entries sharing them share no object
_NOT_OBJECTS = frozenset(
    "the and for with from into onto that this then than they them their there were was are has have had "
    "not but all any some our its it's engineer engineers team lead tech notes note noted again still also "
    "after before now more less very just only".split()
)


def _objects(text: str) -> set[str]:
    words = {w for w in re.findall(r"[a-z0-9][a-z0-9_.-]*[a-z0-9]", text.lower()) if len(w) >= 3}
    return {w.rstrip("s")[:6] for w in words - _NOT_OBJECTS if not TRIED.fullmatch(w)}


def failed_in_prose(text: str) -> list[dict[str, str]]:
    """Sentences of narrative prose that say someone tried something and it did not work ("We
    first restarted the pods, but errors continued")."""
    return [_as_stored(a) for a in _attempts(text, said_by_someone=True, read_outcomes=True) if kept(a)]


def failed_in_text(text: str) -> list[dict[str, str]]:
    """`attempts_in` as a postmortem stores them (`told_as_failed`): sections that tell what was done."""
    return [_as_stored(a) for a in _attempts(text, read_outcomes=True) if kept(a)]


def is_critique(text: str) -> bool:
    return bool(CRITIQUE.search(text))
