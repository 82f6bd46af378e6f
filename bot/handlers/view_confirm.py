"""The confirm modal: an unconfirmed memory becomes human_confirmed, with who and their note in
its audited history. From a recall card or from App Home; who may confirm is the one authority
policy's (bot/policy.py), and a refusal says who can."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.errors import TruthMoveRefused
from bot.handlers.context import directory_of, lookups_of, services_of
from bot.handlers.home import publish_home
from bot.handlers.modal_save import parse_submission, save_modal
from bot.handlers.work import tell_later
from bot.models import MemoryRecord
from bot.policy import NotAllowed
from bot.slack import messages
from bot.slack.modals import read_metadata
from bot.slack.submissions import ConfirmSubmission


async def on_confirm(ack: Any, view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    submission = await parse_submission(ack, ConfirmSubmission, view)
    if submission is None:
        return
    services, lookups = services_of(context), lookups_of(context)
    team_id, user_id, channel_id = context.team_id, context.user_id, context.channel_id
    metadata = read_metadata(view)
    incident_id = metadata["incident_id"]

    async def is_member(channel: str) -> bool:
        return await lookups.is_member(client, channel, user_id)

    async def confirm() -> MemoryRecord | TruthMoveRefused | NotAllowed:
        # from App Home there is no channel: a private memory is seen from its own channel when
        # the person is in it; otherwise it is not found
        seen_from = await services.review.seen_from(team_id, incident_id, channel_id, is_member)
        try:
            actor = await directory_of(context).actor(client, user_id)
            return await services.recall.confirm(team_id, incident_id, actor, submission.note, channel_id=seen_from)
        except (TruthMoveRefused, NotAllowed) as refused:
            return refused

    async def saved(result: MemoryRecord | TruthMoveRefused | NotAllowed) -> dict[str, Any] | None:
        if isinstance(result, NotAllowed):
            if channel_id:  # who can, by name (the modal's inline error is plain text)
                await tell_later(services, channel_id, user_id, messages.refusal(result))
            return {"response_action": "errors", "errors": {"note": str(result)[:150]}}
        if isinstance(result, TruthMoveRefused):
            return {"response_action": "errors", "errors": {"note": str(result)[:150]}}
        if metadata.get("from_home"):
            services.background.spawn(publish_home(client, services, lookups, team_id, user_id), name="home")
        elif channel_id:
            note = messages.notice(
                f"`{result.incident_id}` is confirmed: it will be offered as a past outcome, with your name."
            )
            await tell_later(services, channel_id, user_id, note)
        return None

    await save_modal(ack, client, services.background, view, confirm(), saved)
