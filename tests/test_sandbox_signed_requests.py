"""The sender signs as Slack does: signed events, button clicks and view submissions reach an
app that checks signatures, and the real Bolt app runs against the sandbox."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs

import pytest
from aiohttp import web
from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncRespond
from slack_sdk.errors import SlackApiError
from slack_sdk.signature import SignatureVerifier
from slack_sdk.web.async_client import AsyncWebClient

from bot.sandbox import (
    SignedSender,
    Signing,
    SlackSandbox,
    form_values,
    message_event,
)
from tests.sandbox_parts import CHANNEL, SECRET, YES, client, modal, sandbox, section  # noqa: F401 - the fixtures, shared

# ---- the signed sender -----------------------------------------------------------------------


class Receiver:
    """A tiny app endpoint that checks signatures the way Bolt does and keeps what it got."""

    def __init__(self) -> None:
        self.verifier = SignatureVerifier(SECRET)
        self.received: list[tuple[dict[str, str], str]] = []

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.text()
        if not self.verifier.is_valid_request(body, dict(request.headers)):
            return web.Response(status=401, text="invalid signature")
        self.received.append((dict(request.headers), body))
        return web.json_response({"received": len(self.received)})


@pytest.fixture
async def receiver() -> AsyncIterator[tuple[Receiver, str]]:
    target = Receiver()
    app = web.Application()
    app.router.add_post("/slack/events", target.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    yield target, f"http://127.0.0.1:{runner.addresses[0][1]}/slack/events"
    await runner.cleanup()


async def test_signed_requests_are_accepted_and_forged_or_stale_ones_refused(
    receiver: tuple[Receiver, str],
) -> None:
    target, url = receiver
    async with SignedSender(url, SECRET) as slack:
        valid = await slack.command("/incident", "resolve", user_id="U0ALICE", channel_id=CHANNEL)
        forged = await slack.command("/incident", user_id="U0ALICE", channel_id=CHANNEL, signing=Signing.forged())
        stale = await slack.event(message_event(CHANNEL, "hi", user="U0ALICE"), signing=Signing.stale())
    assert (valid.status, valid.json) == (200, {"received": 1})
    assert (forged.status, forged.body) == (401, "invalid signature")
    assert stale.status == 401
    [(headers, body)] = target.received
    fields = {k: v[0] for k, v in parse_qs(body).items()}
    assert headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert (fields["command"], fields["text"], fields["channel_id"]) == ("/incident", "resolve", CHANNEL)
    assert fields["trigger_id"] and fields["response_url"] and fields["team_id"] == "T0SANDBOX"


async def test_events_carry_an_event_id_and_retry_headers(receiver: tuple[Receiver, str]) -> None:
    target, url = receiver
    async with SignedSender(url, SECRET) as slack:
        first = await slack.event(message_event(CHANNEL, "db is slow", user="U0ALICE"))
        again = await slack.event(first.sent["event"], event_id=first.sent["event_id"], retry_num=1)
    (first_headers, first_body), (retry_headers, retry_body) = target.received
    assert "X-Slack-Retry-Num" not in first_headers
    assert (retry_headers["X-Slack-Retry-Num"], retry_headers["X-Slack-Retry-Reason"]) == ("1", "http_timeout")
    sent, resent = json.loads(first_body), json.loads(retry_body)
    assert sent["type"] == "event_callback" and sent["event"]["text"] == "db is slow"
    assert resent["event_id"] == sent["event_id"] == again.sent["event_id"]


async def test_a_click_uses_the_real_button_of_a_sandbox_message(
    sandbox: SlackSandbox, client: AsyncWebClient, receiver: tuple[Receiver, str]
) -> None:
    target, url = receiver
    button = {
        "type": "button",
        "action_id": "helpful",
        "text": {"type": "plain_text", "text": "Helpful"},
        "value": "m-42",
    }
    posted = await client.chat_postMessage(
        channel=CHANNEL,
        text="memory",
        blocks=[section("memory"), {"type": "actions", "block_id": "fb", "elements": [button]}],
    )
    message = sandbox.message(CHANNEL, posted["ts"])
    async with SignedSender(url, SECRET, sandbox=sandbox) as slack:
        await slack.block_action("helpful", user_id="U0ALICE", message=message)
        with pytest.raises(LookupError):
            await slack.block_action("renamed", user_id="U0ALICE", message=message)
    [(_headers, body)] = target.received
    payload = json.loads(parse_qs(body)["payload"][0])
    assert payload["type"] == "block_actions"
    assert payload["actions"][0] | {"action_ts": None} == {
        "action_id": "helpful",
        "block_id": "fb",
        "type": "button",
        "value": "m-42",
        "text": {"type": "plain_text", "text": "Helpful"},
        "action_ts": None,
    }
    assert payload["container"] == {
        "type": "message",
        "message_ts": posted["ts"],
        "channel_id": CHANNEL,
        "is_ephemeral": False,
    }
    assert payload["channel"] == {"id": CHANNEL, "name": "inc-db-latency"}
    assert payload["response_url"].startswith(sandbox.url)


async def test_a_view_submission_carries_slacks_state_values(
    sandbox: SlackSandbox, client: AsyncWebClient, receiver: tuple[Receiver, str]
) -> None:
    target, url = receiver
    await client.views_open(trigger_id=sandbox.new_trigger_id(), view=modal())
    async with SignedSender(url, SECRET, sandbox=sandbox) as slack:
        await slack.view_submission(
            sandbox.last_view(), user_id="U0ALICE", answers={"root_cause": "pool", "verified": "yes"}
        )
    [(_headers, body)] = target.received
    view = json.loads(parse_qs(body)["payload"][0])["view"]
    assert view["callback_id"] == "resolve" and view["id"] == sandbox.last_view()["id"]
    assert view["private_metadata"] == '{"channel": "C0INCIDENT"}'
    assert view["state"]["values"] == {
        "root_cause": {"value": {"type": "plain_text_input", "value": "pool"}},
        "verified": {"choice": {"type": "static_select", "selected_option": YES}},
        "lesson": {"value": {"type": "plain_text_input", "value": "none yet"}},  # its initial value
    }


def test_form_values_refuse_answers_the_modal_cannot_take() -> None:
    with pytest.raises(KeyError, match="symptoms"):
        form_values(modal(), {"symptoms": "slow"})
    with pytest.raises(ValueError, match="maybe"):
        form_values(modal(), {"verified": "maybe"})


# ---- the real Bolt app, end to end -------------------------------------------------------------


async def test_the_real_bolt_app_runs_against_the_sandbox(sandbox: SlackSandbox) -> None:
    app = AsyncApp(
        client=AsyncWebClient(token=sandbox.token, base_url=sandbox.base_url),
        signing_secret=SECRET,
    )

    @app.command("/incident")
    async def open_modal(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        await client.views_open(trigger_id=body["trigger_id"], view=modal())

    @app.view("resolve")
    async def save(ack: AsyncAck, view: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        root_cause = view["state"]["values"]["root_cause"]["value"]["value"]
        channel = json.loads(view["private_metadata"])["channel"]
        await client.chat_postMessage(channel=channel, text=f"Saved: {root_cause}")

    @app.command("/recall")
    async def recall(ack: AsyncAck, respond: AsyncRespond) -> None:
        await ack()
        await respond(text="nothing like this yet")

    runner = web.AppRunner(app.web_app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/slack/events"
    try:
        async with SignedSender(url, SECRET, sandbox=sandbox) as slack:
            hold = sandbox.hold("views.open")
            acked = await slack.command("/incident", "resolve", user_id="U0ALICE", channel_id=CHANNEL)
            # the acknowledgement came back while the modal was still held: ack first, then work
            assert acked.status == 200 and sandbox.views() == []
            hold.release()
            await sandbox.wait_for(lambda c: c.method == "views.open" and c.ok)
            submitted = await slack.view_submission(
                sandbox.last_view(), user_id="U0ALICE", answers={"root_cause": "pool exhausted", "verified": "yes"}
            )
            assert submitted.status == 200
            saved = await sandbox.wait_for_message(CHANNEL)
            assert saved.text == "Saved: pool exhausted"
            # as in Slack, the submitted modal is gone: a late views.update (a draft) finds nothing
            with pytest.raises(SlackApiError, match="not_found"):
                await app.client.views_update(view_id=sandbox.last_view()["id"], view=modal())
            await slack.command("/recall", user_id="U0ALICE", channel_id=CHANNEL)
            await sandbox.wait_for("response_url")
            assert [e.text for e in sandbox.ephemerals(CHANNEL, "U0ALICE")] == ["nothing like this yet"]
            forged = await slack.command("/recall", user_id="U0ALICE", channel_id=CHANNEL, signing=Signing.forged())
            assert forged.status == 401
    finally:
        await runner.cleanup()
    assert sandbox.calls()[0].method == "auth.test"  # Bolt authorizes first
    assert sandbox.calls("views.open")[0].params["team_id"] == "T0SANDBOX"  # Bolt's per-request client adds it
