"""Buttons about an incident: Investigate and Resolve on the recall thread's parent, and "Save
what we learned" on a nudge (in the channel or a direct message) and in App Home."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.context import services_of
from bot.handlers.errors import spawn
from bot.handlers.flows import run_investigation
from bot.handlers.resolution_form import open_resolution_modal
from bot.services.container import Services
from bot.slack import messages


async def on_investigate(
    ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient, respond: Any, context: AsyncBoltContext
) -> None:
    await ack()
    services = services_of(context)
    work = _investigate(client, services, context.team_id, context.channel_id, action.get("value"), respond)
    spawn(context, work, name="investigate")


async def on_resolve(
    ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient, respond: Any, context: AsyncBoltContext
) -> None:
    """Resolve on a recall thread, and "Save what we learned" on a nudge or in App Home: the
    button's value names the incident."""
    await ack()
    await open_resolution_modal(client, context, body["trigger_id"], respond, incident_id=action.get("value") or None)


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
