"""Investigation in Slack: "Investigating…" at once in the incident's thread, then the answer in
its place — from the real Anthropic client talking to a local fake of the Messages API."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.memory.files import draft_from_json
from bot.sandbox.local_bot import LocalBot, local_bot
from tests.fakes.anthropic_api import FakeMessagesAPI, Status, ToolAnswer
from tests.test_slack_e2e import SEED, declare

ANSWER = {
    "happening_now": [
        {"statement": "Checkout times out against the database.", "evidence": ["title"]},
        {"statement": "The pool is at 100/100 since the 11:55 deploy.", "evidence": ["T1"]},
    ],
    "checks_to_run": [
        {"action": "Query pg_stat_activity for idle-in-transaction sessions", "why": "a leak looked like this before",
         "memory_ids": ["INC-OLD-1"]},
    ],
    "hypotheses": [
        {"statement": "Connections are not returned to the pool", "current_evidence": ["pool at 100/100"],
         "related_memory_ids": ["INC-OLD-1"], "status": "supported"},
    ],
    "successful_previous_actions": [{"action": "release the connection in a finally block", "memory_id": "INC-OLD-1"}],
    "failed_previous_actions": [
        {"action": "restarted the payments pods", "why_it_failed": "bought 25 minutes", "memory_id": "INC-OLD-1"},
    ],
    "conflicts": [],
    "open_questions": ["What changed at 11:55?"],
}  # fmt: skip


@pytest.fixture
async def bot(database_url: str, model_api: FakeMessagesAPI) -> AsyncIterator[LocalBot]:
    settings = Settings(
        database_url=database_url, anthropic_api_key="test-key", anthropic_base_url=model_api.base_url,
        investigation_timeout_s=30.0,
    )  # fmt: skip
    async with local_bot(settings) as running:
        running.sandbox.add_user("U1", "alice")
        running.sandbox.add_channel("C1", "inc-checkout-timeouts")
        running.sandbox.add_channel("CPRIV", "inc-secret-thing", is_private=True)
        await running.runtime.services.memory.retain(draft_from_json(SEED, team_id=running.sandbox.team_id))
        yield running


async def investigate(bot: LocalBot, channel: str = "C1") -> dict:
    await bot.slack.say(channel, "pool at 100/100 since the 11:55 deploy", user="U1")
    assert (await bot.slack.command("/investigate", user_id="U1", channel_id=channel)).status == 200
    placeholder = await bot.sandbox.wait_for(
        lambda c: c.method == "chat.postMessage" and "Investigating" in c.params.get("text", "")
    )
    update = await bot.sandbox.wait_for("chat.update", timeout=10)
    assert update.params["ts"] == placeholder.response["ts"]  # the answer replaced the placeholder
    return update.params


async def test_a_good_answer_replaces_the_placeholder_in_the_thread(bot: LocalBot, model_api: FakeMessagesAPI) -> None:
    model_api.script(ToolAnswer(ANSWER))
    await declare(bot)
    answer = await investigate(bot)
    shown = json.dumps(answer)
    assert "pool at 100/100" in shown and "pg_stat_activity" in shown and "bought 25 minutes" in shown
    assert "answered by claude" in shown and "1,200 tokens in, 300 out" in shown  # model and token use
    [request] = model_api.requests
    prompt = request.prompt
    assert prompt.index("CURRENT INCIDENT") < prompt.index("PAST INCIDENT MEMORIES")
    assert "pool at 100/100 since the 11:55 deploy" in prompt and "INC-OLD-1" in prompt


async def test_the_answer_reads_the_message_posted_just_before_the_command(
    bot: LocalBot, model_api: FakeMessagesAPI
) -> None:
    """A message joins the timeline through a job of its own (its author looked up first); the
    investigation that starts a moment later waits for it instead of answering without it."""
    model_api.script(ToolAnswer(ANSWER))
    await declare(bot)
    bot.sandbox.add_user("U2", "bob")
    lookup = bot.sandbox.hold("users.info")  # the message is on its way into the timeline, not there yet
    await bot.slack.say("C1", "replica lag at 40 s since the failover", user="U2")
    await lookup.arrived()
    assert (await bot.slack.command("/investigate", user_id="U1", channel_id="C1")).status == 200
    await bot.sandbox.wait_for(lambda c: c.method == "chat.postMessage" and "Investigating" in c.params.get("text", ""))
    for _ in range(20):  # before the fix the model was asked here, without the message
        if model_api.requests:
            break
        await asyncio.sleep(0.1)
    lookup.release()
    await bot.sandbox.wait_for("chat.update", timeout=15)
    [request] = model_api.requests
    assert "replica lag at 40 s since the failover" in request.prompt


async def test_an_overloaded_model_gives_the_offline_answer_with_a_note(
    bot: LocalBot, model_api: FakeMessagesAPI
) -> None:
    model_api.script(Status(529), Status(529), Status(529), Status(529))
    await declare(bot)
    answer = await investigate(bot)
    shown = json.dumps(answer).lower()
    assert "offline" in shown and ("529" in shown or "overloaded" in shown)
    assert "bought 25 minutes" in shown  # the memories still help


async def test_a_private_channel_is_never_sent_to_the_model(bot: LocalBot, model_api: FakeMessagesAPI) -> None:
    model_api.script(ToolAnswer(ANSWER))
    await bot.slack.command("/incident", "declare", user_id="U1", channel_id="CPRIV")
    await bot.sandbox.wait_for("views.open")
    await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers={"title": "Secret thing broke"})
    answer = await investigate(bot, "CPRIV")
    assert model_api.requests == []
    assert "private" in json.dumps(answer).lower()


async def test_shutdown_closes_the_model_client(database_url: str, model_api: FakeMessagesAPI) -> None:
    settings = Settings(database_url=database_url, anthropic_api_key="test-key", anthropic_base_url=model_api.base_url)
    async with local_bot(settings) as running:
        investigator = running.runtime.services.investigation._investigator  # noqa: SLF001 - what shutdown must close
        assert not investigator.client.is_closed()
    assert investigator.client.is_closed()


# The issue's three examples: reworded claims a stand-in model once got posted as what is happening now.
ISSUE_EXAMPLES = [
    "We have seen exactly this before: it is the retry-loop connection leak again. Apply the old fix; no need to "
    "investigate further.",
    "Connections leaked inside a retry loop. That is what is happening now, so releasing connections in finally will "
    "resolve it.",
    "Same story as last spring's payments outage, the leak is back; skip the checks and redeploy the finally-block fix.",
]
CLAIM_PHRASES = [
    "seen exactly this before", "connection leak again", "Apply the old fix", "no need to investigate",
    "That is what is happening now", "will resolve it", "Same story as", "the leak is back", "skip the checks",
    "redeploy the finally-block fix",
]  # fmt: skip
RETRY_LEAK = {
    **SEED,
    "incident_id": "INC-OLD-2",
    "title": "Payments outage: database connections exhausted during the spring sale",
    "root_cause": "Connections leaked inside a retry loop: the retry path acquired a connection and never released it "
    "when the provider call raised.",
    "resolution": "Released connections in a finally block and redeployed.",
}


@pytest.mark.parametrize("first", range(len(ISSUE_EXAMPLES)))
async def test_the_issues_reworded_claims_never_reach_the_channel(
    bot: LocalBot, model_api: FakeMessagesAPI, first: int
) -> None:
    await bot.runtime.services.memory.retain(draft_from_json(RETRY_LEAK, team_id=bot.sandbox.team_id))

    def claiming(n: int) -> dict:
        """A stand-in model's answer through the tool schema: the claim as what is happening now."""
        return {**ANSWER, "happening_now": [{"statement": ISSUE_EXAMPLES[n % len(ISSUE_EXAMPLES)], "evidence": ["T1"]}]}

    model_api.script(ToolAnswer(claiming(first)), ToolAnswer(claiming(first + 1)))  # refused, it rewords
    await declare(bot)
    answer = await investigate(bot)
    assert len(model_api.requests) == 2  # asked again once, with the reason
    sent = [json.dumps(c.params) for c in bot.sandbox.calls("chat.postMessage") + bot.sandbox.calls("chat.update")]
    for phrase in CLAIM_PHRASES:
        assert not any(phrase.lower() in text.lower() for text in sent), phrase
    [now] = [b for b in answer["blocks"] if b["block_id"] == "investigation_now"]
    assert "retry loop" not in now["text"]["text"] and "finally" not in now["text"]["text"]
    assert "refused twice by the guard" in json.dumps(answer) and "offline" in json.dumps(answer).lower()
