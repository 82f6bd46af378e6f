"""The sandbox answers the real slack_sdk client as Slack would."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from bot.sandbox import SlackSandbox
from tests.sandbox_parts import CHANNEL, RESOLVE_BLOCKS, client, modal, sandbox, section  # noqa: F401 - the fixtures, shared


async def api_error(call: Any) -> str:
    with pytest.raises(SlackApiError) as raised:
        await call
    return str(raised.value.response["error"])


# ---- the Web API ----------------------------------------------------------------------------


async def test_auth_test_answers_what_bolt_reads(sandbox: SlackSandbox, client: AsyncWebClient) -> None:
    assert sandbox.base_url.endswith("/api/")
    response = await client.auth_test()
    assert response["ok"] is True
    assert (response["team_id"], response["user_id"], response["bot_id"]) == ("T0SANDBOX", "U0SANDBOXBOT", "B0SANDBOX")
    assert response["url"].startswith("https://") and response["team"] == "Sandbox"
    assert "chat:write" in response.headers["x-oauth-scopes"]
    [call] = sandbox.calls("auth.test")
    assert call.ok and call.token == sandbox.token


async def test_a_wrong_or_missing_token_is_refused_and_still_recorded(sandbox: SlackSandbox) -> None:
    wrong = AsyncWebClient(token="xoxb-wrong", base_url=sandbox.base_url)
    assert await api_error(wrong.chat_postMessage(channel=CHANNEL, text="hi")) == "invalid_auth"
    anonymous = AsyncWebClient(base_url=sandbox.base_url)
    assert await api_error(anonymous.auth_test()) == "not_authed"
    assert [c.error for c in sandbox.calls()] == ["invalid_auth", "not_authed"]
    assert sandbox.messages(CHANNEL) == []


async def test_a_message_with_blocks_reads_back_from_the_sandbox_and_history(
    sandbox: SlackSandbox, client: AsyncWebClient
) -> None:
    blocks = [section("*Recalled* 2 memories", "head"), {"type": "divider"}]
    posted = await client.chat_postMessage(channel=CHANNEL, text="Recalled 2 memories", blocks=blocks)
    [message] = sandbox.messages(CHANNEL)
    assert (message.ts, message.text, message.blocks) == (posted["ts"], "Recalled 2 memories", blocks)
    assert message.bot_id == "B0SANDBOX" and message.user == "U0SANDBOXBOT"
    call = sandbox.calls("chat.postMessage")[0]
    assert call.encoding == "json" and call.params["blocks"] == blocks

    history = await client.conversations_history(channel=CHANNEL)
    assert [m["ts"] for m in history["messages"]] == [posted["ts"]]
    assert history["messages"][0]["blocks"] == blocks
    assert sandbox.calls("conversations.history")[0].http_method == "GET"


async def test_form_bodies_and_query_strings_record_the_same_arguments(
    sandbox: SlackSandbox, client: AsyncWebClient
) -> None:
    blocks = [section("from a form")]
    await client.api_call("chat.postMessage", data={"channel": CHANNEL, "blocks": json.dumps(blocks), "text": "f"})
    await client.api_call("chat.postMessage", params={"channel": CHANNEL, "text": "q"})
    form, query = sandbox.calls("chat.postMessage")
    assert form.encoding == "form" and form.params["blocks"] == blocks
    assert query.encoding == "query" and query.params == {"channel": CHANNEL, "text": "q"}
    assert [m.text for m in sandbox.messages(CHANNEL)] == ["f", "q"]


async def test_a_thread_keeps_replies_under_their_parent(sandbox: SlackSandbox, client: AsyncWebClient) -> None:
    parent = await client.chat_postMessage(channel=CHANNEL, text="Incident declared")
    first = await client.chat_postMessage(channel=CHANNEL, text="memory 1", thread_ts=parent["ts"])
    # a reply to a reply joins the parent's thread, as in Slack
    second = await client.chat_postMessage(channel=CHANNEL, text="memory 2", thread_ts=first["ts"])
    assert second["message"]["thread_ts"] == parent["ts"]

    thread = sandbox.thread(CHANNEL, parent["ts"])
    assert [m.text for m in thread] == ["Incident declared", "memory 1", "memory 2"]
    replies = await client.conversations_replies(channel=CHANNEL, ts=parent["ts"])
    assert [m["text"] for m in replies["messages"]] == ["Incident declared", "memory 1", "memory 2"]
    assert replies["messages"][0]["reply_count"] == 2
    history = await client.conversations_history(channel=CHANNEL)
    assert [m["text"] for m in history["messages"]] == ["Incident declared"]
    assert await api_error(client.chat_postMessage(channel=CHANNEL, text="x", thread_ts="1.000001")) == (
        "thread_not_found"
    )


async def test_history_pages_newest_first_with_a_cursor(sandbox: SlackSandbox, client: AsyncWebClient) -> None:
    for i in range(5):
        sandbox.add_message(CHANNEL, f"line {i}", user="U0ALICE")
    first = await client.conversations_history(channel=CHANNEL, limit=3)
    assert [m["text"] for m in first["messages"]] == ["line 4", "line 3", "line 2"]
    assert first["has_more"] is True
    rest = await client.conversations_history(
        channel=CHANNEL, limit=3, cursor=first["response_metadata"]["next_cursor"]
    )
    assert [m["text"] for m in rest["messages"]] == ["line 1", "line 0"] and rest["has_more"] is False


async def test_a_429_is_honoured_by_the_retry_handler_and_the_message_arrives_once(
    sandbox: SlackSandbox,
) -> None:
    retrying = AsyncWebClient(
        token=sandbox.token,
        base_url=sandbox.base_url,
        retry_handlers=[AsyncRateLimitErrorRetryHandler(max_retry_count=1)],
    )
    sandbox.rate_limit_next("chat.postMessage", retry_after=1)
    response = await retrying.chat_postMessage(channel=CHANNEL, text="once")
    assert response["ok"] is True
    assert [m.text for m in sandbox.messages(CHANNEL)] == ["once"]
    assert [c.status for c in sandbox.calls("chat.postMessage")] == [429, 200]


async def test_a_429_without_a_retry_handler_is_an_error_carrying_retry_after(
    sandbox: SlackSandbox, client: AsyncWebClient
) -> None:
    sandbox.rate_limit_next("chat.postMessage", retry_after=7)
    with pytest.raises(SlackApiError) as raised:
        await client.chat_postMessage(channel=CHANNEL, text="lost")
    assert raised.value.response.status_code == 429
    assert raised.value.response["error"] == "ratelimited"
    assert raised.value.response.headers["Retry-After"] == "7"
    assert sandbox.messages(CHANNEL) == []


async def test_a_scripted_error_surfaces_once_as_slack_api_error(sandbox: SlackSandbox, client: AsyncWebClient) -> None:
    sandbox.fail_next("chat.postMessage", error="invalid_blocks", messages=("[ERROR] scripted [json-pointer:/blocks]",))
    with pytest.raises(SlackApiError) as raised:
        await client.chat_postMessage(channel=CHANNEL, text="x")
    assert raised.value.response["error"] == "invalid_blocks"
    assert raised.value.response["response_metadata"]["messages"] == ["[ERROR] scripted [json-pointer:/blocks]"]
    sandbox.fail_next("chat.postMessage", error="msg_too_long", times=2)
    assert await api_error(client.chat_postMessage(channel=CHANNEL, text="x")) == "msg_too_long"
    assert await api_error(client.chat_postMessage(channel=CHANNEL, text="x")) == "msg_too_long"
    await client.chat_postMessage(channel=CHANNEL, text="after")
    assert [m.text for m in sandbox.messages(CHANNEL)] == ["after"]


async def test_unknown_and_hidden_channels_are_not_found(sandbox: SlackSandbox, client: AsyncWebClient) -> None:
    sandbox.add_channel("G0SECRET", "inc-secret", is_private=True, is_member=False)
    sandbox.add_channel("C0OTHER", "general", is_member=False)
    assert await api_error(client.chat_postMessage(channel="C0NOPE", text="x")) == "channel_not_found"
    assert await api_error(client.conversations_info(channel="G0SECRET")) == "channel_not_found"
    assert await api_error(client.chat_postMessage(channel="C0OTHER", text="x")) == "not_in_channel"
    joined = await client.conversations_join(channel="C0OTHER")
    assert joined["channel"]["is_member"] is True
    await client.chat_postMessage(channel="C0OTHER", text="now a member")
    assert await api_error(client.conversations_join(channel="G0SECRET")) == "channel_not_found"


async def test_conversations_info_and_users_info(sandbox: SlackSandbox, client: AsyncWebClient) -> None:
    sandbox.add_channel("G0PRIV", "inc-private", is_private=True)
    info = (await client.conversations_info(channel=CHANNEL))["channel"]
    assert (info["name"], info["is_private"], info["topic"]["value"], info["purpose"]["value"]) == (
        "inc-db-latency",
        False,
        "DB latency",
        "sev2 incident",
    )
    private = (await client.conversations_info(channel="G0PRIV"))["channel"]
    assert private["is_private"] is True and private["is_group"] is True
    assert sandbox.calls("conversations.info")[0].encoding == "query"
    user = (await client.users_info(user="U0ALICE"))["user"]
    assert (user["name"], user["real_name"]) == ("alice", "Alice Example")
    assert await api_error(client.users_info(user="U0NOBODY")) == "user_not_found"


async def test_update_and_ephemeral(sandbox: SlackSandbox, client: AsyncWebClient) -> None:
    posted = await client.chat_postMessage(channel=CHANNEL, text="Investigating…")
    await client.chat_update(channel=CHANNEL, ts=posted["ts"], text="Done", blocks=[section("Done")])
    [message] = sandbox.messages(CHANNEL)
    assert (message.text, message.blocks, message.edited_ts is not None) == ("Done", [section("Done")], True)
    human = sandbox.add_message(CHANNEL, "mine", user="U0ALICE")
    assert await api_error(client.chat_update(channel=CHANNEL, ts=human.ts, text="x")) == "cant_update_message"

    await client.chat_postEphemeral(channel=CHANNEL, user="U0ALICE", text="only you")
    [ephemeral] = sandbox.ephemerals(CHANNEL, user="U0ALICE")
    assert ephemeral.text == "only you"
    assert [m.text for m in sandbox.messages(CHANNEL)] == ["Done", "mine"]
    link = await client.chat_getPermalink(channel=CHANNEL, message_ts=posted["ts"])
    assert link["permalink"].endswith(posted["ts"].replace(".", ""))
    await client.chat_delete(channel=CHANNEL, ts=posted["ts"])
    assert [m.text for m in sandbox.messages(CHANNEL)] == ["mine"]


async def test_other_methods_are_unknown_until_handled(sandbox: SlackSandbox, client: AsyncWebClient) -> None:
    assert await api_error(client.reactions_add(channel=CHANNEL, name="eyes", timestamp="1.1")) == "unknown_method"
    sandbox.handle("reactions.add", lambda params: {})
    await client.reactions_add(channel=CHANNEL, name="eyes", timestamp="1.1")
    assert [c.error for c in sandbox.calls("reactions.add")] == ["unknown_method", None]
    assert sandbox.calls("reactions.add")[1].params["name"] == "eyes"


async def test_views_open_is_recorded_and_update_keeps_the_id(sandbox: SlackSandbox, client: AsyncWebClient) -> None:
    opened = await client.views_open(trigger_id=sandbox.new_trigger_id(), view=modal())
    view = sandbox.last_view()
    assert view["id"] == opened["view"]["id"] and view["callback_id"] == "resolve"
    assert view["title"]["text"] == "Resolve incident" and view["state"] == {"values": {}}
    assert sandbox.calls("views.open")[0].params["view"]["blocks"] == RESOLVE_BLOCKS

    updated = await client.views_update(view_id=view["id"], hash=view["hash"], view=modal("Saving…"))
    assert updated["view"]["id"] == view["id"] and updated["view"]["hash"] != view["hash"]
    assert sandbox.last_view()["title"]["text"] == "Saving…"
    stale = client.views_update(view_id=view["id"], hash=view["hash"], view=modal("Again"))
    assert await api_error(stale) == "hash_conflict"
    assert await api_error(client.views_update(view_id="V0NOPE", view=modal())) == "not_found"
    pushed = await client.views_push(trigger_id=sandbox.new_trigger_id(), view=modal("Step 2"))
    assert pushed["view"]["root_view_id"] == view["id"]


async def test_a_trigger_id_opens_one_view_within_its_lifetime() -> None:
    now = [1_700_000_000.0]
    async with SlackSandbox(clock=lambda: now[0]) as timed:
        timed_client = AsyncWebClient(token=timed.token, base_url=timed.base_url)
        trigger = timed.new_trigger_id()
        await timed_client.views_open(trigger_id=trigger, view=modal())
        assert await api_error(timed_client.views_open(trigger_id=trigger, view=modal())) == "exchanged_trigger_id"
        late = timed.new_trigger_id()
        now[0] += 3.5
        assert await api_error(timed_client.views_open(trigger_id=late, view=modal())) == "expired_trigger_id"
        assert len(timed.views()) == 1


@pytest.mark.parametrize(
    ("count", "error"),
    [(50, None), (51, "invalid_blocks")],
)
async def test_a_message_holds_at_most_50_blocks(
    client: AsyncWebClient, sandbox: SlackSandbox, count: int, error: str | None
) -> None:
    blocks = [section(f"memory {i}") for i in range(count)]
    call = client.chat_postMessage(channel=CHANNEL, text="many", blocks=blocks)
    if error is None:
        await call
        assert len(sandbox.messages(CHANNEL)[0].blocks or []) == 50
    else:
        assert await api_error(call) == error
        assert sandbox.messages(CHANNEL) == []
        assert "less than 51 items" in sandbox.calls()[-1].response["response_metadata"]["messages"][0]


@pytest.mark.parametrize(("length", "error"), [(40_000, None), (40_001, "msg_too_long")])
async def test_message_text_holds_at_most_40000_chars(
    client: AsyncWebClient, sandbox: SlackSandbox, length: int, error: str | None
) -> None:
    call = client.chat_postMessage(channel=CHANNEL, text="x" * length)
    if error is None:
        await call
        assert len(sandbox.messages(CHANNEL)) == 1
    else:
        assert await api_error(call) == error


@pytest.mark.parametrize(("count", "error"), [(100, None), (101, "invalid_blocks")])
async def test_a_modal_holds_at_most_100_blocks(
    client: AsyncWebClient, sandbox: SlackSandbox, count: int, error: str | None
) -> None:
    call = client.views_open(trigger_id="t", view=modal(blocks=[section(f"b{i}") for i in range(count)]))
    if error is None:
        await call
        assert len(sandbox.last_view()["blocks"]) == 100
    else:
        assert await api_error(call) == error
        assert sandbox.views() == []


@pytest.mark.parametrize(("title", "error"), [("x" * 24, None), ("x" * 25, "invalid_arguments")])
async def test_a_modal_title_holds_at_most_24_chars(
    client: AsyncWebClient, sandbox: SlackSandbox, title: str, error: str | None
) -> None:
    call = client.views_open(trigger_id="t", view=modal(title))
    if error is None:
        await call
    else:
        assert await api_error(call) == error


@pytest.mark.parametrize(
    ("blocks", "error"),
    [
        ([section("a", "same"), section("b", "same")], "invalid_blocks"),
        ([section("")], "invalid_blocks"),
        ([section("y" * 3_001)], "invalid_blocks"),
        ([{"type": "header", "text": {"type": "plain_text", "text": "h" * 151}}], "invalid_blocks"),
        ([RESOLVE_BLOCKS[0]], "invalid_blocks"),  # input blocks belong in modals
        ([section("z" * 3_000, f"b{i}") for i in range(5)], "msg_blocks_too_long"),
    ],
    ids=["duplicate-block-id", "empty-text", "long-section", "long-header", "input-in-message", "too-much-text"],
)
async def test_other_block_kit_limits_are_refused(
    client: AsyncWebClient, sandbox: SlackSandbox, blocks: list[dict[str, Any]], error: str
) -> None:
    assert await api_error(client.chat_postMessage(channel=CHANNEL, text="t", blocks=blocks)) == error
    assert sandbox.messages(CHANNEL) == []


async def test_a_held_method_waits_until_released(sandbox: SlackSandbox, client: AsyncWebClient) -> None:
    hold = sandbox.hold("chat.postMessage")
    posting = asyncio.create_task(client.chat_postMessage(channel=CHANNEL, text="slow"))
    await hold.arrived()
    assert not posting.done() and sandbox.messages(CHANNEL) == [] and hold.waiting == 1
    hold.release()
    await posting
    assert [m.text for m in sandbox.messages(CHANNEL)] == ["slow"]


async def test_wait_for_sees_calls_made_later(sandbox: SlackSandbox, client: AsyncWebClient) -> None:
    async def later() -> None:
        await asyncio.sleep(0.05)
        await client.chat_postMessage(channel=CHANNEL, text="later")

    task = asyncio.create_task(later())
    call = await sandbox.wait_for("chat.postMessage")
    assert call.ok and call.params["text"] == "later"
    message = await sandbox.wait_for_message(CHANNEL, lambda m: m.text == "later")
    assert message.ts == call.response["ts"]
    await task
    with pytest.raises(TimeoutError, match="call #2 of chat.postMessage"):
        await sandbox.wait_for("chat.postMessage", count=2, timeout=0.05)


async def test_response_url_posts_land_where_slack_puts_them(sandbox: SlackSandbox) -> None:
    url = sandbox.response_url(CHANNEL, user="U0ALICE")
    await AsyncWebhookClient(url).send(text="just you")
    await AsyncWebhookClient(url).send(text="everyone", response_type="in_channel")
    assert [e.text for e in sandbox.ephemerals(CHANNEL, "U0ALICE")] == ["just you"]
    assert [m.text for m in sandbox.messages(CHANNEL)] == ["everyone"]
    refused = await AsyncWebhookClient(url).send(text="t", blocks=[section("a", "x"), section("b", "x")])
    assert (refused.status_code, refused.body) == (400, "invalid_blocks")
    assert [c.ok for c in sandbox.calls("response_url")] == [True, True, False]
