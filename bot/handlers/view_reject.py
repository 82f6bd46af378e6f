"""The reject modal: an unconfirmed memory is rejected, with who and why (it will not be recalled)."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.errors import TruthMoveRefused
from bot.handlers.context import lookups_of, services_of
from bot.handlers.home import publish_home
from bot.handlers.work import tell_later
from bot.handlers.modal_save import parse_submission, save_modal
from bot.models import MemoryRecord
from bot.slack import messages
from bot.slack.modals import read_metadata
from bot.slack.submissions import RejectSubmission


async def on_reject(ack: Any, view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    submission = await parse_submission(ack, RejectSubmission, view)
    if submission is None:
        return
    services = services_of(context)
    team_id, user_id, channel_id = context.team_id, context.user_id, context.channel_id
    incident_id = read_metadata(view)["incident_id"]

    async def is_member(channel: str) -> bool:
        return await lookups_of(context).is_member(client, channel, user_id)

    async def reject() -> MemoryRecord | TruthMoveRefused:
        # a memory the person may not see is "not found", from a card or from App Home
        await services.review.memory_for(team_id, incident_id, channel_id, is_member)
        try:
            actor = await lookups_of(context).user_name(client, user_id)
            return await services.recall.reject(team_id, incident_id, actor, submission.reason)
        except TruthMoveRefused as refused:
            return refused

    async def saved(result: MemoryRecord | TruthMoveRefused) -> dict[str, Any] | None:
        if isinstance(result, TruthMoveRefused):
            return {"response_action": "errors", "errors": {"reason": str(result)[:150]}}
        if read_metadata(view).get("from_home"):
            work = publish_home(client, services, lookups_of(context), team_id, user_id)
            services.background.spawn(work, name="home")
        elif channel_id:
            note = messages.notice(f"`{result.incident_id}` is rejected: it will not be recalled again.")
            await tell_later(services, channel_id, user_id, note)
        return None

    await save_modal(ack, client, services.background, view, reject(), saved)
