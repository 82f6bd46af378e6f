"""Channel jobs: each message recorded in its incident's timeline (an incident detected on the
way), and an incident detected when the bot joins a channel."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from bot.handlers.lookups import channel_info
from bot.handlers.work import JobPayload
from bot.handlers.work_recall import start_recall_thread
from bot.jobs import JobContext, job
from bot.models import IncidentStatus

# --- channel messages and channels ---------------------------------------------------------------


class ChannelMessage(JobPayload):
    team_id: str
    channel_id: str
    ts: str
    user: str | None = None
    text: str
    event_id: str | None = None
    change: Literal["said", "edited", "deleted"] = "said"


# Four at a time at most: a channel flooding long messages (each read for "is it over?") never
# takes the slots that recalls and investigations in other channels need.
@job("timeline.record", ChannelMessage, max_attempts=10, deadline_s=6 * 3600, concurrency_limit=4)
async def record_message(ctx: JobContext, message: ChannelMessage) -> None:
    """A message in an incident channel joins its timeline once (the event claim and the append
    share a transaction); a message in a channel named like an incident opens it. An edit
    replaces its words wherever they are stored; a deletion removes them (bot/memory/message_changes.py)."""
    services = ctx.services
    text = message.text[: services.settings.read_message_chars]  # what is stored is what is read, edits too
    if message.change == "deleted":
        await services.incidents.message_deleted(message.team_id, message.channel_id, message.ts)
        return
    if message.change == "edited":
        await services.incidents.message_edited(message.team_id, message.channel_id, message.ts, text)
        return
    incident = await services.incidents.latest_in(message.team_id, message.channel_id)
    if incident is None:
        detected = await services.incidents.detect(
            message.team_id, await ctx.lookups.recent_channel_info(ctx.client, message.channel_id)
        )
        if detected is not None:
            incident, _ = detected
            await start_recall_thread(services, incident)
    if incident is None:
        return
    at = datetime.fromtimestamp(float(message.ts), tz=UTC)
    author = await ctx.lookups.user_name(ctx.client, message.user) if message.user else "unknown"
    # a closed incident's channel still speaks: kept as a late note in its timeline, never dropped
    recorded = await services.incidents.record_message(
        message.team_id, message.channel_id, message.ts, author, text, at, event_id=message.event_id
    )
    if not recorded or incident.status is not IncidentStatus.OPEN:
        return
    if message.user:  # whoever speaks in the channel is in it: the first takes an undeclared incident
        incident = await services.resolution.access.take_declarer_rights(incident, message.user, in_channel=True)
    # "all clear", "resolved", "mitigated": ask once for what was learned (a repeat is not news)
    if await services.nudges.heard(incident, text):
        from bot.handlers.nudges import send_due_nudges  # nudges' jobs are declared beside their surface

        await send_due_nudges(ctx.client, services)


class ChannelRef(JobPayload):
    team_id: str
    channel_id: str


@job("incident.detect", ChannelRef, deadline_s=3600)
async def detect_incident(ctx: JobContext, ref: ChannelRef) -> None:
    """The bot joined a channel: if it is named like an incident, open it and recall."""
    detected = await ctx.services.incidents.detect(
        ref.team_id, await channel_info(ctx.client, ref.channel_id, lookups=ctx.lookups)
    )
    if detected is not None:
        await start_recall_thread(ctx.services, detected[0])


# --- answers to commands ------------------------------------------------------------------------
