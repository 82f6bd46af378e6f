"""The one `message` listener (Bolt runs only the first that matches).

A message in an incident channel is CURRENT evidence. It is stored (as a durable job) before
Slack gets its 200, or Slack gets a 503 and sends it again (`store_event_first`); the job joins
it to the incident's timeline once, however often it arrives (the event claim and the append
share a transaction), and the first message in a channel named like an incident opens it.
"""

from __future__ import annotations

from typing import Any

from bot.handlers.work_channel import ChannelMessage, record_message
from bot.text_limits import MESSAGE_CHARS

# Subtypes that are people saying something; edits, joins, bot posts and deletions are not.
_SPOKEN = (None, "thread_broadcast", "file_share", "me_message")


def message_job(body: dict[str, Any], event: dict[str, Any], context: Any) -> tuple[ChannelMessage, str] | None:
    """The job that records this message (or its edit, or its deletion), with its dedupe key;
    None for what is not spoken."""
    if event.get("subtype") in ("message_changed", "message_deleted"):
        return _change_job(body, event, context)
    if event.get("subtype") not in _SPOKEN or event.get("bot_id") or not (event.get("text") or "").strip():
        return None
    message = ChannelMessage(
        team_id=context.team_id, channel_id=event["channel"], ts=event["ts"], user=event.get("user"),
        text=event["text"][:MESSAGE_CHARS], event_id=body.get("event_id"),
    )  # fmt: skip
    return message, record_message.dedupe(message.team_id, message.channel_id, message.ts)


async def on_message() -> None:
    """Never reached for a stored message: `store_event_first` answers Slack itself."""


def _change_job(body: dict[str, Any], event: dict[str, Any], context: Any) -> tuple[ChannelMessage, str] | None:
    """A deleted message leaves what the bot stored of it; an edited one is stored edited. Each
    edit is its own job (keyed by the edit's ts), so a later edit is never taken for a repeat."""
    channel = event.get("channel")
    if not isinstance(channel, str):
        return None
    if event["subtype"] == "message_deleted":
        ts = event.get("deleted_ts")
        text, change, key = "", "deleted", "deleted"
    else:
        edited = event.get("message") if isinstance(event.get("message"), dict) else {}
        if edited.get("bot_id") or edited.get("subtype") == "bot_message":
            return None  # the bot's own messages (a placeholder replaced) are not in any timeline
        ts, text = edited.get("ts"), (edited.get("text") or "")[:MESSAGE_CHARS]
        change = "edited" if text.strip() else "deleted"  # emptied: nothing of it is said any more
        key = f"edited:{(edited.get('edited') or {}).get('ts') or event.get('ts')}"
    if not isinstance(ts, str) or not ts:
        return None
    message = ChannelMessage(
        team_id=context.team_id, channel_id=channel, ts=ts, user=None, text=text, change=change,
        event_id=body.get("event_id"),
    )  # fmt: skip
    return message, record_message.dedupe(message.team_id, message.channel_id, message.ts, key)
