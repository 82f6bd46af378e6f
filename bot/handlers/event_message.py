"""The one `message` listener (Bolt runs only the first that matches).

A message in an incident channel is CURRENT evidence. It is stored (as a durable job) before
Slack gets its 200, or Slack gets a 503 and sends it again; the job joins it to the incident's
timeline once, however often it arrives, and opens a channel named like an incident.
"""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp

from bot.app import Services
from bot.handlers.work import ChannelMessage, record_message, store_event_first

# Subtypes that are people saying something; edits, joins, bot posts and deletions are not.
_SPOKEN = (None, "thread_broadcast", "file_share", "me_message")


def _message_job(body: dict[str, Any], event: dict[str, Any], context: Any) -> tuple[ChannelMessage, str] | None:
    if event.get("subtype") not in _SPOKEN or event.get("bot_id") or not (event.get("text") or "").strip():
        return None
    message = ChannelMessage(
        team_id=body.get("team_id") or event.get("team"), channel_id=event["channel"], ts=event["ts"],
        user=event.get("user"), text=event["text"][:40_000], event_id=body.get("event_id"),
    )  # fmt: skip
    return message, record_message.dedupe(message.team_id, message.channel_id, message.ts)


def register(app: AsyncApp, services: Services) -> None:
    @app.event("message", middleware=[store_event_first(services, record_message, _message_job)])
    async def on_message() -> None:
        """Never reached: the middleware answers Slack itself once the message is stored."""
