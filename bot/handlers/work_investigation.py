"""The investigation job: a placeholder in the channel, replaced by the answer, or by why there is
none — also when the job gives up."""

from __future__ import annotations

from typing import Any

from slack_sdk.errors import SlackApiError

from bot.handlers.work import JobPayload, failure_reason, post_once, respond_once, slack_failure
from bot.jobs import JobContext, job
from bot.models import IncidentRecord
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


async def _placeholder(ctx: JobContext, incident: IncidentRecord) -> str:
    thread = {"thread_ts": incident.recall_thread_ts} if incident.recall_thread_ts else {}
    return await post_once(ctx, f"investigation:{ctx.job_id}:placeholder", incident.channel,
                           messages.investigating_placeholder(incident.title), **thread)  # fmt: skip


async def _replace(ctx: JobContext, channel: str, ts: str, message: dict[str, Any]) -> None:
    try:
        await ctx.client.chat_update(channel=channel, ts=ts, **message)
    except SlackApiError as exc:
        raise slack_failure(exc) from exc


async def _incident_for(ctx: JobContext, request: InvestigationRequest) -> IncidentRecord | None:
    incidents = ctx.services.incidents
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
    incident = await _incident_for(ctx, request)
    if incident is None:
        note = messages.notice(
            f"No incident in this channel to investigate. Declare one with `{in_use().incident} declare`."
        )
        if request.response_url:
            await respond_once(ctx, f"investigation:{ctx.job_id}:none", request.response_url, note)
        return
    placeholder = await _placeholder(ctx, incident)
    recalled = await services.recall.for_incident(incident)
    timeline = await services.incidents.timeline(incident)
    investigation = await services.investigation.investigate(
        incident, timeline, recalled.matches, recalled.known_patterns
    )
    await _replace(ctx, incident.channel, placeholder, investigation_message(investigation, incident.title))
