"""What the sandbox tests share: a running sandbox with one incident channel and one user, a
client on it, and the blocks and the resolve modal they post."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from bot.sandbox import SlackSandbox

SECRET = "sandbox-signing-secret"
CHANNEL = "C0INCIDENT"


def section(text: str, block_id: str | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "section", "text": {"type": "mrkdwn", "text": text}}
    if block_id:
        block["block_id"] = block_id
    return block


def modal(title: str = "Resolve incident", blocks: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "type": "modal",
        "callback_id": "resolve",
        "title": {"type": "plain_text", "text": title},
        "submit": {"type": "plain_text", "text": "Save"},
        "private_metadata": '{"channel": "C0INCIDENT"}',
        "blocks": blocks if blocks is not None else RESOLVE_BLOCKS,
    }


YES = {"text": {"type": "plain_text", "text": "Yes"}, "value": "yes"}
RESOLVE_BLOCKS: list[dict[str, Any]] = [
    {
        "type": "input",
        "block_id": "root_cause",
        "label": {"type": "plain_text", "text": "Root cause"},
        "element": {"type": "plain_text_input", "action_id": "value", "multiline": True},
    },
    {
        "type": "input",
        "block_id": "verified",
        "label": {"type": "plain_text", "text": "Verified?"},
        "element": {
            "type": "static_select",
            "action_id": "choice",
            "options": [
                YES,
                {"text": {"type": "plain_text", "text": "No"}, "value": "no"},
            ],
        },
    },
    {
        "type": "input",
        "block_id": "lesson",
        "optional": True,
        "label": {"type": "plain_text", "text": "Lesson"},
        "element": {"type": "plain_text_input", "action_id": "value", "initial_value": "none yet"},
    },
]


@pytest.fixture
async def sandbox() -> AsyncIterator[SlackSandbox]:
    async with SlackSandbox() as running:
        running.add_channel(CHANNEL, "inc-db-latency", topic="DB latency", purpose="sev2 incident")
        running.add_user("U0ALICE", "alice", real_name="Alice Example")
        yield running


@pytest.fixture
async def client(sandbox: SlackSandbox) -> AsyncWebClient:
    return AsyncWebClient(token=sandbox.token, base_url=sandbox.base_url)
