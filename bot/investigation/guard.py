"""The guard: checks an answer before anyone sees it. Pure functions, no I/O.

Structure first: what is happening now is a list of statements, each tied to the CURRENT
evidence it rests on (T1… or a declared field). A statement its evidence does not say, or one
that carries a past memory's cause or fix, is moved to hypotheses (needs evidence); only the
statements that hold make up current_summary.

It repairs what else it safely can (citations of memories that were not recalled are dropped,
unquoted hypotheses are demoted to needs_evidence, failed actions get their why, missed
conflicts are added) and reports what it cannot: in any field, a past cause stated as today's,
an instruction to skip checks, or an old fix given as the verdict (claims.py, plus a model's
second opinion when one was asked) refuses the answer, and the caller asks again or falls back
to the offline answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.investigation.claims import Claim, Sentence, Verdict, rule_verdicts, sentences_of
from bot.investigation.conflicts import EVIDENCE_NEEDED, detect_conflicts
from bot.investigation.evidence import CurrentEvidence, PastContent, content_terms
from bot.investigation.models import (
    MAX_ITEMS,
    Findings,
    Hypothesis,
    HypothesisStatus,
    ModelAnswer,
    NowStatement,
    TimelineEntry,
)
from bot.investigation.text import clip, coverage, quote_found, similarity, terms
from bot.models import MAX_TEXT, Incident, RecallMatch
from bot.reader.cues import CLAIM_HEDGE

# A check matches a past failed attempt when it names most of the attempt's words.
FAILED_ACTION_COVERAGE = 0.6
# A statement about now holds when its cited evidence carries at least half of its content words.
SUPPORT = 0.5

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
    statements: list[NowStatement] = field(default_factory=list)  # what current_summary is made of

    @property
    def refused(self) -> bool:
        return bool(self.violations)


def ground_statements(
    statements: list[NowStatement], current: CurrentEvidence, past: PastContent
) -> tuple[list[NowStatement], list[Hypothesis], list[str]]:
    """Statements about now that their evidence supports, and the rest as hypotheses needing evidence.

    Cited refs are checked like citations: unknown ones are dropped. A statement citing nothing
    (or the wrong thing) is tied to the evidence that does say it, if any does.
    """
    kept: list[NowStatement] = []
    moved: list[Hypothesis] = []
    flags: list[str] = []
    for s in statements:
        refs = list(dict.fromkeys(r for r in map(current.resolve, s.evidence) if r))
        if len(refs) < len(s.evidence):
            flags.append(f"dropped evidence that is not in the current incident from: {clip(s.statement, 80)}")
        said = content_terms(s.statement)
        memories = list(dict.fromkeys(past.carried(s.statement) + past.cause_or_fix_words(s.statement)))
        supported = current.coverage(said, refs) >= SUPPORT
        if not supported and not memories:
            best = current.best_support(said, SUPPORT)
            if best:
                refs, supported = best, True
                flags.append(f"tied to the evidence that says it ({', '.join(best)}): {clip(s.statement, 80)}")
        if supported and not memories:
            kept.append(s.model_copy(update={"evidence": refs}))
            continue
        why = f"it carries what {', '.join(memories)} said" if memories else "its evidence does not say it"
        flags.append(f"moved from what is happening now to hypotheses ({why}): {clip(s.statement, 80)}")
        moved.append(
            Hypothesis(statement=s.statement, related_memory_ids=memories, status=HypothesisStatus.NEEDS_EVIDENCE)
        )
    return kept, moved, flags


def summary_of(statements: list[NowStatement]) -> str:
    return clip(
        " ".join(s.statement if s.statement.endswith((".", "!", "?", "…")) else s.statement + "." for s in statements),
        MAX_TEXT,
    )


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
    successes = [
        a.model_copy(update={"memory_id": known([a.memory_id])[0]})
        for a in findings.successful_previous_actions
        if known([a.memory_id])
    ]
    failures = [
        a.model_copy(update={"memory_id": known([a.memory_id])[0]})
        for a in findings.failed_previous_actions
        if known([a.memory_id])
    ]
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


def require_current_evidence(findings: Findings, current: CurrentEvidence) -> tuple[Findings, list[str]]:
    flags: list[str] = []
    hypotheses = []
    for h in findings.hypotheses:
        quotes = [q for q in h.current_evidence if quote_found(q, current.corpus)]  # corpus: made on the first quote
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
    conflicts = [
        c if c.evidence_needed else c.model_copy(update={"evidence_needed": EVIDENCE_NEEDED})
        for c in findings.conflicts
    ]
    flags: list[str] = []
    for detected in detect_conflicts(memories):
        if not any(len(set(detected.memory_ids) & set(c.memory_ids)) >= 2 for c in conflicts):
            conflicts.append(detected)
            flags.append(f"added a conflict between {', '.join(detected.memory_ids)}")
    return findings.model_copy(update={"conflicts": conflicts[:MAX_ITEMS]}), flags


def _id_pattern(recalled_ids: list[str]) -> str:
    known = [re.escape(i) for i in sorted(recalled_ids, key=len, reverse=True)]
    return "(?P<id>" + "|".join(known + [_GENERIC_ID]) + ")"


def named_claims(sentences: list[Sentence], recalled_ids: list[str]) -> list[Verdict]:
    """Sentences that name an incident as the current cause ("this is INC-123"): the explicit claims."""
    id_re = _id_pattern(recalled_ids)
    claims = [re.compile(p.format(id=id_re), re.IGNORECASE) for p in _CLAIMS]
    verdicts = []
    for sentence in sentences:
        if sentence.text.endswith("?"):
            continue
        for claim in claims:
            found = claim.search(sentence.text)
            if found and not CLAIM_HEDGE.search(sentence.text[: found.end()]):
                verdicts.append(Verdict(sentence, Claim.PAST_AS_PRESENT))
                break
    return verdicts


def claim_verdicts(
    answer: ModelAnswer | Findings,
    memories: list[RecallMatch],
    current: CurrentEvidence,
    pattern_ids: Sequence[str] = (),
) -> tuple[list[Sentence], list[Verdict]]:
    """Every sentence of the answer, and the rules' verdicts on them (one per sentence at most).
    A known pattern's id counts as a past incident's: naming it as today's cause is a claim."""
    sentences = sentences_of(answer)
    ids = [m.memory.incident_id for m in memories] + list(pattern_ids)
    past = PastContent.of(memories, current)
    by_sentence: dict[int, Verdict] = {}
    for verdict in named_claims(sentences, ids) + rule_verdicts(sentences, past, ids):
        by_sentence.setdefault(verdict.sentence.index, verdict)
    return sentences, sorted(by_sentence.values(), key=lambda v: v.sentence.index)


def past_as_present(findings: ModelAnswer | Findings, memories: list[RecallMatch], corpus: str = "") -> list[str]:
    """What the rules refuse in an answer, worded for the model and the responders (corpus: unused, kept for callers)."""
    current = CurrentEvidence(items={}, all_terms=frozenset(content_terms(corpus)))  # raw "": no concepts
    return [v.describe() for v in claim_verdicts(findings, memories, current)[1]]


def guard(
    answer: ModelAnswer | Findings,
    incident: Incident,
    timeline: list[TimelineEntry],
    memories: list[RecallMatch],
    *,
    second_opinion: list[Verdict] | None = None,
    pattern_ids: Sequence[str] = (),
    omitted_timeline: int = 0,
) -> GuardResult:
    """Check and repair an answer. `second_opinion`: claims a classifier found (sentences as
    claim_verdicts numbers them). `pattern_ids`: the known patterns (approved rules) the
    investigation was given; cited like memories and, like memories, never today's cause.
    `timeline`: the messages the prompt showed; `omitted_timeline`: how many older ones it left
    out (not given: the answer cannot rest on them; the first of `timeline` is T{omitted + 1})."""
    current = CurrentEvidence.of(incident, timeline, omitted_timeline)
    _, verdicts = claim_verdicts(answer, memories, current, pattern_ids)
    ruled = {v.sentence.index for v in verdicts}
    verdicts += [v for v in second_opinion or [] if v.sentence.index not in ruled]
    violations = [v.describe() for v in sorted(verdicts, key=lambda v: v.sentence.index)]
    flags: list[str] = []
    statements: list[NowStatement] = []
    if isinstance(answer, ModelAnswer):
        statements, moved, flags = ground_statements(answer.happening_now, current, PastContent.of(memories, current))
        sections = answer.model_dump(exclude={"happening_now"})
        sections["hypotheses"] = (answer.hypotheses + moved)[:MAX_ITEMS]
        findings = Findings(**sections, current_summary=summary_of(statements))
    else:
        findings = answer
    for step in (
        lambda f: check_citations(f, [m.memory.incident_id for m in memories] + list(pattern_ids)),
        lambda f: require_current_evidence(f, current),
        lambda f: complete_failed_actions(f, memories),
        lambda f: annotate_failed_recommendations(f, memories),
        lambda f: ensure_conflicts(f, memories),
    ):
        findings, more = step(findings)
        flags += more
    return GuardResult(findings=findings, flags=flags, violations=violations, statements=statements)
