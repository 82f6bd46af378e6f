"""Buttons on the recall thread's parent: Investigate (and Resolve, where a template offers it)."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.command_incident import open_resolution_modal
from bot.handlers.context import services_of
from bot.handlers.work import InvestigationRequest, enqueue_then_ack, run_investigation


async def on_investigate(ack: Any, body: dict[str, Any], action: dict[str, Any], context: AsyncBoltContext) -> None:
    request = InvestigationRequest(
        team_id=context.team_id, channel_id=context.channel_id or "", user_id=context.user_id,
        incident_id=action.get("value"), response_url=body.get("response_url"),
    )  # fmt: skip
    await enqueue_then_ack(ack, services_of(context), run_investigation, request)


async def on_resolve(ack: Any, body: dict[str, Any], client: AsyncWebClient, respond: Any, context: AsyncBoltContext) -> None:
    await ack()
    services = services_of(context)
    await open_resolution_modal(
        client, services, context.team_id, context.channel_id, body["trigger_id"], respond, context.user_id
    )
