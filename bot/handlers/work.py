"""The work Slack requests start after their acknowledgement, as durable jobs.

A listener enqueues one of these (within Slack's ack budget) and acknowledges; a worker runs it
with retries. Each job is safe to run again: what it does in Slack is recorded once as an effect
(a thread is posted once, a placeholder replaced once), and when it cannot finish, its
`give_up` says so to the person who asked — never silence.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict
from slack_bolt.response import BoltResponse
from slack_sdk.errors import SlackApiError

from bot.errors import MemoryError_, MemoryNotFound
from bot.handlers.context import services_of
from bot.handlers.lookups import channel_info
from bot.jobs import JobContext, JobKind, Permanent, job
from bot.models import IncidentRecord, IncidentStatus, utcnow
from bot.slack import messages
from bot.slack.commands import in_use
from bot.slack.investigation import investigation_message
from bot.slack.known_patterns import known_pattern_reply

log = logging.getLogger(__name__)

# Slack errors another attempt cannot fix: the job gives up and says so.
_PERMANENT_SLACK_ERRORS = {
    "channel_not_found", "not_in_channel", "is_archived", "invalid_blocks", "msg_too_long", "no_text",
    "invalid_auth", "account_inactive", "token_revoked", "missing_scope", "user_not_found", "message_not_found",
    "cant_update_message", "thread_not_found", "restricted_action",
}  # fmt: skip
# A response_url works for 30 minutes; after that an answer cannot reach the person.
RESPONSE_URL_LIFETIME_S = 29 * 60


class _Payload(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _slack_failure(exc: SlackApiError) -> Exception:
    error = exc.response.get("error") if exc.response is not None else None
    return Permanent(f"Slack answered {error!r}") if error in _PERMANENT_SLACK_ERRORS else exc


async def post_once(ctx: JobContext, key: str, channel: str, message: dict[str, Any], **kwargs: Any) -> str:
    """chat.postMessage, once per `key` however often the job runs; returns the message ts."""
    done = await ctx.services.effects.done(key)
    if done is not None:
        return done
    try:
        response = await ctx.client.chat_postMessage(channel=channel, **message, **kwargs)
    except SlackApiError as exc:
        raise _slack_failure(exc) from exc
    await ctx.services.effects.record(key, response["ts"])
    return response["ts"]


async def respond_once(ctx: JobContext, key: str, response_url: str, message: dict[str, Any]) -> None:
    """An answer through a command's response_url (only the asker sees it), once per `key`."""
    if await ctx.services.effects.done(key) is not None:
        return
    response = await ctx.webhook(response_url).send_dict({"response_type": "ephemeral", **message})
    if response.status_code >= 500:
        raise ConnectionError(f"response_url answered {response.status_code}")
    if response.status_code >= 400:
        raise Permanent(f"response_url answered {response.status_code}: {response.body[:100]}")
    await ctx.services.effects.record(key)


# --- the recall thread --------------------------------------------------------------------------


class IncidentRef(_Payload):
    team_id: str
    incident_id: str


async def post_recall_thread(ctx: JobContext, incident: IncidentRecord, *, asked: bool = False) -> str | None:
    """The parent message ("3 past incidents look like this one"), one reply per approved rule
    that fires on the incident (a known pattern), then one per memory, each posted once: a rerun
    after a failure continues where the last one stopped. With nothing above the relevance floor
    and no known pattern: one line, or nothing if the team chose silence
    (RECALL_WHEN_NOTHING_FOUND) and nobody `asked` (/recall)."""
    services = ctx.services
    result = await services.recall.for_incident(incident)
    quiet = not result.matches and not result.known_patterns
    if quiet and not asked and services.settings.recall_when_nothing_found == "silent":
        return None
    key = f"recall-thread:{incident.team}:{incident.incident_id}"
    parent = messages.recall_parent(incident.title, result.matches, result.conflicts, incident_ref=incident.incident_id)
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


# --- channel messages and channels ---------------------------------------------------------------


class ChannelMessage(_Payload):
    team_id: str
    channel_id: str
    ts: str
    user: str | None = None
    text: str
    event_id: str | None = None


@job("timeline.record", ChannelMessage, max_attempts=10, deadline_s=6 * 3600)
async def record_message(ctx: JobContext, message: ChannelMessage) -> None:
    """A message in an incident channel joins its timeline once (the event claim and the append
    share a transaction); a message in a channel named like an incident opens it."""
    services = ctx.services
    latest = await services.incidents.latest_in(message.team_id, message.channel_id)
    incident = latest if latest is not None and latest.status is IncidentStatus.OPEN else None
    if latest is None:
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
    recorded = await services.incidents.record_message(
        message.team_id, message.channel_id, message.ts, author, message.text[:40_000], at, event_id=message.event_id
    )
    # "all clear", "resolved", "mitigated": ask once for what was learned (a repeat is not news)
    if recorded and await services.nudges.heard(incident, message.text):
        from bot.handlers.nudges import send_due_nudges  # nudges' jobs are declared beside their surface

        await send_due_nudges(ctx.client, services)


class ChannelRef(_Payload):
    team_id: str
    channel_id: str


@job("incident.detect", ChannelRef, deadline_s=3600)
async def detect_incident(ctx: JobContext, ref: ChannelRef) -> None:
    """The bot joined a channel: if it is named like an incident, open it and recall."""
    detected = await ctx.services.incidents.detect(ref.team_id, await channel_info(ctx.client, ref.channel_id))
    if detected is not None:
        await start_recall_thread(ctx.services, detected[0])


# --- answers to commands ------------------------------------------------------------------------


class CommandRequest(_Payload):
    team_id: str
    channel_id: str
    user_id: str
    text: str = ""
    response_url: str


async def tell_command_failed(ctx: JobContext, request: CommandRequest, exc: BaseException) -> None:
    note = messages.notice(f"I could not finish this: {_reason(exc)}. Nothing was lost; try again in a minute.")
    await respond_once(ctx, f"failed:{ctx.job_id}", request.response_url, note)


async def _is_private(ctx: JobContext, channel_id: str) -> bool:
    """Whether a channel is private; unknown counts as private (fail closed)."""
    if channel_id.startswith(("D", "G")):  # DMs and group DMs are private by construction
        return True
    try:
        return (await ctx.lookups.recent_channel_info(ctx.client, channel_id)).is_private
    except Exception:  # noqa: BLE001 - Slack did not say: its text stays in the workspace
        log.warning("the privacy of channel %s is unknown: its text is treated as private", channel_id)
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
    result = await services.recall.for_text(request.team_id, request.channel_id, request.text, private_channel=private)
    await respond_once(ctx, f"recall:{ctx.job_id}:parent", request.response_url,
                       messages.recall_parent(request.text, result.matches, result.conflicts))  # fmt: skip
    now = utcnow()
    for match in result.matches:
        reply = messages.recall_reply(match, now, messages.conflicting_ids(match, result.conflicts))
        await respond_once(ctx, f"recall:{ctx.job_id}:{match.memory.incident_id}", request.response_url, reply)


@job("incident.show", CommandRequest, give_up=tell_command_failed, deadline_s=RESPONSE_URL_LIFETIME_S)
async def show_memory(ctx: JobContext, request: CommandRequest) -> None:
    try:
        memory = await ctx.services.recall.memory(request.team_id, request.text, channel_id=request.channel_id)
    except MemoryNotFound:  # a private channel's memory, asked for elsewhere, is not found either
        answer = messages.notice(f"No memory `{request.text}` here.")
    else:
        answer = messages.memory_detail(memory)
    await respond_once(ctx, f"show:{ctx.job_id}", request.response_url, answer)


# --- investigations -----------------------------------------------------------------------------


class InvestigationRequest(_Payload):
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
        raise _slack_failure(exc) from exc


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
    note = messages.notice(f"The investigation could not finish: {_reason(exc)}. Try `{in_use().investigate}` again.")
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


# --- small posts --------------------------------------------------------------------------------


class EphemeralNote(_Payload):
    channel_id: str
    user_id: str
    message: dict[str, Any]


@job("slack.ephemeral", EphemeralNote, max_attempts=4, deadline_s=600)
async def post_ephemeral(ctx: JobContext, note: EphemeralNote) -> None:
    if await ctx.services.effects.done(f"ephemeral:{ctx.job_id}") is not None:
        return
    try:
        await ctx.client.chat_postEphemeral(channel=note.channel_id, user=note.user_id, **note.message)
    except SlackApiError as exc:
        raise _slack_failure(exc) from exc
    await ctx.services.effects.record(f"ephemeral:{ctx.job_id}")


class ChannelPost(_Payload):
    channel_id: str
    message: dict[str, Any]
    key: str  # what makes it one post (e.g. the resolution of an incident)


@job("slack.post", ChannelPost, deadline_s=3600)
async def post_to_channel(ctx: JobContext, post: ChannelPost) -> None:
    await post_once(ctx, post.key, post.channel_id, post.message)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, Permanent):
        return str(exc)
    if isinstance(exc, TimeoutError):
        return "it took too long"
    return "the memory database or Slack kept failing"


# --- starting work from a listener --------------------------------------------------------------

# Of Slack's 3 s, queueing the work may take this long; the rest is for the network.
ENQUEUE_BUDGET_S = 2.0


async def enqueue_then_ack(
    ack: Any, services: Any, kind: JobKind[Any], payload: BaseModel, *, dedupe_key: str | None = None, **ack_with: Any
) -> bool:
    """Queue the work, then acknowledge. When the database does not take it in time, the
    acknowledgement itself tells the person that nothing was started (never silence)."""
    try:
        # wait_for, not asyncio.timeout as elsewhere: on the ack path asyncio.timeout measured 30-50 ms
        # worse at the burst's p99 (bench/load_fault.py, A/B); what wait_for may swallow here is a
        # cancellation, which at worst lets an ack finish
        await asyncio.wait_for(services.jobs.enqueue(kind.name, payload, dedupe_key=dedupe_key), ENQUEUE_BUDGET_S)
    except (MemoryError_, TimeoutError) as exc:
        log.warning("could not queue %s: %s", kind.name, exc)
        services.metrics.requests_refused.labels(reason="work_not_queued").inc()
        await ack(**messages.notice(
            "The memory database is not answering, so I could not start this. Nothing was changed; "
            "try again in a minute."
        ))  # fmt: skip
        return False
    await ack(**ack_with)
    return True


def store_event_first(
    kind: JobKind[Any],
    job_for: Any,  # (body, event, context) -> (payload, dedupe_key) | None
) -> Any:
    """Listener middleware for events: Bolt acknowledges events before their listener runs, so
    the work is queued here, before Slack gets its 200. When the database does not take it in
    time, Slack gets a 503 and delivers the event again later (at once, after 1 and 5 minutes)."""

    async def store_first(body: dict[str, Any], event: dict[str, Any], context: Any) -> BoltResponse:
        services = services_of(context)
        work = job_for(body, event, context)
        if work is None:
            return BoltResponse(status=200, body="")
        payload, dedupe_key = work
        try:
            await asyncio.wait_for(services.jobs.enqueue(kind.name, payload, dedupe_key=dedupe_key), ENQUEUE_BUDGET_S)
        except (MemoryError_, TimeoutError) as exc:
            log.warning("could not store a %s event in time (%s); Slack will send it again", event.get("type"), exc)
            services.metrics.requests_refused.labels(reason="event_not_stored").inc()
            return BoltResponse(status=503, body="")
        return BoltResponse(status=200, body="")

    return store_first


async def tell_later(services: Any, channel_id: str, user_id: str, message: dict[str, Any]) -> None:
    """An ephemeral note after a save that succeeded: queued; if even that fails, logged (the
    save itself stands, and the modal already said so)."""
    try:
        await services.jobs.enqueue(
            post_ephemeral.name, EphemeralNote(channel_id=channel_id, user_id=user_id, message=message)
        )
    except MemoryError_ as exc:
        log.warning("a note to %s could not be queued: %s", user_id, exc)


async def post_later(services: Any, channel_id: str, message: dict[str, Any], *, key: str) -> None:
    """A channel message after a save that succeeded, posted once per `key` (see tell_later)."""
    try:
        await services.jobs.enqueue(
            post_to_channel.name, ChannelPost(channel_id=channel_id, message=message, key=key), dedupe_key=f"post:{key}"
        )
    except MemoryError_ as exc:
        log.warning("a post to %s could not be queued: %s", channel_id, exc)
