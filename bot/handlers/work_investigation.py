"""The investigation job: a placeholder in the channel, replaced by the answer, or by why there is
none — also when the job gives up."""

from __future__ import annotations

import asyncio
from typing import Any

from slack_sdk.errors import SlackApiError

from bot.errors import MemoryError_
from bot.handlers.work import (
    ENQUEUE_BUDGET_S,
    NOT_STARTED,
    JobPayload,
    failure_reason,
    post_once,
    queued_in_time,
    respond_once,
    slack_failure,
)
from bot.handlers.work_channel import record_message
from bot.jobs import JobContext, job
from bot.models import IncidentRecord
from bot.services.limits import INVESTIGATION
from bot.slack import messages
from bot.slack.commands import in_use
from bot.slack.investigation import investigation_message

# --- investigations -----------------------------------------------------------------------------


class InvestigationRequest(JobPayload):
    team_id: str
    channel_id: str
    user_id: str
    incident_id: str | None = None
    response_url: str | None = None


# A message posted a second before /investigate joins the timeline through a job of its own, which
# can still be running when the investigation starts: the answer waits for it (this long at most, so a
# channel that never stops talking delays it only this much), or it would not read what was just said.
RECORDING_WAIT_S = 5.0


async def _after_messages_recorded(ctx: JobContext, incident: IncidentRecord) -> None:
    prefix = record_message.dedupe(incident.team, incident.channel) + ":"
    deadline = asyncio.get_running_loop().time() + RECORDING_WAIT_S
    while await ctx.services.jobs.waiting_under(prefix) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.1)


async def _placeholder(ctx: JobContext, incident: IncidentRecord) -> str:
    thread = {"thread_ts": incident.recall_thread_ts} if incident.recall_thread_ts else {}
    return await post_once(ctx, f"investigation:{ctx.job_id}:placeholder", incident.channel,
                           messages.investigating_placeholder(incident.title), **thread)  # fmt: skip


async def _replace(ctx: JobContext, channel: str, ts: str, message: dict[str, Any]) -> None:
    try:
        await ctx.client.chat_update(channel=channel, ts=ts, **message)
    except SlackApiError as exc:
        raise slack_failure(exc) from exc


async def _incident_for(services: Any, request: InvestigationRequest) -> IncidentRecord | None:
    incidents = services.incidents
    # a button names its incident; a private channel's is acted on only from that channel
    incident = (
        await incidents.get_from(request.team_id, request.incident_id, request.channel_id)
        if request.incident_id
        else None
    )
    return incident or await incidents.latest_in(request.team_id, request.channel_id)


async def tell_investigation_failed(ctx: JobContext, request: InvestigationRequest, exc: BaseException) -> None:
    """The placeholder never keeps spinning: it becomes the reason the investigation stopped."""
    note = messages.notice(
        f"The investigation could not finish: {failure_reason(exc)}. Try `{in_use().investigate}` again."
    )
    placeholder = await ctx.services.effects.done(f"investigation:{ctx.job_id}:placeholder")
    if placeholder:
        await ctx.client.chat_update(channel=request.channel_id, ts=placeholder, **note)
    elif request.response_url:
        await respond_once(ctx, f"failed:{ctx.job_id}", request.response_url, note)
    else:
        await ctx.client.chat_postEphemeral(channel=request.channel_id, user=request.user_id, **note)


@job("investigation.run", InvestigationRequest, give_up=tell_investigation_failed, deadline_s=1800)
async def run_investigation(ctx: JobContext, request: InvestigationRequest) -> None:
    """ "Investigating…" at once in the incident's thread, then the answer in its place."""
    services = ctx.services
    incident = await _incident_for(ctx.services, request)
    if incident is None:
        note = messages.notice(
            f"No incident in this channel to investigate. Declare one with `{in_use().incident} declare`."
        )
        if request.response_url:
            await respond_once(ctx, f"investigation:{ctx.job_id}:none", request.response_url, note)
        return
    placeholder = await _placeholder(ctx, incident)
    recalled = await services.recall.for_incident(incident)
    await _after_messages_recorded(ctx, incident)
    timeline = await services.incidents.timeline(incident)
    investigation = await services.investigation.investigate(
        incident, timeline, recalled.matches, recalled.known_patterns
    )
    left_out = await services.incidents.unread(incident, len(timeline))
    if left_out:
        investigation = investigation.model_copy(update={"left_out": left_out})
    await _replace(ctx, incident.channel, placeholder, investigation_message(investigation, incident.title))


# --- starting one ---------------------------------------------------------------------------------


async def start_investigation(ack: Any, services: Any, request: InvestigationRequest) -> None:
    """`/investigate` and the Investigate button: one investigation per incident at a time (asking
    while one is queued or running joins it, and says so, at no cost), within the hourly limits
    (INVESTIGATIONS_PER_PERSON_PER_HOUR, …_PER_CHANNEL_…: a refusal says when they can again)."""
    try:
        async with asyncio.timeout(ENQUEUE_BUDGET_S / 2):
            incident = await _incident_for(services, request)
            key = run_investigation.dedupe(request.team_id, incident.incident_id) if incident else None
            if key is not None and await services.jobs.waiting(key):
                await ack(**messages.notice(JOINED))
                return
            ticket = (
                await services.limits.admit(INVESTIGATION, request.team_id, request.user_id, incident.channel)
                if incident
                else None
            )
    except (MemoryError_, TimeoutError):
        await ack(**messages.notice(NOT_STARTED))
        return
    if ticket is not None and ticket.refusal:
        await ack(**messages.notice(ticket.refusal))
        return
    if incident is not None:
        request = request.model_copy(update={"incident_id": incident.incident_id})
    queued = await queued_in_time(
        services, run_investigation, request, key, refused="work_not_queued", then="the person is told nothing started"
    )
    if queued is None:
        await ack(**messages.notice(NOT_STARTED))
    elif queued is False:  # another request got in first, a moment ago
        if ticket is not None:
            await services.limits.refund(ticket)
        await ack(**messages.notice(JOINED))
    else:
        await ack()


JOINED = (
    "An investigation of this incident is already under way: its answer will appear in the incident's thread. "
    "Asking again joins it; nothing new was started."
)
