"""The reject modal: an unconfirmed memory is rejected, with who and why (it will not be recalled)."""

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

    async def reject() -> MemoryRecord | TruthMoveRefused | NotAllowed:
        # from App Home there is no channel: a private memory is seen from its own channel when
        # the person is in it; otherwise it is not found
        seen_from = await services.review.seen_from(team_id, incident_id, channel_id, is_member)
        try:
            actor = await directory_of(context).actor(client, user_id)
            return await services.recall.reject(team_id, incident_id, actor, submission.reason, channel_id=seen_from)
        except (TruthMoveRefused, NotAllowed) as refused:
            return refused

    async def saved(result: MemoryRecord | TruthMoveRefused | NotAllowed) -> dict[str, Any] | None:
        if isinstance(result, NotAllowed):
            if channel_id:  # who can, by name (the modal's inline error is plain text)
                await tell_later(services, channel_id, user_id, messages.refusal(result))
            return {"response_action": "errors", "errors": {"reason": str(result)[:150]}}
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
