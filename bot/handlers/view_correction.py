"""The correction modal: a correction attached to a memory, with its author; the memory's own
text is never rewritten."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.context import directory_of, services_of
from bot.handlers.modal_save import parse_submission, save_modal
from bot.handlers.work import tell_later
from bot.models import MemoryRecord
from bot.slack import messages
from bot.slack.modals import read_metadata
from bot.slack.submissions import CorrectionSubmission


async def on_correction(ack: Any, view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    submission = await parse_submission(ack, CorrectionSubmission, view)
    if submission is None:
        return
    services = services_of(context)
    team_id, user_id, channel_id = context.team_id, context.user_id, context.channel_id
    incident_id = read_metadata(view)["incident_id"]

    async def saved(memory: MemoryRecord) -> None:
        if channel_id:
            note = messages.notice(f"Correction added to `{memory.incident_id}`; it now has {len(memory.corrections)}.")
            await tell_later(services, channel_id, user_id, note)
        return None

    async def save() -> MemoryRecord:
        author = await directory_of(context).actor(client, user_id)
        return await services.resolution.add_correction(
            team_id, incident_id, author, submission.text, channel_id=channel_id
        )

    await save_modal(ack, client, services.background, view, save(), saved)
