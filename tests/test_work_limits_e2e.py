"""Limits on cost, through the real app over HTTP (the sandbox in Slack's place, a real
PostgreSQL): one investigation and one draft per incident at a time (asking again joins, and says
so), hourly limits per person and per channel (a refusal names the limit and when to try again),
and the messages kept per incident capped (the investigation says how many it did not read)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.sandbox.local_bot import LocalBot, local_bot
from tests.test_retention_e2e import declare, say


def limits(**overrides: int) -> dict[str, int]:
    return {
        "investigations_per_person_per_hour": 6, "investigations_per_channel_per_hour": 20,
        "drafts_per_person_per_hour": 6, "drafts_per_channel_per_hour": 20, **overrides,
    }  # fmt: skip


async def running_bot(database_url: str, **settings: int) -> AsyncIterator[LocalBot]:
    async with local_bot(Settings(database_url=database_url, **settings)) as running:
        for user, name in (("U1", "maya"), ("U2", "omar"), ("U3", "lea")):
            running.sandbox.add_user(user, name)
        running.sandbox.add_channel("C1", "inc-payments-500s", members=("U1", "U2", "U3"))
        yield running


@pytest.fixture
async def bot(database_url: str) -> AsyncIterator[LocalBot]:
    async for running in running_bot(database_url, **limits(investigations_per_person_per_hour=2)):
        yield running


def said(response) -> str:  # noqa: ANN001 - a SignedResponse
    return json.dumps(response.body) if response.body else ""


def placeholders(bot: LocalBot) -> list:
    return [c for c in bot.sandbox.calls("chat.postMessage") if "Investigating" in c.params.get("text", "")]


async def test_asking_again_while_an_investigation_runs_joins_it_and_says_so(bot: LocalBot) -> None:
    await declare(bot)
    held = bot.sandbox.hold("chat.postMessage")  # the first investigation stays running
    first = await bot.slack.command("/investigate", user_id="U1", channel_id="C1")
    assert first.status == 200 and "already under way" not in said(first)
    await held.arrived()
    second = await bot.slack.command("/investigate", user_id="U2", channel_id="C1")
    assert "already under way" in said(second) and "nothing new was started" in said(second)
    held.release()
    await bot.runtime.settle()
    assert len(placeholders(bot)) == 1  # one investigation, one answer
    assert len(bot.sandbox.calls("chat.update")) == 1
    # joining cost U2 nothing: two more of their own still start
    for _ in range(2):
        asked = await bot.slack.command("/investigate", user_id="U2", channel_id="C1")
        assert "INVESTIGATIONS_PER_PERSON_PER_HOUR" not in said(asked)
        await bot.runtime.settle()
    assert len(placeholders(bot)) == 3


async def test_past_the_hourly_limit_a_person_is_told_which_limit_and_when_again(bot: LocalBot) -> None:
    await declare(bot)
    for _ in range(2):
        assert said(await bot.slack.command("/investigate", user_id="U1", channel_id="C1")) == ""
        await bot.runtime.settle()
    refused = said(await bot.slack.command("/investigate", user_id="U1", channel_id="C1"))
    assert "You have started 2 investigations in the last hour" in refused
    assert "(INVESTIGATIONS_PER_PERSON_PER_HOUR)" in refused and "another in 60 minutes" in refused
    await bot.runtime.settle()
    assert len(placeholders(bot)) == 2  # nothing started
    # the Investigate button counts alike; someone else may still ask
    assert said(await bot.slack.command("/investigate", user_id="U2", channel_id="C1")) == ""


async def test_a_channel_has_its_own_hourly_limit(database_url: str) -> None:
    async for bot in running_bot(
        database_url, **limits(investigations_per_person_per_hour=2, investigations_per_channel_per_hour=3)
    ):
        await declare(bot)
        for user in ("U1", "U1", "U2"):
            assert said(await bot.slack.command("/investigate", user_id=user, channel_id="C1")) == ""
            await bot.runtime.settle()
        refused = said(await bot.slack.command("/investigate", user_id="U3", channel_id="C1"))
        assert "This channel has started 3 investigations" in refused
        assert "INVESTIGATIONS_PER_CHANNEL_PER_HOUR" in refused


async def test_past_the_draft_limit_the_form_opens_undrafted_and_says_why(database_url: str) -> None:
    async for bot in running_bot(database_url, **limits(drafts_per_person_per_hour=1)):
        await declare(bot)
        await say(bot, "C1", "restarted payments pods, errors back after 25 minutes")
        await bot.slack.command("/incident", "resolve", user_id="U1", channel_id="C1")
        drafted = await bot.sandbox.wait_for("views.update", timeout=30)  # the first form, drafted
        assert "Restarted payments pods" in json.dumps(drafted.params)
        await bot.slack.command("/incident", "resolve", user_id="U1", channel_id="C1")
        await bot.sandbox.wait_for("views.open", count=3)  # the declare modal was the first
        await bot.runtime.settle()
        first, second = (json.dumps(c.params["view"]) for c in bot.sandbox.calls("views.open")[1:3])
        assert "DRAFTS_PER_PERSON_PER_HOUR" not in first
        assert "You have asked for 1 drafted resolution in the last hour" in second
        assert "DRAFTS_PER_PERSON_PER_HOUR" in second
        drafted = [c for c in bot.sandbox.calls("views.update") if "Restarted payments pods" in json.dumps(c.params)]
        assert len(drafted) == 1  # the first form was drafted; the second was not


async def test_two_forms_at_once_share_one_draft_and_the_second_says_so(bot: LocalBot) -> None:
    await declare(bot)
    await say(bot, "C1", "restarted payments pods, errors back after 25 minutes")
    services = bot.runtime.services
    incident = await services.incidents.open_in(bot.sandbox.team_id, "C1")
    assert incident is not None
    first, second = await asyncio.gather(services.drafting.draft(incident), services.drafting.draft(incident))
    assert first.draft_id == second.draft_id  # drafted (and stored) once
    assert [a.action for a in first.draft.failed_attempts] == ["Restarted payments pods"]
    assert any("already being made" in note for note in second.draft.notes)
    assert not any("already being made" in note for note in first.draft.notes)


async def test_an_incident_keeps_its_newest_messages_and_the_investigation_says_how_many_it_left_out(
    database_url: str,
) -> None:
    async for bot in running_bot(database_url, timeline_max_messages=10):
        await declare(bot)
        for i in range(13):
            await say(bot, "C1", f"update {i}: still failing")
        services = bot.runtime.services
        incident = await services.incidents.open_in(bot.sandbox.team_id, "C1")
        assert incident is not None
        kept = [e.text for e in await services.incidents.timeline(incident)]
        assert kept == [f"update {i}: still failing" for i in range(3, 13)]  # the oldest three went
        assert (await bot.slack.command("/investigate", user_id="U1", channel_id="C1")).status == 200
        answer = await bot.sandbox.wait_for("chat.update", timeout=30)
        shown = json.dumps(answer.params)
        assert "The 3 oldest channel messages were not read" in shown
        assert "TIMELINE_MAX_MESSAGES" in shown
