"""The declare modal: opens the incident for the channel, then recalls in a thread."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import Services
from bot.handlers.flows import CannotSave, channel_info, parse_submission, post_recall_thread, save_modal
from bot.models import IncidentRecord
from bot.slack import ids, messages
from bot.slack.modals import read_metadata
from bot.slack.submissions import DeclareSubmission


def register(app: AsyncApp, services: Services) -> None:
    @app.view(ids.DECLARE_MODAL)
    async def on_declare(ack: Any, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient) -> None:
        submission = await parse_submission(ack, DeclareSubmission, view)
        if submission is None:
            return
        team_id, user_id = body["team"]["id"], body["user"]["id"]
        channel_id = read_metadata(view)["channel_id"]

        async def declare() -> tuple[IncidentRecord, bool]:
            channel = await channel_info(client, channel_id)
            if not channel.is_member:  # it could not post the recall thread, nor read the channel
                raise CannotSave(f"I am not in #{channel.name} yet. Invite me with `/invite @incident-memory`")
            incident = submission.to_incident(channel=channel_id, team=team_id)
            return await services.incidents.declare(team_id, channel, incident, declared_by=user_id)

        async def saved(result: tuple[IncidentRecord, bool]) -> None:
            incident, new = result
            if new:
                services.background.spawn(post_recall_thread(client, services, incident), name="recall-thread")
            else:
                note = messages.notice(f"This channel already has an open incident: `{incident.incident_id}` {incident.title}")
                services.background.spawn(client.chat_postEphemeral(channel=channel_id, user=user_id, **note), name="notice")
            return None

        await save_modal(ack, client, services, view, declare(), saved)
