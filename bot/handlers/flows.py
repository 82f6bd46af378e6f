"""Steps several Slack surfaces share: posting a recall thread and running an investigation.

They run after the request was acknowledged (inside BackgroundWork). Reading channels and
people is bot/handlers/lookups.py; saving a modal is bot/handlers/modal_save.py.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.errors import MemoryError_
from bot.models import IncidentRecord, utcnow
from bot.services.container import Services
from bot.slack import messages
from bot.slack.investigation import investigation_message

log = logging.getLogger(__name__)


async def post(client: AsyncWebClient, channel: str, message: dict[str, Any], **kwargs: Any) -> str | None:
    """Post a rendered message; returns its ts, or None (logged) when Slack refuses it."""
    try:
        response = await client.chat_postMessage(channel=channel, **message, **kwargs)
        return response["ts"]
    except SlackApiError as exc:
        log.error("chat.postMessage to %s failed: %s", channel, exc.response.get("error"))
        return None


async def post_recall_thread(client: AsyncWebClient, services: Services, incident: IncidentRecord) -> str | None:
    """The parent message ("3 past incidents look like this one") and one reply per memory."""
    result = await services.recall.for_incident(incident)
    parent = messages.recall_parent(incident.title, result.matches, result.conflicts, incident_ref=incident.incident_id)
    thread_ts = await post(client, incident.channel, parent)
    if thread_ts is None:
        return None
    await services.incidents.remember_recall_thread(incident, thread_ts)
    now = utcnow()
    for match in result.matches:
        reply = messages.recall_reply(match, now, messages.conflicting_ids(match, result.conflicts))
        await post(client, incident.channel, reply, thread_ts=thread_ts)
    return thread_ts


async def run_investigation(client: AsyncWebClient, services: Services, incident: IncidentRecord) -> None:
    """"Investigating…" at once in the incident's thread, then the answer in its place."""
    thread_ts = incident.recall_thread_ts
    placeholder = messages.investigating_placeholder(incident.title)
    ts = await post(client, incident.channel, placeholder, **({"thread_ts": thread_ts} if thread_ts else {}))
    try:
        recalled = await services.recall.for_incident(incident)
        timeline = await services.incidents.timeline(incident)
        investigation = await services.investigation.investigate(incident, timeline, recalled.matches)
        answer = investigation_message(investigation, incident.title)
    except MemoryError_ as exc:
        log.error("investigation of %s failed: %s", incident.incident_id, exc)
        answer = messages.notice(f"The investigation could not read the memory bank ({exc}). Try `/investigate` again.")
    except Exception:  # noqa: BLE001 - the placeholder must never be left spinning
        log.exception("investigation of %s failed", incident.incident_id)
        answer = messages.notice("The investigation failed unexpectedly; the error is in the bot's logs. Try `/investigate` again.")
    if ts is None:
        await post(client, incident.channel, answer, **({"thread_ts": thread_ts} if thread_ts else {}))
        return
    try:
        await client.chat_update(channel=incident.channel, ts=ts, **answer)
    except SlackApiError as exc:
        log.error("chat.update of the investigation failed: %s", exc.response.get("error"))


