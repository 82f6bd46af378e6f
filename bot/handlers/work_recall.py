"""Recall jobs: the thread posted in an incident channel, and the answers to `/recall TEXT` and
`/incident show ID` (to the asker only)."""

from __future__ import annotations

import logging
from typing import Any

from bot.errors import MemoryNotFound
from bot.handlers.work import (
    RESPONSE_URL_LIFETIME_S,
    CommandRequest,
    JobPayload,
    post_once,
    respond_once,
    tell_command_failed,
)
from bot.jobs import JobContext, Permanent, job
from bot.models import IncidentRecord, utcnow
from bot.policy import private_by_id
from bot.slack import messages
from bot.slack.commands import in_use
from bot.slack.known_patterns import known_pattern_reply

log = logging.getLogger(__name__)

# --- the recall thread --------------------------------------------------------------------------


class IncidentRef(JobPayload):
    team_id: str
    incident_id: str


async def post_recall_thread(ctx: JobContext, incident: IncidentRecord, *, asked: bool = False) -> str | None:
    """The parent message ("3 past incidents look like this one"), one reply per approved rule
    that fires on the incident (a known pattern), then one per memory, each posted once: a rerun
    after a failure continues where the last one stopped. Nothing strong but a few memories close:
    the weak line naming them instead of the parent (the known patterns, if any, in its thread).
    With nothing at all and no known pattern: one line, or nothing if the team chose silence
    (RECALL_WHEN_NOTHING_FOUND) and nobody `asked` (/recall)."""
    services = ctx.services
    result = await services.recall.for_incident(incident)
    quiet = not result.matches and not result.known_patterns
    key = f"recall-thread:{incident.team}:{incident.incident_id}"
    if not result.matches and result.weak:  # nothing strong, a few close: one line, the responder decides
        line = await post_once(ctx, f"{key}:weak", incident.channel, messages.recall_weak(result.weak, utcnow()))
        if not result.known_patterns:
            return line
        thread_ts = line
    else:
        if quiet and not asked and services.settings.recall_when_nothing_found == "silent":
            return None
        parent = messages.recall_parent(
            incident.title, result.matches, result.conflicts, incident_ref=incident.incident_id,
            recurrence=result.recurrence,
        )  # fmt: skip
        thread_ts = await post_once(ctx, f"{key}:parent", incident.channel, parent)
    await services.incidents.remember_recall_thread(incident, thread_ts)
    for rule in result.known_patterns:  # reviewed knowledge first, then the memories
        reply = known_pattern_reply(rule)
        await post_once(ctx, f"{key}:pattern:{rule.id}", incident.channel, reply, thread_ts=thread_ts)
    now = utcnow()
    for match in result.matches:
        reply = messages.recall_reply(match, now, messages.conflicting_ids(match, result.conflicts))
        await post_once(ctx, f"{key}:{match.memory.incident_id}", incident.channel, reply, thread_ts=thread_ts)
    return thread_ts


@job("recall.thread", IncidentRef, deadline_s=3600)
async def recall_thread(ctx: JobContext, ref: IncidentRef) -> None:
    incident = await ctx.services.incidents.get(ref.team_id, ref.incident_id)
    if incident is None:
        raise Permanent(f"incident {ref.incident_id} is gone")
    await post_recall_thread(ctx, incident)


async def start_recall_thread(services: Any, incident: IncidentRecord) -> None:
    await services.jobs.enqueue(
        recall_thread.name, IncidentRef(team_id=incident.team, incident_id=incident.incident_id),
        dedupe_key=recall_thread.dedupe(incident.team, incident.incident_id),
    )  # fmt: skip


async def _is_private(ctx: JobContext, channel_id: str) -> bool:
    """Whether a channel is private; unknown counts as private (fail closed)."""
    if private_by_id(channel_id):
        return True
    try:
        return (await ctx.lookups.recent_channel_info(ctx.client, channel_id)).is_private
    except Exception:  # noqa: BLE001 - Slack did not say: its text stays in the workspace
        log.warning("the privacy of channel %s is unknown: its text is treated as private", channel_id)
        return True


async def _is_isolated(ctx: JobContext, channel_id: str) -> bool:
    """Whether a channel is kept to itself (Slack Connect, guests); unknown counts as isolated
    (fail closed: it is then shown only what was kept from it)."""
    if channel_id.startswith("D"):  # a DM with the bot: the asker alone reads it
        return False
    try:
        return (await ctx.lookups.recent_channel_info(ctx.client, channel_id)).is_isolated
    except Exception:  # noqa: BLE001
        log.warning("whether channel %s is shared outside is unknown: it is treated as isolated", channel_id)
        return True


@job("recall.answer", CommandRequest, give_up=tell_command_failed, deadline_s=RESPONSE_URL_LIFETIME_S)
async def answer_recall(ctx: JobContext, request: CommandRequest) -> None:
    """`/recall TEXT` answers only the asker; `/recall` alone posts the incident's thread."""
    services = ctx.services
    if not request.text:
        incident = await services.incidents.open_in(request.team_id, request.channel_id)
        if incident is None:
            note = messages.notice(
                f"No open incident here: give me some text, e.g. `{in_use().recall} checkout timeouts`."
            )
            await respond_once(ctx, f"recall:{ctx.job_id}", request.response_url, note)
            return
        await post_recall_thread(ctx, incident, asked=True)
        return
    private = await _is_private(ctx, request.channel_id) if services.recall.keeps_private_text else False
    result = await services.recall.for_text(
        request.team_id, request.channel_id, request.text, private_channel=private,
        isolated_channel=await _is_isolated(ctx, request.channel_id),
    )  # fmt: skip
    if not result.matches and result.weak:
        weak = messages.recall_weak(result.weak, utcnow())
        await respond_once(ctx, f"recall:{ctx.job_id}:weak", request.response_url, weak)
        return
    await respond_once(ctx, f"recall:{ctx.job_id}:parent", request.response_url,
                       messages.recall_parent(request.text, result.matches, result.conflicts))  # fmt: skip
    now = utcnow()
    for match in result.matches:
        reply = messages.recall_reply(match, now, messages.conflicting_ids(match, result.conflicts))
        await respond_once(ctx, f"recall:{ctx.job_id}:{match.memory.incident_id}", request.response_url, reply)


@job("incident.show", CommandRequest, give_up=tell_command_failed, deadline_s=RESPONSE_URL_LIFETIME_S)
async def show_memory(ctx: JobContext, request: CommandRequest) -> None:
    try:
        memory = await ctx.services.recall.memory(
            request.team_id, request.text, channel_id=request.channel_id,
            channel_isolated=await _is_isolated(ctx, request.channel_id),
        )  # fmt: skip
    except MemoryNotFound:  # a private channel's memory, asked for elsewhere, is not found either
        answer = messages.notice(f"No memory `{request.text}` here.")
    else:
        answer = messages.memory_detail(memory)
    await respond_once(ctx, f"show:{ctx.job_id}", request.response_url, answer)
