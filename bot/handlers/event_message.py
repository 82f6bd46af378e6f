"""The one `message` listener (Bolt runs only the first that matches): dispatch inside it.

A message in an incident channel is CURRENT evidence: it joins the incident's timeline once,
however often Slack delivers it (the event claim and the append share a transaction). In a
channel named like an incident (`^inc-`) that never had one, the first message opens it.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.context import lookups_of, services_of
from bot.handlers.lookups import SlackLookups
from bot.handlers.errors import spawn
from bot.handlers.flows import post_recall_thread
from bot.handlers.nudges import send_due_nudges
from bot.models import IncidentStatus
from bot.services.container import Services

# Subtypes that are people saying something; edits, joins, bot posts and deletions are not.
_SPOKEN = (None, "thread_broadcast", "file_share", "me_message")


async def on_message(body: dict[str, Any], event: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    if event.get("subtype") not in _SPOKEN or event.get("bot_id") or not (event.get("text") or "").strip():
        return
    work = _record(client, services_of(context), lookups_of(context), context.team_id, body, event)
    spawn(context, work, name="timeline", tell=False)


async def _record(
    client: AsyncWebClient, services: Services, lookups: SlackLookups, team_id: str,
    body: dict[str, Any], event: dict[str, Any],
) -> None:  # fmt: skip
    channel_id = event["channel"]
    # one query: the channel's open incident if any, else its latest (a resolved channel stays quiet)
    latest = await services.incidents.latest_in(team_id, channel_id)
    incident = latest if latest is not None and latest.status is IncidentStatus.OPEN else None
    if latest is None:
        detected = await services.incidents.detect(team_id, await lookups.recent_channel_info(client, channel_id))
        if detected is not None:
            incident, new = detected
            if new:
                await post_recall_thread(client, services, incident)
    if incident is None:
        return
    at = datetime.fromtimestamp(float(event["ts"]), tz=timezone.utc)
    author = await lookups.user_name(client, event["user"]) if event.get("user") else "unknown"
    recorded = await services.incidents.record_message(
        team_id, channel_id, event["ts"], author, event["text"][:40_000], at,
        event_id=body.get("event_id"),
    )  # fmt: skip
    # "all clear", "resolved", "mitigated": ask once for what was learned (a repeat is not news)
    if recorded and await services.nudges.heard(incident, event["text"]):
        await send_due_nudges(client, services)
