"""The bot joined a channel: if it is named like an incident, open the incident and recall."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp

from bot.app import Services
from bot.handlers.work import ChannelRef, detect_incident, store_event_first


def _detect_job(body: dict[str, Any], event: dict[str, Any], context: Any) -> tuple[ChannelRef, str] | None:
    if event.get("user") != context.get("bot_user_id"):
        return None  # a person joined: nothing to do
    ref = ChannelRef(team_id=body.get("team_id") or event.get("team"), channel_id=event["channel"])
    return ref, detect_incident.dedupe(ref.team_id, ref.channel_id)


def register(app: AsyncApp, services: Services) -> None:
    @app.event("member_joined_channel", middleware=[store_event_first(services, detect_incident, _detect_job)])
    async def on_member_joined() -> None:
        """Never reached: the middleware answers Slack itself once the work is queued."""
