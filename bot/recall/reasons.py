"""Reasons: why a memory came back, in words an engineer reads at 3 a.m.

Terms are shown as the query spelled them (never as stems), codes by what they are ("same
status: 502"), and only terms that say something: a word most memories contain is no reason.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime

from bot.models import RecallQuery, TruthState
from bot.recall.alerts import same_alert, shown
from bot.recall.candidates import Candidate
from bot.recall.meaning import quoted
from bot.recall.signals import Signals
from bot.recall.tokens import stem

MAX_TERMS_SHOWN = 6
SIMILAR_MEANING = 0.6
"""Semantic signal (relative to the query's other candidates) from which the card says so."""
# idf below this (the term is in more than about a third of the bank) is no reason to show
MIN_REASON_IDF = 1.0

# terms that rank ("out of memory", "exit code 137", and on jira-dev a short stop list ranks
# best) but are no reason on their own to show a memory
GENERIC = frozenset(
    stem(w)
    for w in """out down up off over under again against error errors fail failed failure failing issue problem
    return returns code status signal errno exit time times start started stop run running use used work working
    make made need needs want try tried call calls request requests got get gets getting keep keeps kept yet
    nobody everybody everyone someone something anything nothing every us one two three left right still even
    though however may might must shall seems seem seemed like likely well really much many now new old see saw
    seen way ways etc thing things lot lots bit able unable am having doing ought let myself ourselves yourself
    themselves itself herself himself whom those nor hers ours theirs""".split()
)

_STATUS = re.compile(r"^[1-5]\d\d$")
_EXIT = re.compile(r"^(?:12[6-9]|1[3-5]\d|16[0-5])$")  # 128 + signal, 126/127 (not runnable/found)
_CODED = re.compile(r"^(errno|exit|signal):(\d+)$")
_ERROR_CODE = re.compile(r"^[a-z]{1,8}-?\d{3,}$")


def humanize_age(then: datetime | None, now: datetime) -> str:
    if then is None:
        return "age unknown"
    days = int((now - then).total_seconds() // 86400)
    if days < 1:
        return "today"
    if days < 2:
        return "yesterday"
    if days < 45:
        return f"{days} days ago"
    if days < 548:
        return f"{round(days / 30.4)} months ago"
    return f"{round(days / 365.25)} years ago"


def code_reason(term: str, surface: str) -> str | None:
    """'same status: 502', 'same exit code: 137', 'same error code: ORA-00060', or None."""
    coded = _CODED.match(term)
    if coded:
        kind = {"errno": "errno", "exit": "exit code", "signal": "signal"}[coded.group(1)]
        return f"same {kind}: {coded.group(2)}"
    if _EXIT.match(term):
        return f"same exit code: {term}"
    if _STATUS.match(term):
        return f"same status: {term}"
    if _ERROR_CODE.match(term):
        return f"same error code: {surface.upper() if surface.lower() == term else surface}"
    return None


def term_reasons(candidate: Candidate, surfaces: Mapping[str, str]) -> list[str]:
    """Codes as their own reasons, then the telling matched words as the query wrote them."""
    codes: list[str] = []
    words: list[str] = []
    for term in candidate.matched_terms:
        surface = surfaces.get(term, term)
        code = code_reason(term, surface)
        if code:
            if code not in codes:
                codes.append(code)
        elif term not in GENERIC and candidate.query_idf.get(term, MIN_REASON_IDF) >= MIN_REASON_IDF:
            word = surface.lower() if surface[:1].isupper() and surface[1:].islower() else surface
            if word not in words:
                words.append(word)
    reasons = codes
    if words:
        shown = ", ".join(words[:MAX_TERMS_SHOWN])
        more = len(words) - MAX_TERMS_SHOWN
        reasons.append(f"matched terms: {shown}" + (f" (+{more} more)" if more > 0 else ""))
    return reasons


def explain(
    query: RecallQuery, candidate: Candidate, signals: Signals, now: datetime, surfaces: Mapping[str, str] | None = None
) -> list[str]:
    memory = candidate.memory
    alert = same_alert(query, memory) if signals.same_alert else None
    # the strongest evidence first: it is what a responder should read first
    reasons = [f"same alert: {shown(alert, query)}"] if alert else []
    reasons += term_reasons(candidate, surfaces or {})
    if signals.semantic is not None and signals.semantic >= SIMILAR_MEANING and candidate.closest_sentence:
        reasons.append(f"similar meaning: “{quoted(candidate.closest_sentence)}”")
    if candidate.same_signature:
        reasons.append("same error signature")
    for concept in candidate.shared_concepts:
        reasons.append(f"same mechanism: {concept}")
    if signals.same_service:
        reasons.append(f"same service: {memory.service}")
    if memory.truth_state in (TruthState.HUMAN_CONFIRMED, TruthState.VERIFICATION_CONFIRMED):
        who = f" by {memory.verified_by_name or memory.verified_by}" if memory.verified_by else ""
        when = f" {humanize_age(memory.verified_at, now)}" if memory.verified_at else ""
        verb = "verified" if memory.truth_state is TruthState.VERIFICATION_CONFIRMED else "confirmed"
        reasons.append(f"{verb}{who}{when}")
    elif memory.truth_state is TruthState.SUPERSEDED:
        reasons.append(f"superseded by {memory.superseded_by}")
    else:
        reasons.append("not verified")
    if memory.corrections:
        n = len(memory.corrections)
        reasons.append(f"{n} correction{'s' if n != 1 else ''}")
    if memory.failed_attempts:
        n = len(memory.failed_attempts)
        reasons.append(f"{n} failed attempt{'s' if n != 1 else ''} recorded")
    if candidate.helpful_votes or candidate.not_relevant_votes:
        reasons.append(f"feedback: {candidate.helpful_votes} helpful, {candidate.not_relevant_votes} not relevant")
    return reasons
