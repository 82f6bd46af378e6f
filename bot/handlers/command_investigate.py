"""`/investigate`: investigate the channel's open incident, posted in its thread."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.context import services_of
from bot.handlers.errors import spawn
from bot.handlers.flows import run_investigation
from bot.services.container import Services
from bot.slack import messages


async def investigate_command(ack: Any, client: AsyncWebClient, respond: Any, context: AsyncBoltContext) -> None:
    await ack()
    services = services_of(context)
    spawn(context, _investigate(client, services, context.team_id, context.channel_id, respond), name="investigate")


async def _investigate(client: AsyncWebClient, services: Services, team_id: str, channel_id: str, respond: Any) -> None:
    incident = await services.incidents.latest_in(team_id, channel_id)
    if incident is None:
        await respond(**messages.notice("No incident in this channel to investigate. Declare one with `/incident declare`."))
        return
    await run_investigation(client, services, incident)
