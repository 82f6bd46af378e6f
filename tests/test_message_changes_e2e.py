"""Deleted and edited messages, end to end: signed `message_deleted` / `message_changed` events
into the real app, Slack replaced by the sandbox, the model by the fake Messages API, storage in
a real PostgreSQL. A secret pasted and deleted never reaches the next prompt, nor any table; an
edited message is only ever its new text; retention covers the marks and drafts too."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.config import Settings
from bot.sandbox.local_bot import LocalBot, local_bot
from bot.slack import ids
from tests.fakes.anthropic_api import FakeMessagesAPI, ToolAnswer
from tests.test_prompt_fences_e2e import ANSWER
from tests.test_retention_e2e import declare, drafted, open_resolution, say

SECRET = "db password is hunter2-XYZZY-secret"
FIRST = "pool at 90/100 since the deploy"
EDITED = "pool at 100/100 since the 11:55 deploy"
DRAFT_QUOTING_THE_SECRET = ToolAnswer(
    tool_name="record_resolution_draft",
    input={"root_cause": {"text": "The db password is hunter2-XYZZY-secret", "quotes": [{"message_id": "m1", "quote": SECRET}]}},
)  # fmt: skip


@pytest.fixture
async def bot(database_url: str, model_api: FakeMessagesAPI) -> AsyncIterator[LocalBot]:
    settings = Settings(
        database_url=database_url, anthropic_api_key="test-key", anthropic_base_url=model_api.base_url,
        investigation_timeout_s=30.0, drafting_timeout_s=30.0, anthropic_guard_model="",
    )  # fmt: skip
    async with local_bot(settings) as running:
        running.sandbox.add_user("U1", "maya")
        running.sandbox.add_channel("C1", "inc-payments-500s", members=("U1",))
        yield running


async def stored_anywhere(database_url: str, words: str) -> list[str]:
    """The tables whose rows hold `words`, among those that hold message text."""
    conn = await asyncpg.connect(database_url)
    try:
        found = []
        for table, column in (
            ("timeline_entries", "text"), ("incident_marks", "text"), ("resolution_drafts", "draft::text"),
        ):  # fmt: skip
            if await conn.fetchval(f"SELECT count(*) FROM {table} WHERE {column} LIKE '%' || $1 || '%'", words):
                found.append(table)
        return found
    finally:
        await conn.close()


async def test_a_deleted_message_is_gone_and_an_edited_one_is_only_its_new_text(
    bot: LocalBot, model_api: FakeMessagesAPI, database_url: str
) -> None:
    await declare(bot)
    await say(bot, "C1", SECRET)
    secret = bot.sandbox.messages("C1")[-1]
    await say(bot, "C1", FIRST)
    first = bot.sandbox.messages("C1")[-1]
    await say(bot, "C1", "restarted payments pods, errors back after 25 minutes")

    # the secret is marked for the draft, and a draft quoting it is stored
    opened = len(bot.sandbox.calls("views.open"))
    await bot.slack.message_shortcut(ids.ADD_TO_MEMORY_SHORTCUT, secret, user_id="U1")
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    marked = await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers={"kind": "root_cause"})
    assert marked.status == 200
    model_api.script(DRAFT_QUOTING_THE_SECRET)
    await drafted(bot, (await open_resolution(bot))["id"])
    assert set(await stored_anywhere(database_url, "hunter2")) == {
        "timeline_entries", "incident_marks", "resolution_drafts"
    }  # fmt: skip

    # deleted, then edited: Slack's own events
    assert (await bot.slack.delete("C1", secret.ts)).status == 200
    assert (await bot.slack.edit("C1", first.ts, EDITED)).status == 200
    await bot.runtime.settle()
    assert await stored_anywhere(database_url, "hunter2") == []
    assert await stored_anywhere(database_url, "90/100") == []

    # the next investigation's prompt: no secret, the edit only as edited
    model_api.script(ToolAnswer(ANSWER))
    assert (await bot.slack.command("/investigate", user_id="U1", channel_id="C1")).status == 200
    await bot.sandbox.wait_for("chat.update", timeout=15)
    prompt = model_api.requests[-1].prompt
    assert "hunter2" not in prompt
    assert EDITED in prompt and "90/100" not in prompt

    # and the next draft's
    model_api.script(ToolAnswer({}, tool_name="record_resolution_draft"))
    await drafted(bot, (await open_resolution(bot))["id"])
    prompt = model_api.requests[-1].prompt
    assert "hunter2" not in prompt and EDITED in prompt and "90/100" not in prompt


async def test_a_message_deleted_before_its_delivery_is_handled_stays_out(bot: LocalBot, database_url: str) -> None:
    await declare(bot)
    message = bot.sandbox.add_message("C1", SECRET, user="U1")
    assert (await bot.slack.delete("C1", message.ts)).status == 200
    await bot.runtime.settle()
    # Slack's retry of the original message event arrives after the deletion was handled
    from bot.sandbox.signed import message_event

    late = message_event("C1", SECRET, user="U1", ts=message.ts, team=bot.sandbox.team_id)
    assert (await bot.slack.event(late)).status == 200
    await bot.runtime.settle()
    assert await stored_anywhere(database_url, "hunter2") == []


async def test_retention_takes_the_marks_and_drafts_with_the_timeline(
    bot: LocalBot, model_api: FakeMessagesAPI, database_url: str
) -> None:
    await declare(bot)
    await say(bot, "C1", SECRET)
    opened = len(bot.sandbox.calls("views.open"))
    await bot.slack.message_shortcut(ids.ADD_TO_MEMORY_SHORTCUT, bot.sandbox.messages("C1")[-1], user_id="U1")
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers={"kind": "root_cause"})
    model_api.script(DRAFT_QUOTING_THE_SECRET)
    await drafted(bot, (await open_resolution(bot))["id"])
    assert len(await stored_anywhere(database_url, "hunter2")) == 3
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute("UPDATE incidents SET status = 'resolved', resolved_at = now() - interval '31 days'")
    finally:
        await conn.close()
    incidents = bot.runtime.services.incidents
    assert await incidents.prune_timelines(30) >= 3  # what housekeeping runs with TIMELINE_RETENTION_DAYS=30
    assert await stored_anywhere(database_url, "hunter2") == []


async def test_an_edit_is_kept_to_read_message_chars_as_the_message_was(database_url: str) -> None:
    """A member cannot pass the operator's per-message cap by editing: the edit is cut as the
    original message was (READ_MESSAGE_CHARS)."""
    settings = Settings(database_url=database_url, read_message_chars=1_000)
    async with local_bot(settings) as bot:
        bot.sandbox.add_user("U1", "maya")
        bot.sandbox.add_channel("C1", "inc-payments-500s", members=("U1",))
        await declare(bot)
        await say(bot, "C1", "pool at 90/100 " + "x" * 5_000)
        first = bot.sandbox.messages("C1")[-1]
        assert (await bot.slack.edit("C1", first.ts, "pool at 100/100 " + "y" * 5_000)).status == 200
        await bot.runtime.settle()
        conn = await asyncpg.connect(database_url)
        try:
            texts = [r["text"] for r in await conn.fetch("SELECT text FROM timeline_entries")]
        finally:
            await conn.close()
        edited = [t for t in texts if t.startswith("pool at 100/100")]
        assert len(edited) == 1 and len(edited[0]) == 1_000
        assert not any(t.startswith("pool at 90/100") for t in texts)
