"""The one `message` listener (Bolt runs only the first that matches): dispatch inside it.

A message in an incident channel is CURRENT evidence: it joins the incident's timeline once,
however often Slack delivers it (the event claim and the append share a transaction). In a
channel named like an incident (`^inc-`) that never had one, the first message opens it.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import Services
from bot.handlers.flows import post_recall_thread, recent_channel_info, user_name
from bot.models import IncidentStatus

# Subtypes that are people saying something; edits, joins, bot posts and deletions are not.
_SPOKEN = (None, "thread_broadcast", "file_share", "me_message")


def register(app: AsyncApp, services: Services) -> None:
    @app.event("message")
    async def on_message(body: dict[str, Any], event: dict[str, Any], client: AsyncWebClient) -> None:
        if event.get("subtype") not in _SPOKEN or event.get("bot_id") or not (event.get("text") or "").strip():
            return
        services.background.spawn(_record(client, services, body, event), name="timeline")


async def _record(client: AsyncWebClient, services: Services, body: dict[str, Any], event: dict[str, Any]) -> None:
    team_id = body.get("team_id") or event.get("team")
    channel_id = event["channel"]
    # one query: the channel's open incident if any, else its latest (a resolved channel stays quiet)
    latest = await services.incidents.latest_in(team_id, channel_id)
    incident = latest if latest is not None and latest.status is IncidentStatus.OPEN else None
    if latest is None:
        detected = await services.incidents.detect(team_id, await recent_channel_info(client, channel_id))
        if detected is not None:
            incident, new = detected
            if new:
                await post_recall_thread(client, services, incident)
    if incident is None:
        return
    at = datetime.fromtimestamp(float(event["ts"]), tz=timezone.utc)
    author = await user_name(client, event["user"]) if event.get("user") else "unknown"
    await services.incidents.record_message(
        team_id, channel_id, event["ts"], author, event["text"][:40_000], at,
        event_id=body.get("event_id"),
    )  # fmt: skip
