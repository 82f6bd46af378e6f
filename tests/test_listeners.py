"""Listeners as plain functions: called directly with a fake `ack`, `respond` and Slack `client`
(as in Slack's bolt-python starter template), real services over a real PostgreSQL, and the
context our middleware builds. What they acknowledge, say and store is what a user would see.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any
from unittest.mock import AsyncMock

import pytest
from slack_bolt.context.async_context import AsyncBoltContext

from bot.app import open_services
from bot.config import Settings
from bot.errors import StoreUnavailable
from bot.handlers import modal_save, resolution_form
from bot.handlers.action_open_form import OPEN_BUDGET_S, open_form
from bot.handlers.command_recall import recall_command
from bot.handlers.context import context_middleware
from bot.handlers.errors import report_error
from bot.handlers.lookups import SlackLookups
from bot.handlers.view_resolution import on_resolution
from bot.models import Incident, IncidentStatus, MemoryDraft, TruthState
from bot.observability.context import arrived_at
from bot.services.container import Services
from bot.services.incidents import ChannelInfo
from bot.slack.modals import resolution_modal

TEAM, USER, CHANNEL = "T1", "U1", "C1"
RESPONSE_URL = "https://hooks.slack.test/commands/T1/1/x"
PAST = MemoryDraft(
    incident_id="INC-OLD-1", team_id=TEAM, title="Payments API 5xx: database connection pool exhausted",
    service="payments", root_cause="refund worker leaked connections", resolution="release in a finally block",
    truth_state=TruthState.HUMAN_CONFIRMED, verified_by="maya",
)  # fmt: skip


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[Services]:
    async with open_services(Settings(database_url=database_url)) as opened:
        yield opened


def slack_client() -> AsyncMock:
    client = AsyncMock()
    client.users_info.return_value = {
        "ok": True,
        "user": {"id": USER, "name": "alice", "profile": {"display_name": "alice.oncall"}},
    }
    client.chat_postMessage.return_value = {"ok": True, "ts": "1700000000.000100"}
    # alice is in the incident's channel: her resolution closes it (bot/policy.py)
    client.conversations_members.return_value = {"ok": True, "members": [USER], "response_metadata": {}}
    # a plain public channel: a bare mock's every field is truthy, so it would read as shared with
    # another organisation (Slack Connect) and be isolated
    client.conversations_info.return_value = {
        "ok": True,
        "channel": {"id": CHANNEL, "name": "inc-db", "is_private": False},
    }
    return client


async def bolt_context(
    services: Services, body: dict[str, Any], respond: AsyncMock | None = None, **ids: str
) -> AsyncBoltContext:
    """The context Bolt would hand a listener, after our middleware ran on `body`."""
    context = AsyncBoltContext({"team_id": TEAM, "user_id": USER, **ids})
    if respond is not None:
        context["response_url"] = RESPONSE_URL
        context["respond"] = respond
    next_ = AsyncMock()
    await context_middleware(services, SlackLookups())(context=context, body=body, next_=next_)
    next_.assert_awaited_once()
    return context


def texts(mock: AsyncMock) -> list[str]:
    return [call.kwargs.get("text", "") for call in mock.await_args_list]


# ---- /recall ----------------------------------------------------------------------------------


def webhook() -> tuple[Any, AsyncMock]:
    """A stand-in for Slack's response_url client: what the jobs answer, in `sent`."""
    sent = AsyncMock(return_value=type("Response", (), {"status_code": 200, "body": "ok"})())
    return (lambda url: type("Webhook", (), {"send_dict": sent})()), sent


async def run_jobs(services: Services, client: AsyncMock, answer: Any) -> None:
    """Run what the listener queued, as the app's worker would, until the queue is empty."""
    from bot.handlers import all_jobs
    from bot.jobs import JobContext
    from bot.jobs.worker import JobWorker

    def job_context(attempt: int, job_id: int) -> JobContext:
        return JobContext(services, client, attempt, job_id, lookups=SlackLookups(), webhook=answer)

    worker = JobWorker(services.settings.database_url, all_jobs(), job_context, retry_base_s=0.01)
    await worker.start()
    try:
        for _ in range(600):
            if not await services.jobs.pending() and not worker.in_flight:
                break
            await asyncio.sleep(0.05)
    finally:
        await worker.stop()


def answered(sent: AsyncMock) -> list[dict[str, Any]]:
    return [call.args[0] for call in sent.await_args_list]


async def test_recall_on_text_queues_its_work_acks_then_answers_only_the_asker(services: Services) -> None:
    await services.memory.retain(PAST)
    ack, client = AsyncMock(), slack_client()
    command = {"command": "/recall", "text": "  database connection pool exhausted ", "team_id": TEAM,
               "channel_id": CHANNEL, "response_url": RESPONSE_URL}  # fmt: skip
    context = await bolt_context(services, command, channel_id=CHANNEL)

    await recall_command(ack=ack, command=command, context=context)
    ack.assert_awaited_once_with()  # within Slack's 3 s: the work is stored, not done
    assert await services.jobs.pending() == {"recall.answer": 1}
    url, sent = webhook()
    await run_jobs(services, client, url)

    said = answered(sent)
    assert said[0]["text"].startswith("1 past incident looks like")
    assert "INC-OLD-1" in json.dumps(said[1]["blocks"])
    assert len(said) == 2 and {s["response_type"] for s in said} == {"ephemeral"}  # only the asker sees them
    client.chat_postMessage.assert_not_awaited()


async def test_recall_without_text_or_incident_says_what_to_type(services: Services) -> None:
    ack, client = AsyncMock(), slack_client()
    command = {"command": "/recall", "text": "", "team_id": TEAM, "channel_id": CHANNEL, "response_url": RESPONSE_URL}
    context = await bolt_context(services, command, channel_id=CHANNEL)

    await recall_command(ack=ack, command=command, context=context)
    url, sent = webhook()
    await run_jobs(services, client, url)
    assert [s["text"] for s in answered(sent)] == [
        "No open incident here: give me some text, e.g. `/recall checkout timeouts`."
    ]


async def test_recall_failing_after_the_ack_is_retried_then_told_to_the_user(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    async def database_down(*args: object, **kwargs: object) -> None:
        calls.append("tried")
        raise StoreUnavailable("the database does not answer")

    monkeypatch.setattr(services.recall, "for_text", database_down)
    ack, client = AsyncMock(), slack_client()
    command = {
        "command": "/recall",
        "text": "pool exhausted",
        "team_id": TEAM,
        "channel_id": CHANNEL,
        "response_url": RESPONSE_URL,
    }
    context = await bolt_context(services, command, channel_id=CHANNEL)

    await recall_command(ack=ack, command=command, context=context)
    url, sent = webhook()
    await run_jobs(services, client, url)
    assert len(calls) > 1  # retried before giving up
    [told] = answered(sent)
    assert told["text"].startswith("I could not finish this") and told["response_type"] == "ephemeral"


async def test_recall_when_the_database_cannot_take_the_work_says_so_in_the_ack(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def refuse(*args: object, **kwargs: object) -> bool:
        raise StoreUnavailable("the database does not answer")

    monkeypatch.setattr(services.jobs, "enqueue", refuse)
    ack = AsyncMock()
    command = {
        "command": "/recall",
        "text": "pool",
        "team_id": TEAM,
        "channel_id": CHANNEL,
        "response_url": RESPONSE_URL,
    }
    await recall_command(ack=ack, command=command, context=await bolt_context(services, command, channel_id=CHANNEL))
    assert "not answering" in ack.await_args.kwargs["text"]


# ---- the resolution modal -----------------------------------------------------------------------


def submitted(view: dict[str, Any], answers: dict[str, str]) -> dict[str, Any]:
    """`view` as Slack sends it back on submit: every input block's typed value in state."""
    values = {
        block["block_id"]: {
            block["element"]["action_id"]: {"type": "plain_text_input", "value": answers.get(block["block_id"])}
        }
        for block in view["blocks"]
        if block["type"] == "input" and block["element"]["type"] == "plain_text_input"
    }
    return {**view, "id": "V1", "state": {"values": values}}


async def open_incident(services: Services) -> str:
    channel = ChannelInfo(id=CHANNEL, name="inc-checkout-timeouts")
    incident, _ = await services.incidents.declare(TEAM, channel, Incident(title="Checkout timeouts"), declared_by=USER)
    return incident.incident_id


TYPED = {"root_cause": "pool too small after the deploy", "resolution": "raised the pool to 50"}


async def submit_resolution(
    services: Services, incident_id: str, answers: dict[str, str] = TYPED
) -> tuple[AsyncMock, AsyncMock]:
    """The responder submits the incident's resolution modal with `answers` typed: (ack, Slack client), what
    Slack was answered and called."""
    modal = resolution_modal("Checkout timeouts", context={"channel_id": CHANNEL, "current_incident": incident_id})
    view = submitted(modal, answers)
    body = {"type": "view_submission", "team": {"id": TEAM}, "user": {"id": USER}, "view": view}
    ack, client = AsyncMock(), slack_client()
    await on_resolution(ack=ack, view=view, client=client, context=await bolt_context(services, body))
    return ack, client


async def assert_still_saving_then_saved(
    services: Services, incident_id: str, ack: AsyncMock, client: AsyncMock
) -> None:
    """Slack was answered at once with what was typed kept on screen; the modal says saved once the save ends."""
    assert ack.await_args.kwargs["response_action"] == "update"
    assert "Still saving" in json.dumps(ack.await_args.kwargs["view"])
    await services.background.drain()
    assert "saved" in json.dumps(client.views_update.await_args.kwargs["view"]).lower()
    assert (await services.incidents.get(TEAM, incident_id)).status is IncidentStatus.RESOLVED


async def test_resolving_saves_the_memory_closes_the_incident_and_closes_the_modal(services: Services) -> None:
    incident_id = await open_incident(services)
    modal = resolution_modal("Checkout timeouts", context={"channel_id": CHANNEL, "current_incident": incident_id})
    view = submitted(modal, {"root_cause": "pool too small after the deploy", "resolution": "raised the pool to 50",
                             "failed_1_action": "restarted pods", "failed_1_why": "the pool filled again"})  # fmt: skip
    body = {"type": "view_submission", "team": {"id": TEAM}, "user": {"id": USER}, "view": view}
    ack, client = AsyncMock(), slack_client()
    context = await bolt_context(services, body)  # no channel in a view payload: the middleware reads the modal's
    assert context.channel_id == CHANNEL

    await on_resolution(ack=ack, view=view, client=client, context=context)
    ack.assert_awaited_once_with()  # no arguments: the modal closes
    await services.background.drain()

    memory = await services.recall.memory(TEAM, incident_id, channel_id=CHANNEL)
    assert memory.root_cause == "pool too small after the deploy"
    assert memory.truth_state is TruthState.HUMAN_CONFIRMED and (memory.verified_by, memory.verified_by_name) == (
        USER,
        "alice.oncall",
    )
    assert [(a.action, a.why_it_failed) for a in memory.failed_attempts] == [
        ("restarted pods", "the pool filled again")
    ]
    assert (await services.incidents.get(TEAM, incident_id)).status is IncidentStatus.RESOLVED
    assert await services.jobs.pending() == {"slack.post": 1}  # the confirmation, durable
    await run_jobs(services, client, webhook()[0])
    posted = client.chat_postMessage.await_args.kwargs
    assert posted["channel"] == CHANNEL and incident_id in json.dumps(posted)


async def test_a_resolution_missing_its_root_cause_stays_open_with_the_error_inline(services: Services) -> None:
    incident_id = await open_incident(services)
    ack, _ = await submit_resolution(services, incident_id, {"resolution": "raised the pool to 50"})
    ack.assert_awaited_once_with(response_action="errors", errors={"root_cause": "This is required."})
    assert (await services.incidents.get(TEAM, incident_id)).status is IncidentStatus.OPEN


async def test_a_resolution_the_database_refuses_keeps_every_typed_word(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    incident_id = await open_incident(services)

    async def database_down(*args: object, **kwargs: object) -> None:
        raise StoreUnavailable("the database does not answer")

    monkeypatch.setattr(services.resolution, "resolve", database_down)
    ack, _ = await submit_resolution(services, incident_id)
    shown = ack.await_args.kwargs
    assert shown["response_action"] == "update"
    rendered = json.dumps(shown["view"])
    assert "Nothing was saved: the database does not answer" in rendered
    assert "pool too small after the deploy" in rendered and "raised the pool to 50" in rendered


async def test_a_saved_resolution_whose_follow_up_is_slow_still_answers_slack_within_the_budget(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    incident_id = await open_incident(services)
    monkeypatch.setattr(modal_save, "SAVE_BUDGET_S", 0.3)
    enqueue = services.jobs.enqueue

    async def slow_enqueue(*args: object, **kwargs: object) -> bool:  # the confirmation's queue is slow
        await asyncio.sleep(1.0)
        return await enqueue(*args, **kwargs)

    monkeypatch.setattr(services.jobs, "enqueue", slow_enqueue)
    ack, client = await submit_resolution(services, incident_id)
    # Slack is answered before the slow follow-up ends: the modal says it is still saving
    await assert_still_saving_then_saved(services, incident_id, ack, client)
    assert await services.jobs.pending() == {"slack.post": 1}  # the confirmation was still queued


async def test_a_save_counts_slacks_three_seconds_from_the_requests_arrival(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The request waited 2.9 s in the server before the listener ran (a starved event loop): a
    # 0.3 s save would answer Slack after 3.2 s, when Slack has already shown the user an error.
    incident_id = await open_incident(services)
    resolve = services.resolution.resolve

    async def slow_resolve(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(0.3)
        return await resolve(*args, **kwargs)

    monkeypatch.setattr(services.resolution, "resolve", slow_resolve)
    with arrived_at(time.monotonic() - 2.9):
        ack, client = await submit_resolution(services, incident_id)
    # answered at once, what was typed kept on screen; the modal is updated when the save ends
    await assert_still_saving_then_saved(services, incident_id, ack, client)


async def test_a_slow_incident_lookup_leaves_views_open_only_what_is_left_of_the_trigger(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    await open_incident(services)
    latest_in = services.incidents.latest_in

    async def slow_lookup(*args: object) -> object:
        await asyncio.sleep(0.5)
        return await latest_in(*args)

    monkeypatch.setattr(services.incidents, "latest_in", slow_lookup)
    budgets: list[float] = []

    async def opening(*args: object, budget_s: float, **kwargs: object) -> None:
        budgets.append(budget_s)

    monkeypatch.setattr(resolution_form, "open_form", opening)
    body = {"type": "block_actions", "team": {"id": TEAM}, "user": {"id": USER}, "channel": {"id": CHANNEL}}
    context = await bolt_context(services, body, channel_id=CHANNEL)
    await resolution_form.open_resolution_modal(slack_client(), context, "trigger-1", AsyncMock())
    # the 3 s trigger does not restart after the lookup: views.open gets what is left of it
    assert budgets and budgets[0] <= OPEN_BUDGET_S - 0.5


async def test_a_request_that_waited_in_the_server_gets_the_forms_button_instead_of_a_late_views_open(
    services: Services,
) -> None:
    # Slack's trigger expires 3 s after the click; the request reached the listener 2.8 s late and
    # views.open answers in 0.6 s: waiting for it would hand Slack an expired trigger.
    client = slack_client()

    async def slow_views_open(**kwargs: object) -> dict[str, Any]:
        await asyncio.sleep(0.6)
        return {"view": {"id": "V1"}}

    client.views_open = AsyncMock(side_effect=slow_views_open)
    modal = resolution_modal("Checkout timeouts", context={"channel_id": CHANNEL})
    with arrived_at(time.monotonic() - 2.8):
        opened = await open_form(client, services, "trigger-1", modal, channel_id=CHANNEL, user_id=USER)
    assert opened is None  # not opened late: the responder gets a button that opens it
    assert await services.jobs.pending() == {"slack.ephemeral": 1}


# ---- the per-app Slack lookups -----------------------------------------------------------------


async def test_the_lookups_are_bounded_and_asks_slack_once_per_person() -> None:
    lookups = SlackLookups(max_entries=2)
    client = slack_client()
    for user in ("U1", "U1", "U2", "U3", "U1"):
        await lookups.user_name(client, user)
    # U1 answered from memory once; after U2 and U3, U1 was the least recently used and had to go
    assert [c.kwargs["user"] for c in client.users_info.await_args_list] == ["U1", "U2", "U3", "U1"]


# ---- the one error handler ----------------------------------------------------------------------


async def test_a_failing_listener_is_logged_and_told_to_whoever_asked(caplog: pytest.LogCaptureFixture) -> None:
    client = slack_client()
    context = AsyncBoltContext({"team_id": TEAM, "user_id": USER, "channel_id": CHANNEL, "client": client})
    with caplog.at_level("ERROR", logger="bot.handlers.errors"):
        await report_error(RuntimeError("boom"), {"type": "view_submission"}, context)
    assert "handling view_submission failed" in caplog.text and "boom" in caplog.text
    sent = client.chat_postEphemeral.await_args.kwargs
    assert (sent["channel"], sent["user"]) == (CHANNEL, USER)
    assert sent["text"] == "That did not work: an unexpected error (in the bot's logs). Try again in a moment."


async def test_a_failing_event_listener_is_only_logged(caplog: pytest.LogCaptureFixture) -> None:
    client = slack_client()
    context = AsyncBoltContext({"team_id": TEAM, "user_id": USER, "channel_id": CHANNEL, "client": client})
    with caplog.at_level("ERROR", logger="bot.handlers.errors"):
        await report_error(RuntimeError("boom"), {"type": "event_callback", "event": {"type": "message"}}, context)
    assert "handling message failed" in caplog.text
    client.chat_postEphemeral.assert_not_awaited()  # a channel message asked nothing of us
