"""The resolution modal's symptoms, end to end: signed requests into the real app, Slack's Web API
replaced by the sandbox, memory in a real PostgreSQL.

An incident declared without symptoms would be kept with nothing but its title to be found by; the
modal offers the channel's first report (bot/drafting/first_report.py) for the person to confirm,
edit or clear, and shows declared symptoms instead when there are some."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
import pytest

from bot.config import Settings
from bot.models import FieldOrigin
from bot.sandbox.local_bot import LocalBot, local_bot
from bot.sandbox.signed import message_event
from tests.test_retention_e2e import declare, drafted, inputs, open_resolution, say

FIRST = "checkout returns 502 for EU customers since 14:05, card payments failing"
OUTCOME = {"root_cause": "an expired TLS certificate on the gateway", "resolution": "renewed the certificate"}


@asynccontextmanager
async def payments_bot(database_url: str, **settings: object) -> AsyncIterator[LocalBot]:
    async with local_bot(Settings(database_url=database_url, **settings)) as running:
        running.sandbox.add_user("U1", "maya")
        running.sandbox.add_user("U2", "omar")
        running.sandbox.add_channel("C1", "inc-payments-500s", members=("U1", "U2"))
        yield running


@pytest.fixture
async def bot(database_url: str) -> AsyncIterator[LocalBot]:
    async with payments_bot(database_url) as running:
        yield running


async def a_bot_posts(bot: LocalBot, text: str) -> None:
    """An integration (an alerting app) posts in the channel: Slack marks it with a bot_id."""
    event = message_event("C1", text, user="UALERTS", team=bot.sandbox.team_id, subtype="bot_message", bot_id="B1")
    assert (await bot.slack.event(event)).status == 200
    await bot.runtime.settle()


async def resolved_memory(bot: LocalBot, incident_id: str):  # noqa: ANN201
    return await bot.runtime.services.memory.get(bot.sandbox.team_id, incident_id)


async def test_the_channels_first_report_is_offered_and_kept_as_the_symptoms_never_a_bots(bot: LocalBot) -> None:
    incident_id = await declare(bot)  # declared with a title only
    await a_bot_posts(bot, "[FIRING] HighErrorRate payments-api 5xx > 5%")
    await say(bot, "C1", FIRST, user="U2")
    await say(bot, "C1", "restarted the gateway pods, no change")
    opened = await open_resolution(bot)
    assert inputs(opened)["symptoms"] == ""  # nothing declared: the draft brings the first report
    view = await drafted(bot, opened["id"])
    assert inputs(view)["symptoms"] == FIRST
    blocks = json.dumps(view["blocks"], ensure_ascii=False)
    assert "Symptoms (what was first reported)" in blocks and f"omar: “{FIRST}”" in blocks
    assert "FIRING" not in blocks

    response = await bot.slack.view_submission(view, user_id="U1", answers=OUTCOME)  # confirmed as offered
    assert response.status == 200 and response.body == ""
    memory = await resolved_memory(bot, incident_id)
    assert memory.symptoms == FIRST
    assert memory.drafting is not None and memory.drafting.fields["symptoms"] is FieldOrigin.DRAFTED
    # recall reads it: a report in the same words finds this memory (its title and outcome share none)
    found = await bot.runtime.services.recall.for_text(bot.sandbox.team_id, None, "502 for EU customers")
    assert incident_id in [m.memory.incident_id for m in found.matches + found.weak + found.under_floor]


async def test_an_edited_first_report_is_kept_as_edited(bot: LocalBot) -> None:
    incident_id = await declare(bot)
    await say(bot, "C1", FIRST, user="U2")
    opened = await open_resolution(bot)
    view = await drafted(bot, opened["id"])
    edited = "EU card payments failed with 502 at checkout (TLS handshake errors at the gateway)"
    await bot.slack.view_submission(view, user_id="U1", answers={**OUTCOME, "symptoms": edited})
    memory = await resolved_memory(bot, incident_id)
    assert memory.symptoms == edited and memory.drafting.fields["symptoms"] is FieldOrigin.DRAFTED_CHANGED


async def test_declared_symptoms_are_shown_instead_and_what_the_person_confirms_is_kept(bot: LocalBot) -> None:
    declared = "card payments fail at checkout for EU customers"
    assert (await bot.slack.command("/incident", "declare", user_id="U1", channel_id="C1")).status == 200
    await bot.sandbox.wait_for("views.open")
    answers = {"title": "EU card payments failing", "symptoms": declared}
    assert (await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers=answers)).body == ""
    await bot.runtime.settle()
    incident_id = (await bot.runtime.services.incidents.open_in(bot.sandbox.team_id, "C1")).incident_id
    await say(bot, "C1", FIRST, user="U2")

    opened = await open_resolution(bot)
    assert inputs(opened)["symptoms"] == declared  # shown at once, before the draft
    view = await drafted(bot, opened["id"])
    assert inputs(view)["symptoms"] == declared and FIRST not in json.dumps(view["blocks"], ensure_ascii=False)
    await bot.slack.view_submission(view, user_id="U1", answers=OUTCOME)  # kept as declared
    memory = await resolved_memory(bot, incident_id)
    assert memory.symptoms == declared and "symptoms" not in memory.drafting.fields

    # resolved again by the declarer with the symptoms edited: the revision keeps what they confirmed
    again = await open_resolution(bot)
    view = await drafted(bot, again["id"])
    await bot.slack.view_submission(
        view, user_id="U1", answers={**OUTCOME, "symptoms": declared + ", 502 at the gateway"}
    )
    revision = await resolved_memory(bot, f"{incident_id}~r2")
    assert revision.symptoms == declared + ", 502 at the gateway"


async def test_an_oversized_first_message_is_cut_with_a_mark_that_says_so(bot: LocalBot) -> None:
    incident_id = await declare(bot)
    long_report = "checkout 502 for EU cards; " + "gateway log line: handshake failed, retrying " * 600
    await say(bot, "C1", long_report, user="U2")
    opened = await open_resolution(bot)
    view = await drafted(bot, opened["id"])  # the sandbox refuses an input past Slack's limits
    offered = inputs(view)["symptoms"]
    assert len(offered) <= 3000 and offered.startswith("checkout 502 for EU cards; gateway log line")
    assert offered.endswith(f"[cut here: the first message runs to {len(long_report.strip()):,} characters; "
                            "the rest is in the channel]")  # fmt: skip
    await bot.slack.view_submission(view, user_id="U1", answers=OUTCOME)
    assert (await resolved_memory(bot, incident_id)).symptoms == offered


async def test_a_channel_that_dropped_its_oldest_messages_offers_no_symptoms_and_says_why(database_url: str) -> None:
    async with payments_bot(database_url, timeline_max_messages=10) as bot:
        incident_id = await declare(bot)
        await say(bot, "C1", FIRST, user="U2")
        for i in range(1, 11):  # the eleventh message: the first report is dropped past the cap
            await say(bot, "C1", f"update {i}: still failing")
        opened = await open_resolution(bot)
        view = await drafted(bot, opened["id"])
        assert inputs(view)["symptoms"] == ""  # not the oldest message kept, under a label saying "first"
        blocks = json.dumps(view["blocks"], ensure_ascii=False)
        assert FIRST not in blocks and "update 1: still failing" not in blocks
        assert "the channel's first report is no longer kept" in blocks and "newest 10 messages" in blocks
        await bot.slack.view_submission(view, user_id="U1", answers=OUTCOME)
        memory = await resolved_memory(bot, incident_id)
        assert not memory.symptoms and "symptoms" not in memory.drafting.fields


async def test_a_database_refusing_the_save_loses_no_symptoms(bot: LocalBot, database_url: str) -> None:
    incident_id = await declare(bot)
    await say(bot, "C1", FIRST, user="U2")
    opened = await open_resolution(bot)
    view = await drafted(bot, opened["id"])
    edited = FIRST + " (and Apple Pay)"
    conn = await asyncpg.connect(database_url)
    try:  # the memory bank refuses writes: a broken disk, a full database...
        await conn.execute("ALTER TABLE memories ADD CONSTRAINT refuse_all CHECK (false) NOT VALID")
        answer = await bot.slack.view_submission(view, user_id="U1", answers={**OUTCOME, "symptoms": edited})
    finally:
        await conn.execute("ALTER TABLE memories DROP CONSTRAINT refuse_all")
        await conn.close()
    assert answer.body["response_action"] == "update" and "Nothing was saved" in json.dumps(answer.body["view"])
    kept = answer.body["view"]
    assert inputs(kept)["symptoms"] == edited
    # submitted again once the database takes writes: what was typed is what is kept
    kept["id"] = view["id"]
    assert (await bot.slack.view_submission(kept, user_id="U1")).body == ""
    assert (await resolved_memory(bot, incident_id)).symptoms == edited
