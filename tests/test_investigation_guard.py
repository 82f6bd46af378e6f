"""The guard and the offline investigator: a past incident is never stated as what is happening
now, the offline answer keeps history apart, and checks come only from memories near the best.

No database and no model: memories are built directly as RecallMatch objects.
"""

from __future__ import annotations

import pytest

from bot.investigation import (
    HypothesisStatus,
    InvestigatorKind,
    OfflineInvestigator,
    TimelineEntry,
    build_investigator,
)
from bot.investigation.guard import guard, past_as_present
from bot.investigation.models import Findings, ModelAnswer
from bot.models import TruthState
from tests.investigation_cases import (
    INCIDENT,
    INJECTION,
    LEAK,
    LOCKS,
    MEMORIES,
    NOW,
    SEARCH,
    TIMELINE,
    leak_memory,
    memory,
)

# --- the guard and the offline investigator ----------------------------------------------------


@pytest.mark.parametrize(
    "claim",
    [
        "The root cause is the same as INC-2025-0412.",
        "This is INC-2025-0412.",
        "It is a repeat of INC-2025-0815.",
        "Checkout fails because it is caused by the same connection leak as INC-2025-0412.",
        "INC-2025-0412 is happening again.",
        "Same issue as INC-2025-0815.",
        "The root cause is INC-2025-0412.",
        "This is INC-2031-0007 again.",  # an id that was not even recalled
    ],
)
def test_the_guard_refuses_a_past_incident_as_the_current_cause(claim: str) -> None:
    findings = Findings(current_summary="Checkout 503s.", hypotheses=[{"statement": claim}])
    assert past_as_present(findings, MEMORIES, "")


@pytest.mark.parametrize(
    "statement",
    [
        "Is this INC-2025-0412 again?",
        "It is unclear whether this is INC-2025-0412.",
        "This may be caused by the same leak as INC-2025-0412; check pg_stat_activity.",
        "This is not INC-2025-0815: no batch job ran.",
        "Errors are limited to us-east-1.",
        "The root cause is HTTP-2 stream exhaustion.",
        "This is SEV-1.",
    ],
)
def test_the_guard_lets_questions_hedges_and_other_names_pass(statement: str) -> None:
    findings = Findings(current_summary="Checkout 503s.", hypotheses=[{"statement": statement}])
    assert past_as_present(findings, MEMORIES, "") == []


def test_a_past_root_cause_stated_as_what_is_happening_now_is_moved_to_hypotheses() -> None:
    statement = "The refund worker acquired a connection and never released it when the provider call raised, so the pool leaked."
    result = guard(
        ModelAnswer(happening_now=[{"statement": statement, "evidence": ["T2"]}]), INCIDENT, TIMELINE, MEMORIES
    )
    assert result.findings.current_summary == "" and result.statements == []
    [moved] = [h for h in result.findings.hypotheses if h.statement == statement]
    assert moved.status is HypothesisStatus.NEEDS_EVIDENCE and moved.related_memory_ids == [LEAK]
    assert any("moved from what is happening now" in f and LEAK in f for f in result.flags)
    # ...unless the current evidence itself says so
    said_now = TIMELINE + [TimelineEntry(author="bob", text=statement, at=NOW)]
    kept = guard(
        ModelAnswer(happening_now=[{"statement": statement, "evidence": ["T4"]}]), INCIDENT, said_now, MEMORIES
    )
    assert (
        kept.findings.current_summary == statement and kept.violations == [] and kept.statements[0].evidence == ["T4"]
    )


async def test_the_offline_answer_is_deterministic_and_keeps_history_apart() -> None:
    rejected = memory(
        SEARCH, title="Search slow", service="search", root_cause="Bad index", truth_state=TruthState.REJECTED
    )
    memories = MEMORIES + [rejected]
    first = await OfflineInvestigator().investigate(INCIDENT, TIMELINE, memories)
    assert first == await OfflineInvestigator().investigate(INCIDENT, TIMELINE, memories)
    assert first.investigator is InvestigatorKind.OFFLINE and first.note is None and first.model is None
    assert first.fallback_reason is None  # offline by choice is no fallback
    assert [c.memory_ids for c in first.checks_to_run] == [[LEAK], [LOCKS]]  # the rejected one suggests nothing
    assert (
        "pg_stat_activity" in first.checks_to_run[0].why
        and "An unverified addition by dan" in first.checks_to_run[0].why
    )
    assert all(h.status is HypothesisStatus.NEEDS_EVIDENCE for h in first.hypotheses)
    assert [a.memory_id for a in first.successful_previous_actions] == [LEAK, LOCKS]
    [failed] = first.failed_previous_actions
    assert failed.action == "Restarted the payments pods" and "filled up again" in failed.why_it_failed
    assert INJECTION in first.current_summary and LEAK not in first.current_summary
    # the offline answer passes its own guard
    assert (
        guard(Findings(**first.model_dump(include=set(Findings.model_fields))), INCIDENT, TIMELINE, memories).violations
        == []
    )


def test_without_a_key_the_investigator_is_offline() -> None:
    assert isinstance(build_investigator(api_key=None), OfflineInvestigator)
    assert isinstance(build_investigator(api_key=""), OfflineInvestigator)


async def test_offline_checks_come_only_from_memories_that_scored_near_the_best() -> None:
    distant = memory(
        "INC-2025-0815", title="TLS certificate expired on the auth gateway", service="auth",
        root_cause="the renewal job failed silently", resolution="renewed the certificate",
        truth_state=TruthState.HUMAN_CONFIRMED,
    ).model_copy(update={"score": 0.05})  # fmt: skip
    result = await OfflineInvestigator().investigate(INCIDENT, TIMELINE, [leak_memory(), distant])
    cited = {i for c in result.checks_to_run for i in c.memory_ids}
    cited |= {i for h in result.hypotheses for i in h.related_memory_ids}
    assert LEAK in cited and "INC-2025-0815" not in cited
    assert all(a.memory_id != "INC-2025-0815" for a in result.successful_previous_actions)


def test_what_is_happening_now_holds_only_statements_their_evidence_says() -> None:
    answer = ModelAnswer(
        happening_now=[
            {"statement": "Checkout returns 503s since 11:55.", "evidence": ["t1", "T9"]},  # T9: no such message
            {"statement": "payments-api logs show pool checkout timeouts.", "evidence": []},  # cites nothing
            {
                "statement": "A memory leak in the JVM is slowing every request.",
                "evidence": ["T2"],
            },  # T2 does not say it
        ]
    )
    result = guard(answer, INCIDENT, TIMELINE, MEMORIES)
    assert result.violations == []
    assert [(s.statement, s.evidence) for s in result.statements] == [
        ("Checkout returns 503s since 11:55.", ["T1"]),
        ("payments-api logs show pool checkout timeouts.", ["T2"]),  # tied to the evidence that says it
    ]
    assert (
        result.findings.current_summary
        == "Checkout returns 503s since 11:55. payments-api logs show pool checkout timeouts."
    )
    [moved] = result.findings.hypotheses
    assert moved.statement.startswith("A memory leak") and moved.status is HypothesisStatus.NEEDS_EVIDENCE
    assert any("T9" not in f and "dropped evidence" in f for f in result.flags)


@pytest.mark.parametrize(
    ("field", "sentence"),
    [
        ("happening_now", "Same pattern as the refund worker outage: connections never go back to the pool."),
        ("hypotheses", "The refund worker leak is back."),
        ("checks_to_run", "Redeploy the finally-block fix; no need to look further."),
        ("open_questions", "No open questions: it is the refund worker leak again."),
        ("successful_previous_actions", "Released the connection in a finally block, which is today's fix too."),
    ],
)
def test_a_reworded_claim_is_refused_in_any_field(field: str, sentence: str) -> None:
    item = {
        "happening_now": {"statement": sentence, "evidence": ["T2"]},
        "hypotheses": {"statement": sentence},
        "checks_to_run": {"action": sentence},
        "open_questions": sentence,
        "successful_previous_actions": {"action": sentence, "memory_id": LEAK},
    }[field]
    result = guard(ModelAnswer.model_validate({field: [item]}), INCIDENT, TIMELINE, MEMORIES)
    assert result.refused, sentence
