"""The bot joined a channel: if it is named like an incident, open the incident and recall.

Queued before Slack gets its 200 (`store_event_first`), like a channel message.
"""

from __future__ import annotations

from typing import Any

from bot.handlers.work_channel import ChannelRef, detect_incident


def detect_job(body: dict[str, Any], event: dict[str, Any], context: Any) -> tuple[ChannelRef, str] | None:
    if event.get("user") != context.bot_user_id:
        return None  # a person joined: nothing to do
    ref = ChannelRef(team_id=context.team_id, channel_id=event["channel"])
    return ref, detect_incident.dedupe(ref.team_id, ref.channel_id)


async def on_member_joined() -> None:
    """Never reached for a join of the bot: `store_event_first` answers Slack itself."""
