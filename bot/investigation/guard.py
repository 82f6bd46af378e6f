"""The guard: checks an answer before anyone sees it. Pure functions, no I/O.

It repairs what it safely can (citations of memories that were not recalled are dropped,
unquoted hypotheses are demoted to needs_evidence, failed actions get their why, missed
conflicts are added) and reports what it cannot: an answer that says a past incident IS the
current cause is refused, and the caller asks again or falls back to the offline answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.investigation.conflicts import EVIDENCE_NEEDED, detect_conflicts
from bot.investigation.models import MAX_ITEMS, Findings, HypothesisStatus, TimelineEntry
from bot.investigation.prompt import neutralise
from bot.investigation.text import clip, coverage, normalise, quote_found, similarity, terms
from bot.models import MAX_TEXT, Incident, RecallMatch

# A check matches a past failed attempt when it names most of the attempt's words.
FAILED_ACTION_COVERAGE = 0.6
# A summary sentence restates a past root cause when it carries most of the cause's words.
PAST_CAUSE_COVERAGE = 0.6
MIN_CAUSE_TERMS = 4

# Words that turn a claim into a question or a hypothesis.
_HEDGE = re.compile(
    r"\b(not|no|never|cannot|can't|isn't|don't|doesn't|whether|if|unless|unclear|unknown|may|might|"
    r"could|possibly|perhaps|unconfirmed|until|rule out)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
# Looks like INC-123 or PD-2025-0412: upper case and 3+ digits, so "us-east-1", "HTTP-2" or
# "SEV-1" is not taken for an incident id.
_GENERIC_ID = r"(?-i:[A-Z]{2,}[A-Z0-9]*-\d{3,}[\w-]*)"
# {id} is replaced by an alternation of the recalled ids and a generic INC-123-like id.
_CLAIMS = [
    r"root cause (?:is|was|appears to be|seems to be)? ?(?:exactly |just )?(?:the )?same (?:as|like) (?:in |that of |the one in )?{id}",
    r"same (?:root )?cause as (?:in )?{id}",
    r"\b(?:this|it|the current incident|this incident|today's incident) (?:is|'s) (?:just |simply |exactly |clearly |again )?"
    r"(?:a |an )?(?:repeat of |recurrence of |rerun of |re-?occurrence of |the same (?:\w+ )?as )?{id}",
    r"caused by the same [\w\s-]{{0,40}}? as (?:in )?{id}",
    r"{id} (?:is )?(?:happening |occurring )?(?:again|recurring|has recurred|is back)",
    r"(?:identical|same) (?:issue|incident|problem|failure|outage|bug|fault) as (?:in )?{id}",
    r"\b(?:root )?cause (?:is|was) (?:that of |the one from |the one in |from )?{id}",
]


@dataclass(frozen=True)
class GuardResult:
    findings: Findings
    flags: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)

    @property
    def refused(self) -> bool:
        return bool(self.violations)


def current_corpus(incident: Incident, timeline: list[TimelineEntry]) -> str:
    """All CURRENT evidence as one normalised text, as declared and as shown in the prompt."""
    declared = [incident.title, incident.service, incident.severity, incident.symptoms, incident.error_message]
    lines = [x for x in declared if x] + [f"{e.author}: {e.text}" for e in timeline]
    raw = "\n".join(lines)
    return normalise(raw) + "\n" + normalise(neutralise(raw))


def check_citations(findings: Findings, recalled_ids: list[str]) -> tuple[Findings, list[str]]:
    canonical = {i.casefold(): i for i in recalled_ids}
    unknown: set[str] = set()

    def known(ids: list[str]) -> list[str]:
        unknown.update(i for i in ids if i.casefold() not in canonical)
        return list(dict.fromkeys(canonical[i.casefold()] for i in ids if i.casefold() in canonical))

    checks = []
    for check in findings.checks_to_run:
        ids = known(check.memory_ids)
        if check.memory_ids and not ids:
            continue  # suggested only by memories we never recalled
        checks.append(check.model_copy(update={"memory_ids": ids}))
    hypotheses = [h.model_copy(update={"related_memory_ids": known(h.related_memory_ids)}) for h in findings.hypotheses]
    successes = [a.model_copy(update={"memory_id": known([a.memory_id])[0]}) for a in findings.successful_previous_actions if known([a.memory_id])]
    failures = [a.model_copy(update={"memory_id": known([a.memory_id])[0]}) for a in findings.failed_previous_actions if known([a.memory_id])]
    conflicts = []
    for conflict in findings.conflicts:
        ids = known(conflict.memory_ids)
        if len(ids) >= 2:
            conflicts.append(conflict.model_copy(update={"memory_ids": ids}))
    flags = []
    if unknown:
        flags.append(f"dropped citations of memories that were not recalled: {', '.join(sorted(unknown))}")
    repaired = findings.model_copy(
        update={
            "checks_to_run": checks,
            "hypotheses": hypotheses,
            "successful_previous_actions": successes,
            "failed_previous_actions": failures,
            "conflicts": conflicts,
        }
    )
    return repaired, flags


def require_current_evidence(findings: Findings, corpus: str) -> tuple[Findings, list[str]]:
    flags: list[str] = []
    hypotheses = []
    for h in findings.hypotheses:
        quotes = [q for q in h.current_evidence if quote_found(q, corpus)]
        if len(quotes) < len(h.current_evidence):
            flags.append(f"removed quotes not found in the current incident from: {clip(h.statement, 80)}")
        status = h.status if quotes else HypothesisStatus.NEEDS_EVIDENCE
        if status is not h.status:
            flags.append(f"no current evidence quoted, so needs_evidence: {clip(h.statement, 80)}")
        hypotheses.append(h.model_copy(update={"current_evidence": quotes, "status": status}))
    return findings.model_copy(update={"hypotheses": hypotheses}), flags


def complete_failed_actions(findings: Findings, memories: list[RecallMatch]) -> tuple[Findings, list[str]]:
    """Every failed previous action carries why it failed: from the answer, else from the memory."""
    by_id = {m.memory.incident_id: m.memory for m in memories}
    flags: list[str] = []
    failures = []
    for action in findings.failed_previous_actions:
        if not action.why_it_failed:
            memory = by_id.get(action.memory_id)
            attempts = [a for a in (memory.failed_attempts if memory else []) if a.why_it_failed]
            best = max(attempts, key=lambda a: similarity(a.action, action.action), default=None)
            if best is not None and similarity(best.action, action.action) >= 0.5:
                why = best.why_it_failed
            else:
                why = f"why it failed was not recorded in {action.memory_id}"
            action = action.model_copy(update={"why_it_failed": why})
            flags.append(f"added why it failed: {clip(action.action, 80)}")
        failures.append(action)
    return findings.model_copy(update={"failed_previous_actions": failures}), flags


def annotate_failed_recommendations(findings: Findings, memories: list[RecallMatch]) -> tuple[Findings, list[str]]:
    """A check that repeats a past failed attempt must say why it failed then."""
    attempts = [(m.memory.incident_id, a) for m in memories for a in m.memory.failed_attempts]
    flags: list[str] = []
    checks = []
    for check in findings.checks_to_run:
        said = terms(f"{check.action} {check.why}")
        for memory_id, attempt in attempts:
            if len(terms(attempt.action)) < 2 or coverage(attempt.action, terms(check.action)) < FAILED_ACTION_COVERAGE:
                continue
            if attempt.why_it_failed and coverage(attempt.why_it_failed, said) >= 0.5:
                continue
            why = attempt.why_it_failed or "why was not recorded"
            note = f" Note: “{clip(attempt.action, 200)}” did not work in {memory_id}: {why}"
            check = check.model_copy(update={"why": clip(check.why + note, MAX_TEXT)})
            said = terms(f"{check.action} {check.why}")
            flags.append(f"added why it failed before to check: {clip(check.action, 80)}")
        checks.append(check)
    return findings.model_copy(update={"checks_to_run": checks}), flags


def ensure_conflicts(findings: Findings, memories: list[RecallMatch]) -> tuple[Findings, list[str]]:
    """Conflicting memories are always shown as a conflict asking for current evidence."""
    conflicts = [c if c.evidence_needed else c.model_copy(update={"evidence_needed": EVIDENCE_NEEDED}) for c in findings.conflicts]
    flags: list[str] = []
    for detected in detect_conflicts(memories):
        if not any(len(set(detected.memory_ids) & set(c.memory_ids)) >= 2 for c in conflicts):
            conflicts.append(detected)
            flags.append(f"added a conflict between {', '.join(detected.memory_ids)}")
    return findings.model_copy(update={"conflicts": conflicts[:MAX_ITEMS]}), flags


def _id_pattern(recalled_ids: list[str]) -> str:
    known = [re.escape(i) for i in sorted(recalled_ids, key=len, reverse=True)]
    return "(?P<id>" + "|".join(known + [_GENERIC_ID]) + ")"


def past_as_present(
    findings: Findings, memories: list[RecallMatch], corpus: str, pattern_ids: Sequence[str] = ()
) -> list[str]:
    """Statements that a past incident (or a known pattern) IS the current cause. Questions and
    hedged hypotheses pass."""
    ids = [m.memory.incident_id for m in memories] + list(pattern_ids)
    id_re = _id_pattern(ids)
    claims = [re.compile(p.format(id=id_re), re.IGNORECASE) for p in _CLAIMS]
    texts = [("current_summary", findings.current_summary)]
    texts += [(f"hypothesis “{clip(h.statement, 60)}”", h.statement) for h in findings.hypotheses]
    texts += [(f"check “{clip(c.action, 60)}”", f"{c.action}. {c.why}") for c in findings.checks_to_run]
    violations: list[str] = []
    for where, text in texts:
        for sentence in filter(None, (s.strip() for s in _SENTENCE.split(text))):
            if sentence.endswith("?"):
                continue
            for claim in claims:
                found = claim.search(sentence)
                if found and not _HEDGE.search(sentence[: found.end()]):
                    violations.append(f"{where} says a past incident is the current cause: “{clip(sentence, 200)}”")
                    break

    named = [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", findings.current_summary, re.IGNORECASE)]
    if named:
        violations.append(f"current_summary names past incidents ({', '.join(named)}); it must hold current evidence only")
    current_terms = terms(corpus)
    for match in memories:
        cause = match.memory.root_cause or ""
        if len(terms(cause)) < MIN_CAUSE_TERMS or coverage(cause, current_terms) >= PAST_CAUSE_COVERAGE:
            continue  # too short to tell, or the current evidence itself says it
        for sentence in _SENTENCE.split(findings.current_summary):
            if coverage(cause, terms(sentence)) >= PAST_CAUSE_COVERAGE:
                violations.append(
                    f"current_summary states the root cause of {match.memory.incident_id} as current: “{clip(sentence, 200)}”"
                )
                break
    return violations


def guard(
    findings: Findings,
    incident: Incident,
    timeline: list[TimelineEntry],
    memories: list[RecallMatch],
    *,
    pattern_ids: Sequence[str] = (),
) -> GuardResult:
    """`pattern_ids`: the known patterns (approved rules) the investigation was given; they may
    be cited like memories and, like memories, never named as today's cause."""
    corpus = current_corpus(incident, timeline)
    violations = past_as_present(findings, memories, corpus, pattern_ids)
    flags: list[str] = []
    for step in (
        lambda f: check_citations(f, [m.memory.incident_id for m in memories] + list(pattern_ids)),
        lambda f: require_current_evidence(f, corpus),
        lambda f: complete_failed_actions(f, memories),
        lambda f: annotate_failed_recommendations(f, memories),
        lambda f: ensure_conflicts(f, memories),
    ):
        findings, more = step(findings)
        flags += more
    return GuardResult(findings=findings, flags=flags, violations=violations)
