"""Buttons about an incident: Investigate and Resolve on the recall thread's parent, and "Save
what we learned" on a nudge (in the channel or a direct message) and in App Home."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.context import services_of
from bot.handlers.resolution_form import open_resolution_modal
from bot.handlers.work_investigation import InvestigationRequest, start_investigation


async def on_investigate(ack: Any, body: dict[str, Any], action: dict[str, Any], context: AsyncBoltContext) -> None:
    request = InvestigationRequest(
        team_id=context.team_id, channel_id=context.channel_id or "", user_id=context.user_id,
        incident_id=action.get("value"), response_url=body.get("response_url"),
    )  # fmt: skip
    await start_investigation(ack, services_of(context), request)


async def on_resolve(
    ack: Any,
    body: dict[str, Any],
    action: dict[str, Any],
    client: AsyncWebClient,
    respond: Any,
    context: AsyncBoltContext,
) -> None:
    """Resolve on a recall thread, and "Save what we learned" on a nudge or in App Home: the
    button's value names the incident."""
    await ack()
    await open_resolution_modal(client, context, body["trigger_id"], respond, incident_id=action.get("value") or None)
