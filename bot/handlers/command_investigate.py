"""`/investigate`: investigate the channel's open incident, posted in its thread."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import Services
from bot.handlers.flows import run_investigation
from bot.slack import messages


def register(app: AsyncApp, services: Services) -> None:
    @app.command("/investigate")
    async def investigate_command(ack: Any, command: dict[str, Any], client: AsyncWebClient, respond: Any) -> None:
        await ack()
        services.background.spawn(_investigate(client, services, command["team_id"], command["channel_id"], respond), name="investigate")


async def _investigate(client: AsyncWebClient, services: Services, team_id: str, channel_id: str, respond: Any) -> None:
    incident = await services.incidents.latest_in(team_id, channel_id)
    if incident is None:
        await respond(**messages.notice("No incident in this channel to investigate. Declare one with `/incident declare`."))
        return
    await run_investigation(client, services, incident)
