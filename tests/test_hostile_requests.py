"""Hostile requests over HTTP: replayed signed submissions write nothing new (on this instance or
another), malformed bodies get 400 (no 500, no traceback), and a flood of forged 1 MB bodies
leaves none of their content in the log."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import AsyncIterator, Iterator
from urllib.parse import urlencode

import aiohttp
import pytest

from bot.config import Settings
from bot.memory.files import draft_from_json
from bot.sandbox.local_bot import LocalBot, local_bot
from bot.sandbox.signed import message_event
from bot.sandbox.signing import Signing
from bot.sandbox.slack_api import SlackSandbox
from bot.slack import ids
from tests.test_observability import json_logs
from tests.test_slack_e2e import SEED, settle

FORM = "application/x-www-form-urlencoded"


@pytest.fixture
async def bot(database_url: str) -> AsyncIterator[LocalBot]:
    async with local_bot(
        Settings(database_url=database_url), signing_secret="shared-secret-of-two-instances"
    ) as running:
        running.sandbox.add_user("U1", "alice")
        running.sandbox.add_channel("C1", "inc-checkout-timeouts")
        await running.runtime.services.memory.retain(draft_from_json(SEED, team_id=running.sandbox.team_id))
        yield running


@pytest.fixture
def captured_logs() -> Iterator[io.StringIO]:
    """Every log line at every level, as `serve` would write it."""
    with json_logs(logging.DEBUG) as stream:
        yield stream


async def submit_correction(bot: LocalBot, text: str):  # noqa: ANN201 - SignedResponse
    opened = len(bot.sandbox.calls("views.open"))
    await bot.slack.block_action(ids.MEMORY_ADD_CORRECTION, user_id="U1", channel_id="C1", value="INC-OLD-1")
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    return await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers={"text": text})


async def test_a_replayed_signed_submission_writes_nothing_new(bot: LocalBot, database_url: str) -> None:
    submitted = await submit_correction(bot, "it was the refund worker")
    assert submitted.status == 200 and await settle(bot, submitted) == ""
    assert submitted.request is not None
    await bot.runtime.settle()
    notices = len(bot.sandbox.calls("chat.postEphemeral"))
    assert notices == 1

    replayed = await bot.slack.resend(submitted.request)  # the same bytes, timestamp and signature
    assert (replayed.status, replayed.body) == (200, "")
    await bot.runtime.settle()
    memory = await bot.runtime.services.memory.get(bot.sandbox.team_id, "INC-OLD-1")
    assert [c.text for c in memory.corrections] == ["it was the refund worker"]
    assert len(bot.sandbox.calls("chat.postEphemeral")) == notices  # not even a second "added"

    # a second instance of the app (same database, same signing secret) refuses it too
    async with local_bot(
        Settings(database_url=database_url), sandbox=bot.sandbox, signing_secret="shared-secret-of-two-instances"
    ) as other:
        again = await other.slack.resend(submitted.request)
        assert (again.status, again.body) == (200, "")
        await other.runtime.settle()
    memory = await bot.runtime.services.memory.get(bot.sandbox.team_id, "INC-OLD-1")
    assert len(memory.corrections) == 1

    # the same person typing the same correction again is a new request, and is saved
    assert await settle(bot, await submit_correction(bot, "it was the refund worker")) == ""
    assert len((await bot.runtime.services.memory.get(bot.sandbox.team_id, "INC-OLD-1")).corrections) == 2


async def test_a_replayed_command_answers_nothing_new(bot: LocalBot) -> None:
    sent = await bot.slack.command("/recall", "connection pool exhausted", user_id="U1", channel_id="C1")
    await bot.sandbox.wait_for("response_url", count=2)
    await bot.runtime.settle()
    answers = len(bot.sandbox.calls("response_url"))
    assert sent.request is not None and (await bot.slack.resend(sent.request)).status == 200
    await bot.runtime.settle()
    assert len(bot.sandbox.calls("response_url")) == answers


MALFORMED: dict[str, tuple[bytes, str]] = {
    "broken JSON": (b'{"type": "event_callback", "event": ', "application/json"),
    "a JSON array": (b"[1, 2, 3]", "application/json"),
    "an event without its event": (
        json.dumps({"type": "event_callback", "team_id": "T0SANDBOX"}).encode(),
        "application/json",
    ),
    "not UTF-8": (b"command=%2Frecall&text=\xff\xfe", FORM),
    "a broken payload": (urlencode({"payload": '{"type": "view_submission", '}).encode(), FORM),
    "a payload with no user": (
        urlencode({"payload": json.dumps({"type": "view_submission", "team": {"id": "T0SANDBOX"}})}).encode(),
        FORM,
    ),
    "a submission with no view": (
        urlencode(
            {"payload": json.dumps({"type": "view_submission", "team": {"id": "T0SANDBOX"}, "user": {"id": "U1"}})}
        ).encode(),
        FORM,
    ),
    "a click with no action": (
        urlencode(
            {
                "payload": json.dumps(
                    {"type": "block_actions", "team": {"id": "T0SANDBOX"}, "user": {"id": "U1"}, "actions": []}
                )
            }
        ).encode(),
        FORM,
    ),
    "a command with no channel": (
        urlencode({"command": "/incident", "team_id": "T0SANDBOX", "user_id": "U1"}).encode(),
        FORM,
    ),
    "a form with neither": (b"hello=world", FORM),
    "an empty body": (b"", FORM),
    "plain text": (b"hello", "text/plain"),
}


@pytest.mark.parametrize("case", MALFORMED)
async def test_a_signed_malformed_body_gets_400_and_no_traceback(
    bot: LocalBot, captured_logs: io.StringIO, case: str
) -> None:
    body, content_type = MALFORMED[case]
    response = await bot.slack.post(body, content_type=content_type)
    assert response.status == 400 and "malformed Slack request" in response.body
    await bot.runtime.settle()
    logged = [json.loads(line) for line in captured_logs.getvalue().splitlines()]
    assert not [line for line in logged if line["level"] in ("ERROR", "CRITICAL") or "Traceback" in json.dumps(line)]
    assert bot.sandbox.calls("views.open") == [] and bot.sandbox.calls("chat.postMessage") == []


async def test_a_flood_of_forged_megabyte_bodies_leaves_no_body_in_the_log(
    bot: LocalBot, captured_logs: io.StringIO
) -> None:
    marker = "forgedbodymarker"
    secret_url = "https://hooks.slack.com/commands/T0/123/leaky"
    event = message_event("C1", "card 4242-4242-4242 " + marker + " " + "x" * 1_000_000, user="U1")
    forged = json.dumps({"type": "event_callback", "team_id": "T0SANDBOX", "event_id": "EvF", "event": event})
    assert len(forged) > 1_000_000
    statuses = [
        (await bot.slack.post(forged, content_type="application/json", signing=Signing.forged())).status
        for _ in range(30)
    ]
    assert statuses == [401] * 30
    # a genuine command whose signature is too old (a proxy's clock, a captured request): its text
    # and response_url must not reach the log either
    stale = await bot.slack.command(
        "/recall", marker, user_id="U1", channel_id="C1", response_url=secret_url, signing=Signing.stale()
    )
    assert stale.status == 401
    # larger than any Slack request: refused on its Content-Length, never read
    too_large = await bot.slack.post(forged + " " * 100_000, content_type="application/json")
    assert too_large.status == 413

    await bot.runtime.settle()
    everything = captured_logs.getvalue()
    assert marker not in everything
    assert "4242-4242" not in everything and secret_url not in everything
    assert "xxxxxxxxxx" not in everything
    assert len(everything) < 32 * 1000  # about one short line per refused request
    assert await bot.runtime.services.incidents.latest_in(bot.sandbox.team_id, "C1") is None


async def test_headers_are_checked_before_the_body_is_read(bot: LocalBot) -> None:
    # no signature, or no timestamp: 401 at once, whatever the body (here one that never ends)
    async def endless() -> AsyncIterator[bytes]:
        for _ in range(10_000):
            yield b"x" * 1024

    async with aiohttp.ClientSession() as session:
        for headers in (
            {},
            {"X-Slack-Signature": "v0=" + "0" * 64},
            {"X-Slack-Request-Timestamp": "1", "X-Slack-Signature": "v0=" + "0" * 64},
        ):
            async with session.post(
                bot.events_url, data=endless(), headers={"Content-Type": "application/json", **headers}
            ) as response:
                assert response.status == 401


async def test_the_sandboxs_own_requests_still_pass(database_url: str) -> None:
    # the gate is not in the way of real traffic: url_verification answers its challenge
    async with SlackSandbox() as sandbox, local_bot(Settings(database_url=database_url), sandbox=sandbox) as running:
        answer = await running.slack.url_verification("abc123")
        assert answer.status == 200 and "abc123" in json.dumps(answer.body)
        ssl_check = await running.slack.post("ssl_check=1&token=sandbox-verification-token", content_type=FORM)
        assert ssl_check.status == 200


async def test_in_socket_mode_slack_events_over_http_are_404_repeats_included(database_url: str) -> None:
    # SLACK_APP_TOKEN and no signing secret: requests signed with the empty key reach nothing
    async with local_bot(Settings(database_url=database_url), socket_mode=True) as running:
        running.sandbox.add_user("U1", "alice")
        running.sandbox.add_channel("C1", "inc-checkout-timeouts")
        command = await running.slack.command("/incident", "declare", user_id="U1", channel_id="C1")
        assert command.status == 404 and command.request is not None
        repeat = await running.slack.resend(command.request)  # the replay path answered 200
        assert repeat.status == 404
        assert (await running.slack.post("ssl_check=1&token=x", content_type=FORM)).status == 404
        assert (await running.slack.url_verification("abc123")).status == 404
        said = await running.slack.say("C1", "pool at 100/100", user="U1")
        assert said.status == 404
        await running.runtime.settle()
        assert running.sandbox.calls("views.open") == []
        assert await running.runtime.services.incidents.latest_in(running.sandbox.team_id, "C1") is None
        base = running.events_url.removesuffix("/slack/events")
        async with aiohttp.ClientSession() as session:
            async with session.get(base + "/healthz") as health:
                assert health.status == 200
            async with session.get(base + "/metrics") as metrics:
                assert metrics.status == 200 and 'reason="socket_mode"' in await metrics.text()


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [65, 2_000, 100_000])
async def test_a_deeply_nested_body_gets_400(bot: LocalBot, captured_logs: io.StringIO, depth: int) -> None:
    event = json.dumps({"type": "event_callback", "team_id": "T0SANDBOX", "event_id": "EvN", "event": {"type": "x"}})
    as_event = event.replace('"type": "x"', f'"type": "x", "deep": {nested(depth)}')
    as_payload = urlencode({"payload": json.dumps({"type": "block_actions", "x": 1}).replace("1", nested(depth))})
    for body, content_type in ((as_event, "application/json"), (as_payload, FORM)):
        response = await bot.slack.post(body, content_type=content_type)
        assert response.status == 400 and "malformed Slack request" in response.body
    logged = [json.loads(line) for line in captured_logs.getvalue().splitlines()]
    assert not [line for line in logged if line["level"] in ("ERROR", "CRITICAL") or "Traceback" in json.dumps(line)]
