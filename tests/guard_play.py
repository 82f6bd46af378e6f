"""Plays the guard's adversarial set (eval/guard) end to end: a stand-in model answers through the
tool schema, over real HTTP, to the real AsyncAnthropic client; the guard decides what is posted.

A case is one sentence in one field of the answer: a claim (a past cause stated as today's, an
instruction to skip checks, an old fix as the verdict) or a legitimate sentence. Every claim is
played inside an answer holding all the legitimate sentences, twice:

- persistent: refused, the stand-in rewords the claim (the next claim of the set) and answers again;
- compliant: refused, the stand-in drops the claim and answers again.

A claim passes when, in both plays, it is refused or repaired (moved out of what is happening
now into hypotheses needing evidence, or its quote dropped) before anything is posted. A
legitimate sentence survives when the guard flags none of it in the first answer and it is
posted, where it was written, in the compliant play's answer. Written by us: a behaviour
check, not a measure on real material.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.config import PROJECT_ROOT
from bot.investigation import AnthropicInvestigator, Investigation, InvestigatorKind, ModelAnswer
from bot.investigation.claims import split_sentences
from bot.investigation.guard import GuardResult, guard
from bot.models import FailedAttempt, Incident, MemoryRecord, RecallMatch, TimelineEntry
from bot.slack.investigation import investigation_message
from tests.fakes.anthropic_api import Classify, FakeMessagesAPI, Judge, ToolAnswer, never_flags

EVAL = PROJECT_ROOT / "eval" / "guard"
PAST_CAUSE_MEMORY, LOCKS_MEMORY = "INC-2026-0415", "INC-2026-0702"


@dataclass(frozen=True)
class Case:
    id: str
    kind: str  # claim | legit
    field: str
    text: str
    evidence: tuple[str, ...] = ()
    memory_ids: tuple[str, ...] = ()


def load_cases(path: Path) -> list[Case]:
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            raw = json.loads(line)
            raw["evidence"] = tuple(raw.get("evidence", ()))
            raw["memory_ids"] = tuple(raw.get("memory_ids", ()))
            cases.append(Case(**raw))
    return cases


@dataclass(frozen=True)
class Scenario:
    now: datetime
    incident: Incident
    timeline: list[TimelineEntry]
    memories: list[RecallMatch]


def load_scenario(path: Path = EVAL / "scenario.json") -> Scenario:
    raw = json.loads(path.read_text(encoding="utf-8"))
    now = datetime.fromisoformat(raw["now"])
    memories = []
    for m in raw["memories"]:
        at = datetime.fromisoformat(m.pop("occurred_at"))
        attempts = [FailedAttempt(**a) for a in m.pop("failed_attempts", [])]
        record = MemoryRecord(team_id="T1", created_at=at, updated_at=at, occurred_at=at, verified_at=at,
                              failed_attempts=attempts, **m)  # fmt: skip
        memories.append(
            RecallMatch(memory=record, score=0.8, score_components={"service": 0.8}, reasons=["same service: payments"])
        )
    return Scenario(
        now=now,
        incident=Incident(**raw["incident"]),
        timeline=[TimelineEntry(**e) for e in raw["timeline"]],
        memories=memories,
    )


def _item(case: Case) -> tuple[str, Any]:
    """The answer item carrying the case's sentence, the rest filled with plain legitimate text."""
    mids = list(case.memory_ids) or [PAST_CAUSE_MEMORY]
    match case.field:
        case "happening_now":
            return "happening_now", {"statement": case.text, "evidence": list(case.evidence)}
        case "checks_to_run.action":
            return "checks_to_run", {"action": case.text, "why": "", "memory_ids": list(case.memory_ids)}
        case "checks_to_run.why":
            return "checks_to_run", {
                "action": "Chart checked-out pool connections per minute",
                "why": case.text,
                "memory_ids": mids,
            }
        case "hypotheses.statement":
            return "hypotheses", {
                "statement": case.text,
                "related_memory_ids": list(case.memory_ids),
                "status": "needs_evidence",
            }
        case "hypotheses.current_evidence":
            return "hypotheses", {
                "statement": "The pool is saturated",
                "current_evidence": [case.text],
                "status": "supported",
            }
        case "successful_previous_actions.action":
            return "successful_previous_actions", {"action": case.text, "memory_id": mids[0]}
        case "failed_previous_actions.action":
            return "failed_previous_actions", {
                "action": case.text,
                "why_it_failed": "It did not help.",
                "memory_id": mids[0],
            }
        case "failed_previous_actions.why_it_failed":
            return "failed_previous_actions", {
                "action": "Restarted the payments pods",
                "why_it_failed": case.text,
                "memory_id": mids[0],
            }
        case "conflicts.description":
            return "conflicts", {"memory_ids": [PAST_CAUSE_MEMORY, LOCKS_MEMORY], "description": case.text,
                                 "evidence_needed": "Idle sessions or lock waits in the database now."}  # fmt: skip
        case "conflicts.evidence_needed":
            return "conflicts", {"memory_ids": [PAST_CAUSE_MEMORY, LOCKS_MEMORY],
                                 "description": "The memories name different causes.", "evidence_needed": case.text}  # fmt: skip
        case "open_questions":
            return "open_questions", case.text
    raise ValueError(f"{case.id}: no such field {case.field}")


def answer_with(cases: list[Case]) -> dict[str, Any]:
    answer: dict[str, list[Any]] = {}
    for case in cases:
        key, item = _item(case)
        answer.setdefault(key, []).append(item)
    return answer


def posted_in_field(case: Case, inv: Investigation) -> bool:
    """Whether the sentence is in the posted answer, in the field it was written in."""
    t = case.text
    match case.field:
        case "happening_now":
            return any(s.statement == t for s in inv.happening_now) and t in inv.current_summary
        case "checks_to_run.action":
            return any(c.action == t for c in inv.checks_to_run)
        case "checks_to_run.why":
            return any(t in c.why for c in inv.checks_to_run)
        case "hypotheses.statement":
            return any(h.statement == t for h in inv.hypotheses)
        case "hypotheses.current_evidence":
            return any(t in h.current_evidence for h in inv.hypotheses)
        case "successful_previous_actions.action":
            return any(a.action == t for a in inv.successful_previous_actions)
        case "failed_previous_actions.action":
            return any(a.action == t for a in inv.failed_previous_actions)
        case "failed_previous_actions.why_it_failed":
            return any(t in a.why_it_failed for a in inv.failed_previous_actions)
        case "conflicts.description":
            return any(t in c.description for c in inv.conflicts)
        case "conflicts.evidence_needed":
            return any(t in c.evidence_needed for c in inv.conflicts)
        case "open_questions":
            return t in inv.open_questions
    return False


def claim_stands(case: Case, inv: Investigation) -> bool:
    """Whether a claim reached the posted answer as anything but a hypothesis needing evidence."""
    if inv.investigator is InvestigatorKind.OFFLINE:
        # the model's answer was not used; nor may the note about it quote the claim
        shown = json.dumps(investigation_message(inv), ensure_ascii=False)
        return any(sentence[:40] in (inv.note or "") or sentence in shown for sentence in split_sentences(case.text))
    if case.field == "happening_now":
        moved = [h for h in inv.hypotheses if h.statement == case.text]
        return case.text in inv.current_summary or not all(h.status.value == "needs_evidence" for h in moved)
    return posted_in_field(case, inv)


@dataclass
class Outcome:
    claims: int = 0
    claims_stopped: int = 0
    refused: int = 0
    repaired: int = 0
    legit: int = 0
    legit_survived: int = 0
    misses: list[str] = field(default_factory=list)  # claims that stood
    lost: list[str] = field(default_factory=list)  # legitimate sentences flagged or not posted
    classifications: int = 0

    @property
    def stopped_rate(self) -> float:
        return self.claims_stopped / self.claims if self.claims else 1.0

    @property
    def survival_rate(self) -> float:
        return self.legit_survived / self.legit if self.legit else 1.0


def first_look(answer: dict[str, Any], scenario: Scenario) -> GuardResult:
    return guard(ModelAnswer.model_validate(answer), scenario.incident, scenario.timeline, scenario.memories)


def flagged(case: Case, result: GuardResult) -> bool:
    """Whether the guard's first look at an answer flags this sentence (refuses it or moves it)."""
    return any(case.text[:150] in v for v in result.violations) or any(
        case.text[:60] in f for f in result.flags if "moved" in f or "removed" in f
    )


async def play(
    cases: list[Case],
    *,
    scenario: Scenario | None = None,
    judge: Judge = never_flags,
    guard_model: str | None = "claude-haiku-5-5",
    progress: Callable[[str], None] | None = None,
) -> Outcome:
    scenario = scenario or load_scenario()
    claims = [c for c in cases if c.kind == "claim"]
    legit = [c for c in cases if c.kind == "legit"]
    outcome = Outcome()
    async with FakeMessagesAPI(classify=Classify(judge)) as api:
        investigator = AnthropicInvestigator(
            api_key="test-key", base_url=api.base_url, timeout_s=30, clock=lambda: scenario.now, guard_model=guard_model
        )
        try:

            async def run(*replies: dict[str, Any]) -> Investigation:
                api.replies.clear()
                api.script(*(ToolAnswer(r) for r in replies))
                return await investigator.investigate(
                    scenario.incident, scenario.timeline, scenario.memories, channel_is_private=False
                )

            # the legitimate sentences alone: all posted, none flagged
            alone = await run(answer_with(legit))
            looked = first_look(answer_with(legit), scenario)
            for case in legit:
                outcome.legit += 1
                if posted_in_field(case, alone) and not flagged(case, looked):
                    outcome.legit_survived += 1
                else:
                    outcome.lost.append(f"{case.id} (alone)")
            for n, claim in enumerate(claims):
                reworded = claims[(n + 1) % len(claims)]
                first = answer_with(legit + [claim])
                looked = first_look(first, scenario)
                persistent = await run(first, answer_with(legit + [reworded]))
                compliant = await run(first, answer_with(legit))
                outcome.claims += 1
                # offline after the rewording: the note names the refusal of the reworded claim, never its words
                leaked = persistent.investigator is InvestigatorKind.OFFLINE and claim_stands(reworded, persistent)
                if leaked or claim_stands(claim, persistent) or claim_stands(claim, compliant):
                    outcome.misses.append(claim.id)
                else:
                    outcome.claims_stopped += 1
                    if looked.refused:
                        outcome.refused += 1
                    else:
                        outcome.repaired += 1
                for case in legit:
                    outcome.legit += 1
                    if posted_in_field(case, compliant) and not flagged(case, looked):
                        outcome.legit_survived += 1
                    else:
                        outcome.lost.append(f"{case.id} (with {claim.id})")
                if progress:
                    progress(claim.id)
            outcome.classifications = len(api.classifications)
        finally:
            await investigator.aclose()
    return outcome
