"""The reject modal: an unconfirmed memory is rejected, with who and why (it will not be recalled)."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import Services
from bot.handlers.flows import parse_submission, save_modal
from bot.memory.errors import TruthMoveRefused
from bot.models import MemoryRecord
from bot.policy import NotAllowed
from bot.slack import ids, messages
from bot.slack.modals import read_metadata
from bot.slack.submissions import RejectSubmission


def register(app: AsyncApp, services: Services) -> None:
    @app.view(ids.REJECT_MODAL)
    async def on_reject(ack: Any, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient) -> None:
        submission = await parse_submission(ack, RejectSubmission, view)
        if submission is None:
            return
        team_id, user_id = body["team"]["id"], body["user"]["id"]
        context = read_metadata(view)

        async def reject() -> MemoryRecord | TruthMoveRefused | NotAllowed:
            try:
                actor = await services.people.actor(user_id)
                return await services.recall.reject(
                    team_id, context["incident_id"], actor, submission.reason, channel_id=context.get("channel_id")
                )
            except (TruthMoveRefused, NotAllowed) as refused:
                return refused

        async def saved(result: MemoryRecord | TruthMoveRefused | NotAllowed) -> dict[str, Any] | None:
            if isinstance(result, NotAllowed):
                if context.get("channel_id"):  # who can, by name (the modal's error is plain text)
                    services.background.spawn(
                        client.chat_postEphemeral(channel=context["channel_id"], user=user_id, **messages.refusal(result)),
                        name="notice",
                    )
                return {"response_action": "errors", "errors": {"reason": str(result)[:150]}}
            if isinstance(result, TruthMoveRefused):
                return {"response_action": "errors", "errors": {"reason": str(result)[:150]}}
            if context.get("channel_id"):
                note = messages.notice(f"`{result.incident_id}` is rejected: it will not be recalled again.")
                services.background.spawn(
                    client.chat_postEphemeral(channel=context["channel_id"], user=user_id, **note), name="notice"
                )
            return None

        await save_modal(ack, client, services, view, reject(), saved)
