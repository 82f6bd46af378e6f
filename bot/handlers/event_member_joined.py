"""The bot joined a channel: if it is named like an incident, open the incident and recall."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.context import services_of
from bot.handlers.lookups import channel_info
from bot.handlers.errors import spawn
from bot.handlers.flows import post_recall_thread
from bot.services.container import Services


async def on_member_joined(event: dict[str, Any], context: AsyncBoltContext, client: AsyncWebClient) -> None:
    if event.get("user") != context.bot_user_id:
        return  # a person joined: nothing to do
    spawn(context, _detect(client, services_of(context), context.team_id, context.channel_id), name="detect", tell=False)


async def _detect(client: AsyncWebClient, services: Services, team_id: str, channel_id: str) -> None:
    detected = await services.incidents.detect(team_id, await channel_info(client, channel_id))
    if detected is None:
        return
    incident, new = detected
    if new:  # a retried or repeated join finds the incident already open: one thread only
        await post_recall_thread(client, services, incident)
