"""The declare modal: opens the incident for the channel, then recalls in a thread."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.context import lookups_of, services_of
from bot.handlers.lookups import channel_info
from bot.handlers.modal_save import CannotSave, parse_submission, save_modal
from bot.handlers.work import tell_later
from bot.handlers.work_recall import start_recall_thread
from bot.models import IncidentRecord
from bot.slack import messages
from bot.slack.submissions import DeclareSubmission


async def on_declare(ack: Any, view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    submission = await parse_submission(ack, DeclareSubmission, view)
    if submission is None:
        return
    services = services_of(context)
    team_id, user_id, channel_id = context.team_id, context.user_id, context.channel_id

    async def declare() -> tuple[IncidentRecord, bool]:
        channel = await channel_info(client, channel_id, lookups=lookups_of(context))
        if not channel.is_member:  # it could not post the recall thread, nor read the channel
            raise CannotSave(f"I am not in #{channel.name} yet. Invite me with `/invite @incident-memory`")
        incident = submission.to_incident(channel=channel_id, team=team_id)
        declared, new = await services.incidents.declare(team_id, channel, incident, declared_by=user_id)
        if new or declared.recall_thread_ts is None:
            # in the same save: if it cannot be queued the modal stays open, and submitting again
            # finds the incident and queues its thread (posted once either way)
            await start_recall_thread(services, declared)
        return declared, new

    async def saved(result: tuple[IncidentRecord, bool]) -> None:
        incident, new = result
        if not new:
            note = messages.notice(
                f"This channel already has an open incident: `{incident.incident_id}` {incident.title}"
            )
            await tell_later(services, channel_id, user_id, note)
        return None

    await save_modal(ack, client, services.background, view, declare(), saved)
