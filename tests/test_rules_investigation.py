"""A known pattern in the investigation: PAST context the model sees apart from the present,
cited by its id, never allowed as today's cause; offline, its checks come first. The real
AsyncAnthropic client talks to the local fake of the Messages API."""

from __future__ import annotations

import json

from bot.investigation import InvestigatorKind, OfflineInvestigator
from bot.slack.investigation import investigation_message
from tests.fakes.anthropic_api import FakeMessagesAPI, ToolAnswer
from tests.investigation_cases import GOOD, INCIDENT, LEAK, MEMORIES, TIMELINE
from tests.test_investigation import api, investigator  # noqa: F401 - the same fake Messages API and client
from tests.test_rules_rendering import rule

RULE = rule()
HEADLINE = "Known pattern R-connection-pool-exhaustion-helper-retry (reviewed by maya on 2026-11-30, from INC-101, INC-102, INC-103)"


async def test_the_model_sees_the_pattern_as_past_context_and_may_cite_it(api: FakeMessagesAPI, investigator) -> None:  # noqa: ANN001
    answer = {**GOOD, "checks_to_run": [*GOOD["checks_to_run"], {
        "action": "Count idle in transaction sessions per application_name", "why": "a reviewed pattern", "memory_ids": [RULE.id],
    }]}  # fmt: skip
    api.script(ToolAnswer(answer))
    result = await investigator.investigate(
        INCIDENT, TIMELINE, MEMORIES, channel_is_private=False, known_patterns=[RULE]
    )
    assert result.investigator is InvestigatorKind.ANTHROPIC and result.guard_flags == []
    assert result.checks_to_run[-1].memory_ids == [RULE.id]  # a rule id is a citation, not an unknown memory
    [request] = api.requests
    sent = request.prompt
    past, rules = sent.index("=== PAST INCIDENT MEMORIES"), sent.index("=== RULES ===")
    assert (
        sent.index("=== END OF CURRENT INCIDENT ===")
        < past
        < sent.index(f"Known pattern id <<<{RULE.id}>>>")
        < sent.index(LEAK)
        < rules
    )
    assert "<<<Count idle in transaction sessions per application_name>>>" in sent
    assert "<<<Restart the pods>>> — why it failed: <<<the pool filled again in minutes>>>" in sent
    assert "never state that this incident IS the pattern" in sent[rules:]
    shown = json.dumps(investigation_message(result, INCIDENT.title), ensure_ascii=False)
    assert HEADLINE in shown and "not a verdict about this incident" in shown
    assert "Known dead end: Restart the pods — the pool filled again in minutes" in shown


async def test_naming_the_pattern_as_todays_cause_is_refused(api: FakeMessagesAPI, investigator) -> None:  # noqa: ANN001
    # no "again", no "same as": only the pattern's id makes this a verdict
    verdict = {**GOOD, "happening_now": [{"statement": f"This is {RULE.id}.", "evidence": ["T2"]}]}
    api.script(ToolAnswer(verdict), ToolAnswer(verdict))
    result = await investigator.investigate(
        INCIDENT, TIMELINE, MEMORIES, channel_is_private=False, known_patterns=[RULE]
    )
    assert len(api.requests) == 2 and RULE.id in api.requests[1].body["messages"][-1]["content"][0]["content"]
    assert result.investigator is InvestigatorKind.OFFLINE and "past incident is the current cause" in result.note
    assert result.known_patterns[0].headline == HEADLINE  # the fallback still shows the pattern


async def test_offline_the_patterns_checks_come_first_and_cite_it() -> None:
    result = await OfflineInvestigator().investigate(INCIDENT, TIMELINE, MEMORIES, known_patterns=[RULE])
    first = result.checks_to_run[0]
    assert first.action == "Count idle in transaction sessions per application_name" and first.memory_ids == [RULE.id]
    assert "not a verdict" in first.why
    assert [(a.action, a.memory_id) for a in result.failed_previous_actions][0] == ("Restart the pods", RULE.id)
    assert not any(RULE.id in h.statement for h in result.hypotheses)  # never a hypothesis about today
    shown = json.dumps(investigation_message(result, INCIDENT.title), ensure_ascii=False)
    assert HEADLINE in shown
    assert shown.count("Count idle in transaction sessions") == 1  # listed once, under Check now
