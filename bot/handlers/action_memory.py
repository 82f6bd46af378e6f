"""Buttons on a recalled memory: Helpful, Not relevant, Add correction, Reject."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import Services
from bot.memory.errors import MemoryNotFound
from bot.memory.port import FeedbackKind
from bot.slack import ids, messages
from bot.slack.modals import correction_modal, reject_modal

_FEEDBACK = {ids.MEMORY_HELPFUL: FeedbackKind.HELPFUL, ids.MEMORY_NOT_RELEVANT: FeedbackKind.NOT_RELEVANT}
_THANKS = {FeedbackKind.HELPFUL: "Noted as helpful", FeedbackKind.NOT_RELEVANT: "Noted as not relevant"}


def _where(body: dict[str, Any]) -> tuple[str, str | None, str]:
    team_id = (body.get("team") or {}).get("id") or body.get("user", {}).get("team_id")
    channel_id = (body.get("channel") or {}).get("id")
    return team_id, channel_id, body["user"]["id"]


def _memory_title(body: dict[str, Any], incident_id: str) -> str:
    # the button's own message says which memory it is; no database read before views.open
    return (body.get("message") or {}).get("text") or incident_id


def register(app: AsyncApp, services: Services) -> None:
    for action_id, kind in _FEEDBACK.items():
        app.action(action_id)(_feedback_listener(services, kind))

    app.action(ids.MEMORY_ADD_CORRECTION)(_modal_opener(correction_modal))
    app.action(ids.MEMORY_REJECT)(_modal_opener(reject_modal))


def _modal_opener(modal: Callable[..., dict[str, Any]]):  # noqa: ANN202 - a Bolt listener
    """A button that opens `modal(incident_id, memory_title, context=...)` for its memory, at once."""

    async def open_modal(ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        _, channel_id, _ = _where(body)
        incident_id = action["value"]
        view = modal(incident_id, _memory_title(body, incident_id), context={"channel_id": channel_id})
        await client.views_open(trigger_id=body["trigger_id"], view=view)

    return open_modal


def _feedback_listener(services: Services, kind: FeedbackKind):  # noqa: ANN202 - a Bolt listener
    async def on_feedback(ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        team_id, channel_id, user_id = _where(body)
        services.background.spawn(
            _feedback(client, services, team_id, channel_id, user_id, action["value"], kind), name="feedback"
        )

    return on_feedback


async def _feedback(
    client: AsyncWebClient, services: Services, team_id: str, channel_id: str | None, user_id: str,
    incident_id: str, kind: FeedbackKind,
) -> None:  # fmt: skip
    try:
        await services.recall.feedback(team_id, incident_id, user_id, kind, channel_id=channel_id)
    except MemoryNotFound:
        if channel_id:
            await client.chat_postEphemeral(channel=channel_id, user=user_id, **messages.notice(f"No memory `{incident_id}` here."))
        return
    if channel_id:
        note = messages.notice(f"{_THANKS[kind]}: `{incident_id}`. Recall will weigh it next time.")
        await client.chat_postEphemeral(channel=channel_id, user=user_id, **note)
