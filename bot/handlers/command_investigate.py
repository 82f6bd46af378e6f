"""`/investigate`: investigate the channel's open incident, posted in its thread."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp

from bot.app import Services
from bot.handlers.work import InvestigationRequest, enqueue_then_ack, run_investigation


def register(app: AsyncApp, services: Services) -> None:
    @app.command("/investigate")
    async def investigate_command(ack: Any, command: dict[str, Any]) -> None:
        request = InvestigationRequest(
            team_id=command["team_id"], channel_id=command["channel_id"], user_id=command["user_id"],
            response_url=command.get("response_url"),
        )  # fmt: skip
        await enqueue_then_ack(ack, services, run_investigation, request)
