"""The guard's second opinion: a small model asked of each sentence, through its own strict tool call,
over real HTTP to the fake Messages API. It adds refusals to the rules'; slow or failing, it is
noted and the rules decide alone; its tokens are counted apart."""

from __future__ import annotations

import pytest

from bot.investigation import AnthropicInvestigator, InvestigatorKind
from bot.investigation.second_opinion import DEFAULT_GUARD_MODEL
from bot.investigation.second_opinion import TOOL_NAME as CLASSIFIER_TOOL
from bot.models import IncidentRecord
from bot.observability import Metrics
from bot.services.investigation import InvestigationService
from tests.fakes.anthropic_api import Classify, Delay, FakeMessagesAPI, MalformedJSON, Status, ToolAnswer
from tests.investigation_cases import GOOD, INCIDENT, MEMORIES, NOW, PAST_AS_PRESENT, TIMELINE

# A sentence the rules let through (no recurrence, no past time, no link to today), that a model
# reading for meaning may still judge a verdict: the second opinion is what catches it.
SUBTLE = "Connections are not being returned to the pool"


def judge_subtle(sentence: str, field: str) -> tuple[bool, bool]:
    return (SUBTLE in sentence, False)


@pytest.fixture
async def api():
    async with FakeMessagesAPI() as fake:
        yield fake


def investigator(api: FakeMessagesAPI, **kwargs: object) -> AnthropicInvestigator:
    return AnthropicInvestigator(api_key="test-key", base_url=api.base_url, timeout_s=10, clock=lambda: NOW, **kwargs)


async def investigate(inv: AnthropicInvestigator):  # noqa: ANN201
    try:
        return await inv.investigate(INCIDENT, TIMELINE, MEMORIES, channel_is_private=False)
    finally:
        await inv.aclose()


async def test_the_classification_call_is_separate_strict_and_asks_of_every_sentence(api: FakeMessagesAPI) -> None:
    api.script(ToolAnswer(GOOD))
    result = await investigate(investigator(api))
    assert result.investigator is InvestigatorKind.ANTHROPIC and result.guard_note is None
    [asked] = api.classifications
    assert len(api.requests) == 1  # the investigation's own call, apart
    assert asked.body["model"] == DEFAULT_GUARD_MODEL != api.requests[0].body["model"]
    [tool] = asked.body["tools"]
    assert tool["name"] == CLASSIFIER_TOOL and tool["strict"] is True
    assert tool["input_schema"]["additionalProperties"] is False
    assert tool["input_schema"]["properties"]["verdicts"]["items"]["additionalProperties"] is False
    assert asked.body["tool_choice"] == {"type": "tool", "name": CLASSIFIER_TOOL}
    texts = [text for _, _, text in asked.sentences]
    assert (
        "Checkout returns 503s since 11:55." in texts
        and SUBTLE in texts
        and "Was there a deploy before 11:55?" in texts
    )
    assert result.guard_model == DEFAULT_GUARD_MODEL and (
        result.guard_usage.input_tokens,
        result.guard_usage.output_tokens,
    ) == (400, 60)
    assert (result.usage.input_tokens, result.usage.output_tokens) == (1200, 300)  # the investigation's cost, apart


async def test_the_second_opinion_refuses_what_the_rules_let_through(api: FakeMessagesAPI) -> None:
    corrected = {**GOOD, "hypotheses": []}
    api.classify = Classify(judge_subtle)
    api.script(ToolAnswer(GOOD), ToolAnswer(corrected))
    result = await investigate(investigator(api))
    assert result.investigator is InvestigatorKind.ANTHROPIC
    assert all(SUBTLE not in h.statement for h in result.hypotheses)
    correction = api.requests[1].body["messages"][-1]["content"][0]
    assert (
        correction["is_error"] is True
        and "(second opinion)" in correction["content"]
        and SUBTLE in correction["content"]
    )
    assert len(api.classifications) == 2 and result.guard_usage.input_tokens == 800


async def test_a_second_opinion_twice_against_gives_the_offline_answer(api: FakeMessagesAPI) -> None:
    api.classify = Classify(judge_subtle)
    api.script(ToolAnswer(GOOD), ToolAnswer(GOOD))
    result = await investigate(investigator(api))
    assert result.investigator is InvestigatorKind.OFFLINE and "refused twice by the guard" in result.note
    assert result.guard_usage.input_tokens == 800  # what the second opinions cost is kept on the fallback


async def test_a_slow_second_opinion_does_not_hold_the_answer(api: FakeMessagesAPI) -> None:
    api.script_classifier(Delay(60, then=Classify()))
    api.script(ToolAnswer(GOOD))
    result = await investigate(investigator(api, guard_budget_s=0.3))  # the investigation itself has 10 s
    assert result.investigator is InvestigatorKind.ANTHROPIC and result.note is None
    assert "no answer within 0.3 s" in result.guard_note
    assert any("second opinion" in f and "the rules decided alone" in f for f in result.guard_flags)


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (Status(529), "API error (529)"),
        (Status(500), "API error (500)"),
        (MalformedJSON(), "call failed"),
        (ToolAnswer({"verdicts": "all fine"}, tool_name=CLASSIFIER_TOOL), "malformed answer"),
        (ToolAnswer({"answer": 42}, tool_name="something_else"), f"no {CLASSIFIER_TOOL} call"),
    ],
)
async def test_a_failing_second_opinion_leaves_the_rules_to_decide(api: FakeMessagesAPI, reply, said: str) -> None:  # noqa: ANN001
    api.script_classifier(reply)
    api.script(ToolAnswer(GOOD))
    result = await investigate(investigator(api))
    assert result.investigator is InvestigatorKind.ANTHROPIC and said in result.guard_note
    assert len(api.classifications) == 1  # no retry: a retry would spend the answer's time


async def test_the_rules_refuse_without_asking_a_second_opinion(api: FakeMessagesAPI) -> None:
    api.script(ToolAnswer(PAST_AS_PRESENT), ToolAnswer(GOOD))
    result = await investigate(investigator(api))
    assert result.investigator is InvestigatorKind.ANTHROPIC
    assert len(api.classifications) == 1  # only the answer the rules let through was worth a second look


async def test_without_a_guard_model_the_rules_decide_alone(api: FakeMessagesAPI) -> None:
    api.script(ToolAnswer(PAST_AS_PRESENT), ToolAnswer(GOOD))
    result = await investigate(investigator(api, guard_model=None))
    assert result.investigator is InvestigatorKind.ANTHROPIC and api.classifications == []
    assert result.guard_model is None and result.guard_usage is None


async def test_the_second_opinions_cost_and_outcome_are_in_the_metrics(api: FakeMessagesAPI) -> None:
    metrics = Metrics()
    service = InvestigationService(investigator(api), metrics=metrics)
    incident = IncidentRecord.model_validate(
        {**INCIDENT.model_dump(), "incident_id": "INC-LOCAL-1", "team": "T1", "status": "open", "is_private": False}
    )
    api.script(ToolAnswer(GOOD), ToolAnswer(GOOD))
    api.script_classifier(Classify(), Status(529))
    try:
        await service.investigate(incident, TIMELINE, MEMORIES)
        await service.investigate(incident, TIMELINE, MEMORIES)
    finally:
        await service.aclose()
    sample = metrics.registry.get_sample_value
    tokens = "incident_memory_guard_tokens_total"
    assert sample(tokens, {"model": DEFAULT_GUARD_MODEL, "direction": "input"}) == 400
    assert sample(tokens, {"model": DEFAULT_GUARD_MODEL, "direction": "output"}) == 60
    assert sample("incident_memory_guard_second_opinions_total", {"outcome": "ok"}) == 1
    assert sample("incident_memory_guard_second_opinions_total", {"outcome": "unavailable"}) == 1
    # the investigation's own tokens stay under the investigation's model
    assert sample("incident_memory_model_tokens_total", {"model": "claude-sonnet-5", "direction": "input"}) == 2400
