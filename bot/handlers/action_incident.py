"""Buttons on the recall thread's parent: Investigate (and Resolve, where a template offers it)."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import Services
from bot.handlers.command_incident import open_resolution_modal
from bot.handlers.flows import run_investigation
from bot.slack import ids, messages


def register(app: AsyncApp, services: Services) -> None:
    @app.action(ids.INCIDENT_INVESTIGATE)
    async def on_investigate(ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient, respond: Any) -> None:
        await ack()
        team_id = body["team"]["id"]
        services.background.spawn(_investigate(client, services, team_id, action.get("value"), body, respond), name="investigate")

    @app.action(ids.INCIDENT_RESOLVE)
    async def on_resolve(ack: Any, body: dict[str, Any], client: AsyncWebClient, respond: Any) -> None:
        await ack()
        await open_resolution_modal(client, services, body["team"]["id"], body["channel"]["id"], body["trigger_id"], respond)


async def _investigate(
    client: AsyncWebClient, services: Services, team_id: str, incident_id: str | None, body: dict[str, Any], respond: Any
) -> None:
    channel_id = (body.get("channel") or {}).get("id")
    incident = await services.incidents.get_from(team_id, incident_id, channel_id) if incident_id else None
    if incident is None and body.get("channel"):
        incident = await services.incidents.latest_in(team_id, body["channel"]["id"])
    if incident is None:
        await respond(**messages.notice("I could not find the incident to investigate."), replace_original=False)
        return
    await run_investigation(client, services, incident)
