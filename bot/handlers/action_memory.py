"""Buttons on a recalled memory: Helpful, Not relevant, Add correction, Confirm, Reject (Confirm
and Reject also in App Home)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.context import services_of
from bot.handlers.errors import spawn
from bot.models import FeedbackKind
from bot.services.container import Services
from bot.slack import messages
from bot.slack.modals import confirm_modal, correction_modal, reject_modal

_THANKS = {FeedbackKind.HELPFUL: "Noted as helpful", FeedbackKind.NOT_RELEVANT: "Noted as not relevant"}


def _memory_title(body: dict[str, Any], incident_id: str) -> str:
    # the button's own message says which memory it is; no database read before views.open
    return (body.get("message") or {}).get("text") or incident_id


async def on_helpful(ack: Any, action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    await _on_feedback(ack, action, client, context, FeedbackKind.HELPFUL)


async def on_not_relevant(ack: Any, action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    await _on_feedback(ack, action, client, context, FeedbackKind.NOT_RELEVANT)


async def open_correction_modal(
    ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await _open_modal(correction_modal, ack, body, action, client, context)


async def open_confirm_modal(
    ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await _open_modal(confirm_modal, ack, body, action, client, context)


async def open_reject_modal(
    ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await _open_modal(reject_modal, ack, body, action, client, context)


async def _open_modal(
    modal: Callable[..., dict[str, Any]], ack: Any, body: dict[str, Any], action: dict[str, Any],
    client: AsyncWebClient, context: AsyncBoltContext,
) -> None:  # fmt: skip
    """Open `modal(incident_id, memory_title, context=...)` for the button's memory, at once."""
    await ack()
    incident_id = action["value"]
    # from App Home there is no channel: the submission checks the person may see the memory
    where = {"from_home": True} if (body.get("view") or {}).get("type") == "home" else {"channel_id": context.channel_id}
    view = modal(incident_id, _memory_title(body, incident_id), context=where)
    await client.views_open(trigger_id=body["trigger_id"], view=view)


async def _on_feedback(
    ack: Any, action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext, kind: FeedbackKind
) -> None:
    await ack()
    services = services_of(context)
    work = _feedback(client, services, context.team_id, context.channel_id, context.user_id, action["value"], kind)
    spawn(context, work, name="feedback")


async def _feedback(
    client: AsyncWebClient, services: Services, team_id: str, channel_id: str | None, user_id: str,
    incident_id: str, kind: FeedbackKind,
) -> None:  # fmt: skip
    await services.recall.feedback(team_id, incident_id, user_id, kind)
    if channel_id:
        note = messages.notice(f"{_THANKS[kind]}: `{incident_id}`. Recall will weigh it next time.")
        await client.chat_postEphemeral(channel=channel_id, user=user_id, **note)
