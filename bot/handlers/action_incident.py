"""Buttons on the recall thread's parent: Investigate (and Resolve, where a template offers it)."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import Services
from bot.handlers.command_incident import open_resolution_modal
from bot.handlers.work import InvestigationRequest, enqueue_then_ack, run_investigation
from bot.slack import ids


def register(app: AsyncApp, services: Services) -> None:
    @app.action(ids.INCIDENT_INVESTIGATE)
    async def on_investigate(ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        request = InvestigationRequest(
            team_id=body["team"]["id"], channel_id=(body.get("channel") or {}).get("id") or "",
            user_id=body["user"]["id"], incident_id=action.get("value"), response_url=body.get("response_url"),
        )  # fmt: skip
        await enqueue_then_ack(ack, services, run_investigation, request)

    @app.action(ids.INCIDENT_RESOLVE)
    async def on_resolve(ack: Any, body: dict[str, Any], client: AsyncWebClient, respond: Any) -> None:
        await ack()
        await open_resolution_modal(
            client, services, body["team"]["id"], body["channel"]["id"], body["trigger_id"], respond, body["user"]["id"]
        )

