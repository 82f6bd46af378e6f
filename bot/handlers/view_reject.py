"""The reject modal: an unconfirmed memory is rejected, with who and why (it will not be recalled)."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.modal_save import parse_submission
from bot.handlers.review_move import save_review_move
from bot.slack.submissions import RejectSubmission


async def on_reject(ack: Any, view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    submission = await parse_submission(ack, RejectSubmission, view)
    if submission is None:
        return

    async def reject(services: Any, team_id: str, incident_id: str, actor: Any, seen_from: str | None) -> Any:
        return await services.recall.reject(team_id, incident_id, actor, submission.reason, channel_id=seen_from)

    await save_review_move(
        ack, view, client, context, reject, field="reason",
        done=lambda incident_id: f"`{incident_id}` is rejected: it will not be recalled again.",
    )  # fmt: skip
