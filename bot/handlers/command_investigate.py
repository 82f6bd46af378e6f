"""`/investigate`: investigate the channel's open incident, posted in its thread."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext

from bot.handlers.context import services_of
from bot.handlers.work_investigation import InvestigationRequest, start_investigation


async def investigate_command(ack: Any, command: dict[str, Any], context: AsyncBoltContext) -> None:
    request = InvestigationRequest(
        team_id=context.team_id, channel_id=context.channel_id, user_id=context.user_id,
        response_url=command.get("response_url"),
    )  # fmt: skip
    await start_investigation(ack, services_of(context), request)
