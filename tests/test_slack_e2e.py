"""The Slack bot end to end: signed requests over HTTP into the real app, Slack's Web API
replaced by the sandbox, memory in a real PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.memory.files import draft_from_json
from bot.sandbox.local_bot import LocalBot, local_bot

SEED = {
    "incident_id": "INC-OLD-1",
    "title": "Payments API 5xx: database connection pool exhausted at peak",
    "service": "payments",
    "symptoms": "checkout requests failed with database timeouts at the evening peak",
    "root_cause": "refund worker leaked connections when the provider call raised",
    "resolution": "release the connection in a finally block",
    "failed_attempts": [
        {"action": "restarted the payments pods", "why_it_failed": "bought 25 minutes, then the pool filled again"}
    ],
    "truth_state": "human_confirmed",
    "verified_by": "maya",
}


@pytest.fixture
async def bot(database_url: str) -> AsyncIterator[LocalBot]:
    async with local_bot(Settings(database_url=database_url)) as running:
        running.sandbox.add_user("U1", "alice")
        running.sandbox.add_channel("C1", "inc-checkout-timeouts")
        await running.runtime.services.memory.retain(draft_from_json(SEED, team_id=running.sandbox.team_id))
        yield running


async def declare(bot: LocalBot, title: str = "Checkout errors return with database timeouts during peak traffic") -> None:
    response = await bot.slack.command("/incident", "declare", user_id="U1", channel_id="C1")
    assert response.status == 200
    await bot.sandbox.wait_for("views.open")
    modal = bot.sandbox.last_view()
    submitted = await bot.slack.view_submission(
        modal, user_id="U1", answers={"title": title, "service": "payments", "severity": "SEV2"}
    )
    assert submitted.status == 200 and submitted.body == ""  # the modal closes


async def test_declare_posts_a_recall_thread_with_reasons_age_and_verification(bot: LocalBot) -> None:
    await declare(bot)
    parent = await bot.sandbox.wait_for_message("C1", lambda m: "past incident" in m.text and m.thread_ts is None)
    assert parent.text.startswith("1 past incident looks like this one")
    reply = await bot.sandbox.wait_for_message("C1", lambda m: m.thread_ts == parent.ts and m.ts != parent.ts)
    shown = json.dumps(reply.blocks)
    for expected in (
        "database connection pool exhausted", "same service: payments", "matched terms",
        "restarted the payments pods", "bought 25 minutes", "maya",
    ):  # fmt: skip
        assert expected in shown, expected
    actions = [e["action_id"] for b in reply.blocks if b["type"] == "actions" for e in b["elements"]]
    assert "memory_helpful" in actions and "memory_add_correction" in actions
