"""`/recall [text]`: on free text (only you see it), or on the channel's incident (a thread)."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp

from bot.app import Services
from bot.handlers.work import CommandRequest, answer_recall, enqueue_then_ack


def register(app: AsyncApp, services: Services) -> None:
    @app.command("/recall")
    async def recall_command(ack: Any, command: dict[str, Any]) -> None:
        request = CommandRequest(
            team_id=command["team_id"], channel_id=command["channel_id"], user_id=command["user_id"],
            text=(command.get("text") or "").strip(), response_url=command["response_url"],
        )  # fmt: skip
        await enqueue_then_ack(ack, services, answer_recall, request)
