"""The confirm modal: an unconfirmed memory becomes human_confirmed, with who and their note in
its audited history. From a recall card or from App Home; who may confirm is the one authority
policy's (bot/policy.py), and a refusal says who can."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.modal_save import parse_submission
from bot.handlers.review_move import save_review_move
from bot.slack.submissions import ConfirmSubmission


async def on_confirm(ack: Any, view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    submission = await parse_submission(ack, ConfirmSubmission, view)
    if submission is None:
        return

    async def confirm(services: Any, team_id: str, incident_id: str, actor: Any, seen_from: str | None) -> Any:
        return await services.recall.confirm(team_id, incident_id, actor, submission.note, channel_id=seen_from)

    await save_review_move(
        ack, view, client, context, confirm, field="note",
        done=lambda incident_id: f"`{incident_id}` is confirmed: it will be offered as a past outcome, with your name.",
    )  # fmt: skip
