"""The bot joined a channel: if it is named like an incident, open the incident and recall."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import Services
from bot.handlers.flows import channel_info, post_recall_thread


def register(app: AsyncApp, services: Services) -> None:
    @app.event("member_joined_channel")
    async def on_member_joined(body: dict[str, Any], event: dict[str, Any], context: Any, client: AsyncWebClient) -> None:
        if event.get("user") != context.get("bot_user_id"):
            return  # a person joined: nothing to do
        services.background.spawn(_detect(client, services, body.get("team_id") or event.get("team"), event["channel"]), name="detect")


async def _detect(client: AsyncWebClient, services: Services, team_id: str, channel_id: str) -> None:
    detected = await services.incidents.detect(team_id, await channel_info(client, channel_id))
    if detected is None:
        return
    incident, new = detected
    if new:  # a retried or repeated join finds the incident already open: one thread only
        await post_recall_thread(client, services, incident)
