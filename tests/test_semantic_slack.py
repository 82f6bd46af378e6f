"""Semantic recall in the running bot: Slack's side through the sandbox, vectors in a database
with pgvector, the embeddings endpoint a deterministic fake on the loopback (or nothing at all)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.memory.files import draft_from_json
from bot.sandbox.local_bot import LocalBot, local_bot
from tests.fakes.embeddings_api import FakeEmbeddingsApi
from tests.test_slack_e2e import RESOLUTION, declare, resolve

SEED = {
    "incident_id": "INC-OLD-1",
    "title": "Orders API errors at the evening peak",
    "service": "orders",
    "symptoms": "Requests failed for twenty minutes. Connection slots saturated on the primary.",
    "root_cause": "a batch job held its transactions open",
    "resolution": "cap the batch job's transactions",
    "truth_state": "human_confirmed",
    "verified_by": "maya",
}


@pytest.fixture
async def bot_with(vector_database_url: str):  # noqa: ANN201
    async def start(url: str, *, settle: bool = True, **settings_kw) -> AsyncIterator[LocalBot]:  # noqa: ANN003
        settings = Settings(
            database_url=vector_database_url, embeddings_url=url, embeddings_model="fake-a", embeddings_timeout_s=0.5,
            **settings_kw,
        )  # fmt: skip
        async with local_bot(settings, settle=settle) as running:
            running.sandbox.add_user("U1", "alice")
            running.sandbox.add_channel("C1", "inc-orders")
            running.sandbox.add_channel("C9", "inc-secret", is_private=True)
            await running.runtime.services.memory.retain(draft_from_json(SEED, team_id=running.sandbox.team_id))
            yield running

    return start


async def wait_until(check, timeout: float = 20.0) -> None:  # noqa: ANN001
    for _ in range(int(timeout / 0.1)):
        if await check():
            return
        await asyncio.sleep(0.1)
    raise AssertionError("not within the time allowed")


async def test_a_card_says_similar_meaning_and_a_resolution_is_embedded_after_it_is_saved(
    bot_with,
    embeddings_api: FakeEmbeddingsApi,  # noqa: ANN001
) -> None:
    async for bot in bot_with(embeddings_api.url):
        semantic = bot.runtime.services.semantic
        assert semantic is not None
        await semantic.embed_pending()  # the seed was retained directly, not through a resolution
        # shares no word with the memory; the fake embedder reads it as the same failure
        await declare(bot, title="Sessions starved")
        parent = await bot.sandbox.wait_for_message(
            "C1", lambda m: "past incident" in m.text and m.thread_ts in (None, m.ts)
        )
        reply = await bot.sandbox.wait_for_message("C1", lambda m: m.thread_ts == parent.ts and m.ts != parent.ts)
        shown = json.dumps(reply.blocks, ensure_ascii=False)
        assert "INC-OLD-1" in shown or "Orders API errors" in shown
        assert "similar meaning: “Connection slots saturated on the primary.”" in shown

        before = await semantic.counts()
        submitted = await resolve(bot, RESOLUTION)
        assert submitted.status == 200 and submitted.body == ""

        async def embedded() -> bool:
            return await semantic.counts() == (before[0] + 1, 0, 0)

        await wait_until(embedded)  # in the background, after the modal closed


async def test_with_the_endpoint_down_the_thread_still_posts(
    bot_with,
    embeddings_api: FakeEmbeddingsApi,  # noqa: ANN001
) -> None:
    url = embeddings_api.url
    await embeddings_api.stop()  # nobody listens there any more
    # settle=False: the memory's embedding is retried until the endpoint is back, which it never
    # is here (settling would only wait out its 30 s); the bot stops as a deploy would stop it
    async for bot in bot_with(url, settle=False):
        await declare(bot, title="Orders API errors again")
        parent = await bot.sandbox.wait_for_message(
            "C1", lambda m: "past incident" in m.text and m.thread_ts in (None, m.ts)
        )
        reply = await bot.sandbox.wait_for_message("C1", lambda m: m.thread_ts == parent.ts and m.ts != parent.ts)
        shown = json.dumps(reply.blocks, ensure_ascii=False)
        assert "Orders API errors at the evening peak" in shown and "matched terms" in shown
        assert "similar meaning" not in shown
        exposition = bot.runtime.services.metrics.exposition()[0].decode()
        assert 'incident_memory_recall_semantic_fallbacks_total{reason="down"} 1.0' in exposition


async def _recall_in(bot: LocalBot, channel: str, text: str) -> str:
    answered = len(bot.sandbox.calls("response_url"))
    assert (await bot.slack.command("/recall", text, user_id="U1", channel_id=channel)).status == 200
    parent = (await bot.sandbox.wait_for("response_url", count=answered + 1)).params
    shown = re.search(r"(\d+) past incidents? looks?", json.dumps(parent))  # then one message per memory
    await bot.sandbox.wait_for("response_url", count=answered + 1 + (int(shown[1]) if shown else 0))
    return json.dumps([c.params for c in bot.sandbox.calls("response_url")[answered:]], ensure_ascii=False)


SECRET = {**SEED, "incident_id": "INC-SECRET-1", "title": "Ledger reconciliation drift",
          "symptoms": "Totals disagreed after the nightly close.", "channel_id": "C9", "is_private": True}  # fmt: skip


async def test_nothing_from_a_private_channel_reaches_the_endpoint_by_default(
    bot_with,
    embeddings_api: FakeEmbeddingsApi,  # noqa: ANN001
) -> None:
    async for bot in bot_with(embeddings_api.url):
        semantic = bot.runtime.services.semantic
        await bot.runtime.services.memory.retain(draft_from_json(SECRET, team_id=bot.sandbox.team_id))
        await semantic.embed_pending()
        assert await semantic.counts() == (1, 0, 0)  # the public seed; the private memory is not waiting either
        # a recall typed in the private channel: nothing sent, answered lexically
        shown = await _recall_in(bot, "C9", "sessions starved")
        assert "similar meaning" not in shown
        # the same words in a public channel go to the endpoint and come back by meaning
        shown = await _recall_in(bot, "C1", "sessions starved")
        assert "similar meaning" in shown
        sent = " ".join(embeddings_api.texts)
        assert sent.count("sessions starved") == 1  # the public channel's query only
        assert "Ledger reconciliation" not in sent and "nightly close" not in sent


async def test_a_team_running_its_own_server_can_send_private_channels_too(
    bot_with,
    embeddings_api: FakeEmbeddingsApi,  # noqa: ANN001
) -> None:
    async for bot in bot_with(embeddings_api.url, embeddings_include_private=True):
        semantic = bot.runtime.services.semantic
        await bot.runtime.services.memory.retain(draft_from_json(SECRET, team_id=bot.sandbox.team_id))
        await semantic.embed_pending()
        assert await semantic.counts() == (2, 0, 0)
        shown = await _recall_in(bot, "C9", "sessions starved")
        assert "similar meaning" in shown
        sent = " ".join(embeddings_api.texts)
        assert "Ledger reconciliation" in sent and "sessions starved" in sent
