"""The sandbox's App Home, channel members and typed modal state behave as Slack's do: the
real slack_sdk client against the sandbox over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.sandbox import SlackSandbox, form_values


@pytest.fixture
async def sandbox() -> AsyncIterator[SlackSandbox]:
    async with SlackSandbox() as running:
        running.add_user("U1", "maya")
        running.add_user("U2", "omar")
        yield running


def client(sandbox: SlackSandbox) -> AsyncWebClient:
    return AsyncWebClient(token=sandbox.token, base_url=sandbox.base_url)


def text_input(block_id: str, initial: str | None = None, action_id: str = "value") -> dict[str, Any]:
    element: dict[str, Any] = {"type": "plain_text_input", "action_id": action_id}
    if initial is not None:
        element["initial_value"] = initial
    return {
        "type": "input",
        "block_id": block_id,
        "label": {"type": "plain_text", "text": block_id},
        "element": element,
    }


def section(n: int) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": f"line {n}"}}


async def test_views_publish_keeps_one_home_per_person_and_refuses_what_slack_refuses(sandbox: SlackSandbox) -> None:
    web = client(sandbox)
    first = await web.views_publish(user_id="U1", view={"type": "home", "blocks": [section(1)]})
    again = await web.views_publish(user_id="U1", view={"type": "home", "blocks": [section(2)]})
    assert first["view"]["id"] == again["view"]["id"]
    assert sandbox.home("U1")["blocks"][0]["text"]["text"] == "line 2"
    with pytest.raises(SlackApiError) as too_many:
        await web.views_publish(user_id="U1", view={"type": "home", "blocks": [section(n) for n in range(101)]})
    assert too_many.value.response["error"] == "invalid_blocks"
    with pytest.raises(SlackApiError) as not_home:
        await web.views_publish(
            user_id="U1", view={"type": "modal", "title": {"type": "plain_text", "text": "x"}, "blocks": []}
        )
    assert not_home.value.response["error"] == "invalid_arguments"
    with pytest.raises(SlackApiError) as nobody:
        await web.views_publish(user_id="U9", view={"type": "home", "blocks": []})
    assert nobody.value.response["error"] == "user_not_found"


async def test_channel_members_are_those_added_and_whoever_spoke(sandbox: SlackSandbox) -> None:
    sandbox.add_channel("G1", "inc-private", is_private=True, members=("U1",))
    sandbox.add_message("G1", "on it", user="U2")
    members = (await client(sandbox).conversations_members(channel="G1"))["members"]
    assert set(members) == {"U1", "U2", sandbox.bot_user_id}
    sandbox.add_channel("G2", "elsewhere", is_private=True, is_member=False)
    with pytest.raises(SlackApiError) as hidden:
        await client(sandbox).conversations_members(channel="G2")
    assert hidden.value.response["error"] == "channel_not_found"


async def test_typed_text_survives_an_update_that_keeps_the_input_and_not_one_that_renames_it(
    sandbox: SlackSandbox,
) -> None:
    web = client(sandbox)
    modal = {
        "type": "modal",
        "title": {"type": "plain_text", "text": "Resolve"},
        "submit": {"type": "plain_text", "text": "Save"},
    }
    opened = await web.views_open(
        trigger_id=sandbox.new_trigger_id(), view={**modal, "blocks": [text_input("cause"), text_input("fix")]}
    )
    view_id = opened["view"]["id"]
    sandbox.type_into(view_id, {"cause": "pool leak", "fix": "rollback"})
    blocks = [text_input("cause", "drafted cause"), text_input("fix", "drafted fix", action_id="renamed")]
    await web.views_update(view_id=view_id, hash=opened["view"]["hash"], view={**modal, "blocks": blocks})
    values = form_values(sandbox.view(view_id), {})
    assert values["cause"]["value"]["value"] == "pool leak"  # kept: same block_id and action_id
    assert values["fix"]["renamed"]["value"] == "drafted fix"  # a renamed input starts afresh
    with pytest.raises(SlackApiError) as stale:
        await web.views_update(view_id=view_id, hash=opened["view"]["hash"], view={**modal, "blocks": blocks})
    assert stale.value.response["error"] == "hash_conflict"
