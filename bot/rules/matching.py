"""When a rule fires, and what replaying it against history says. Pure.

A rule fires on what is known when an incident starts (service, title, symptoms, error), never
on its root cause, which nobody knows yet. Replay then judges each past incident it fired on by
the root cause people confirmed for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.models import Incident, MemoryDraft, TruthState
from bot.recall.concepts import Vocabulary
from bot.recall.signature import error_signature
from bot.rules.model import Rule, RuleMatch
from bot.rules.patterns import cause_and_fix_terms, diagnosis_mechanism, mechanism_words, rule_terms, shares_root_cause


def fires(match: RuleMatch, incident: Incident, vocabulary: Vocabulary) -> bool:
    services = {s.lower() for s in match.services}
    if services and (incident.service or "").strip().lower() not in services:
        return False
    signature = error_signature(incident.error_message)
    if signature is not None and signature in match.error_signatures:
        return True
    if not match.concepts:
        return False
    named = set(vocabulary.detect(incident.title, incident.symptoms, incident.error_message))
    return set(match.concepts) <= named


def as_incident(memory: MemoryDraft) -> Incident:
    """A past incident as it looked when it started."""
    return Incident(
        title=memory.title, service=memory.service, symptoms=memory.symptoms, error_message=memory.error_message
    )


def has_root_cause(rule: Rule, memory: MemoryDraft, vocabulary: Vocabulary) -> bool:
    """Whether people confirmed, for this incident, the root cause the rule was built from."""
    if memory.truth_state not in (TruthState.HUMAN_CONFIRMED, TruthState.VERIFICATION_CONFIRMED):
        return False
    if not memory.root_cause or not memory.resolution:
        return False
    mechanism = diagnosis_mechanism(memory, vocabulary)
    if not set(rule.root_cause.concepts) <= set(mechanism):
        return False
    terms = cause_and_fix_terms(memory, mechanism_words(mechanism, vocabulary))
    return shares_root_cause(terms, rule_terms(rule.root_cause.terms))


@dataclass
class Judgement:
    hits: list[str] = field(default_factory=list)
    false_fires: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    unjudged: list[str] = field(default_factory=list)

    def add(self, other: Judgement) -> None:
        for name in ("hits", "false_fires", "misses", "unjudged"):
            getattr(self, name).extend(getattr(other, name))


def judge_memories(
    rule: Rule, memories: Iterable[MemoryDraft], vocabulary: Vocabulary, *, prefix: str = ""
) -> Judgement:
    """Each past incident: did the rule fire on how it started, and was its cause the rule's?"""
    out = Judgement()
    for memory in memories:
        if memory.is_private:  # a rule file is read by the whole team
            continue
        name = prefix + memory.incident_id
        fired = fires(rule.match, as_incident(memory), vocabulary)
        if not memory.truth_state.reusable or not memory.root_cause:
            if fired:
                out.unjudged.append(name)
        elif has_root_cause(rule, memory, vocabulary):
            (out.hits if fired else out.misses).append(name)
        elif fired:
            out.false_fires.append(name)
    return out


def judge_cases(
    rule: Rule,
    cases: Iterable[tuple[str, Incident, Sequence[str]]],
    memories: dict[str, MemoryDraft],
    vocabulary: Vocabulary,
    *,
    prefix: str = "",
) -> Judgement:
    """Replay-corpus cases: a case has the rule's root cause when one of its true matches does."""
    out = Judgement()
    for case_id, incident, relevant in cases:
        name = prefix + case_id
        fired = fires(rule.match, incident, vocabulary)
        known = [memories[r] for r in relevant if r in memories]
        if any(has_root_cause(rule, m, vocabulary) for m in known):
            (out.hits if fired else out.misses).append(name)
        elif fired:
            judged = any(m.truth_state.reusable and m.root_cause for m in known)
            (out.false_fires if judged else out.unjudged).append(name)
    return out
