"""Buttons on the recall thread's parent: Investigate (and Resolve, where a template offers it)."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.command_incident import open_resolution_modal
from bot.handlers.context import services_of
from bot.handlers.errors import spawn
from bot.handlers.flows import run_investigation
from bot.services.container import Services
from bot.slack import messages


async def on_investigate(
    ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient, respond: Any, context: AsyncBoltContext
) -> None:
    await ack()
    services = services_of(context)
    work = _investigate(client, services, context.team_id, context.channel_id, action.get("value"), respond)
    spawn(context, work, name="investigate")


async def on_resolve(ack: Any, body: dict[str, Any], client: AsyncWebClient, respond: Any, context: AsyncBoltContext) -> None:
    await ack()
    services = services_of(context)
    await open_resolution_modal(client, services, context.team_id, context.channel_id, body["trigger_id"], respond)


async def _investigate(
    client: AsyncWebClient, services: Services, team_id: str, channel_id: str | None, incident_id: str | None, respond: Any
) -> None:
    incident = await services.incidents.get(team_id, incident_id) if incident_id else None
    if incident is None and channel_id:
        incident = await services.incidents.latest_in(team_id, channel_id)
    if incident is None:
        await respond(**messages.notice("I could not find the incident to investigate."), replace_original=False)
        return
    await run_investigation(client, services, incident)
