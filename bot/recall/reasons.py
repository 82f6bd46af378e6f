"""Reasons: why a memory came back, in words an engineer reads at 3 a.m."""

from __future__ import annotations

from datetime import datetime

from bot.recall.candidates import Candidate
from bot.recall.signals import Signals
from bot.models import RecallQuery, TruthState

MAX_TERMS_SHOWN = 6


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


def explain(query: RecallQuery, candidate: Candidate, signals: Signals, now: datetime) -> list[str]:
    memory = candidate.memory
    reasons: list[str] = []
    if candidate.matched_terms:
        shown = ", ".join(candidate.matched_terms[:MAX_TERMS_SHOWN])
        more = len(candidate.matched_terms) - MAX_TERMS_SHOWN
        reasons.append(f"matched terms: {shown}" + (f" (+{more} more)" if more > 0 else ""))
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
