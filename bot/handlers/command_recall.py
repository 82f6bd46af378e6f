"""`/recall [text]`: on free text (only you see it), or on the channel's incident (a thread)."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext

from bot.handlers.context import services_of
from bot.handlers.work import CommandRequest, enqueue_then_ack
from bot.handlers.work_recall import answer_recall


async def recall_command(ack: Any, command: dict[str, Any], context: AsyncBoltContext) -> None:
    """Queue the answer (a durable job), then acknowledge: the job answers through response_url."""
    request = CommandRequest(
        team_id=context.team_id, channel_id=context.channel_id, user_id=context.user_id,
        text=(command.get("text") or "").strip(), response_url=command["response_url"],
    )  # fmt: skip
    await enqueue_then_ack(ack, services_of(context), answer_recall, request)
