"""The correction modal: a correction attached to a memory, with its author; the memory's own
text is never rewritten."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import Services
from bot.handlers.flows import parse_submission, save_modal
from bot.models import MemoryRecord
from bot.slack import ids, messages
from bot.slack.modals import read_metadata
from bot.slack.submissions import CorrectionSubmission


def register(app: AsyncApp, services: Services) -> None:
    @app.view(ids.CORRECTION_MODAL)
    async def on_correction(ack: Any, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient) -> None:
        submission = await parse_submission(ack, CorrectionSubmission, view)
        if submission is None:
            return
        team_id, user_id = body["team"]["id"], body["user"]["id"]
        context = read_metadata(view)

        async def saved(memory: MemoryRecord) -> None:
            if context.get("channel_id"):
                note = messages.notice(f"Correction added to `{memory.incident_id}`; it now has {len(memory.corrections)}.")
                services.background.spawn(
                    client.chat_postEphemeral(channel=context["channel_id"], user=user_id, **note), name="notice"
                )
            return None

        async def save() -> MemoryRecord:
            author = await services.people.actor(user_id)
            return await services.resolution.add_correction(
                team_id, context["incident_id"], author, submission.text, channel_id=context.get("channel_id")
            )

        await save_modal(ack, client, services, view, save(), saved)
