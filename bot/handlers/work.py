"""The work Slack requests start after their acknowledgement, as durable jobs.

A listener enqueues one of these (within Slack's ack budget) and acknowledges; a worker runs it
with retries. Each job is safe to run again: what it does in Slack is recorded once as an effect
(a thread is posted once, a placeholder replaced once), and when it cannot finish, its
`give_up` says so to the person who asked — never silence.

Here: what every job and listener shares (queueing before the ack, posting once). The jobs live
beside what they serve: `work_recall.py` (the recall thread, `/recall`, `/incident show`),
`work_channel.py` (the timeline, detecting incidents), `work_investigation.py`, `work_embed.py`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from pydantic import BaseModel, ConfigDict
from slack_bolt.response import BoltResponse
from slack_sdk.errors import SlackApiError

from bot.errors import MemoryError_
from bot.handlers.context import services_of
from bot.jobs import JobContext, JobKind, Permanent, job
from bot.slack import messages

log = logging.getLogger(__name__)

# Slack errors another attempt cannot fix: the job gives up and says so.
_PERMANENT_SLACK_ERRORS = {
    "channel_not_found", "not_in_channel", "is_archived", "invalid_blocks", "msg_too_long", "no_text",
    "invalid_auth", "account_inactive", "token_revoked", "missing_scope", "user_not_found", "message_not_found",
    "cant_update_message", "thread_not_found", "restricted_action",
}  # fmt: skip
# A response_url works for 30 minutes; after that an answer cannot reach the person.
RESPONSE_URL_LIFETIME_S = 29 * 60


class JobPayload(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def slack_failure(exc: SlackApiError) -> Exception:
    error = exc.response.get("error") if exc.response is not None else None
    return Permanent(f"Slack answered {error!r}") if error in _PERMANENT_SLACK_ERRORS else exc


# Each post names its effect in the message's metadata: an attempt that stalled past
# SLACK_TIMEOUT_S may have been posted by Slack all the same, and the next attempt finds it.
POSTED_EVENT = "incident_memory_post"


async def post_once(ctx: JobContext, key: str, channel: str, message: dict[str, Any], **kwargs: Any) -> str:
    """chat.postMessage, once per `key` however often the job runs; returns the message ts."""
    done = await ctx.services.effects.done(key)
    if done is None and ctx.attempt > 0:
        done = await _posted_before(ctx, key, channel, kwargs.get("thread_ts"))
        if done is not None:
            await ctx.services.effects.record(key, done)
    if done is not None:
        return done
    metadata = {"event_type": POSTED_EVENT, "event_payload": {"effect": key}}
    try:
        response = await ctx.client.chat_postMessage(channel=channel, metadata=metadata, **message, **kwargs)
    except SlackApiError as exc:
        raise slack_failure(exc) from exc
    await ctx.services.effects.record(key, response["ts"])
    return response["ts"]


async def _posted_before(ctx: JobContext, key: str, channel: str, thread_ts: str | None) -> str | None:
    """The ts of a message an earlier attempt posted for `key` without hearing back, if any:
    looked for among the thread's replies, or the channel's latest messages."""
    try:
        if thread_ts:
            page = await ctx.client.conversations_replies(
                channel=channel, ts=thread_ts, limit=200, include_all_metadata=True
            )
        else:
            page = await ctx.client.conversations_history(channel=channel, limit=50, include_all_metadata=True)
    except SlackApiError as exc:
        raise slack_failure(exc) from exc
    for message in page.get("messages") or []:
        metadata = message.get("metadata") or {}
        if metadata.get("event_type") == POSTED_EVENT and (metadata.get("event_payload") or {}).get("effect") == key:
            return message.get("ts")
    return None


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


class CommandRequest(JobPayload):
    team_id: str
    channel_id: str
    user_id: str
    text: str = ""
    response_url: str


async def tell_command_failed(ctx: JobContext, request: CommandRequest, exc: BaseException) -> None:
    note = messages.notice(f"I could not finish this: {failure_reason(exc)}. Nothing was lost; try again in a minute.")
    await respond_once(ctx, f"failed:{ctx.job_id}", request.response_url, note)


# --- small posts --------------------------------------------------------------------------------


class EphemeralNote(JobPayload):
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
        raise slack_failure(exc) from exc
    await ctx.services.effects.record(f"ephemeral:{ctx.job_id}")


class ChannelPost(JobPayload):
    channel_id: str
    message: dict[str, Any]
    key: str  # what makes it one post (e.g. the resolution of an incident)


@job("slack.post", ChannelPost, deadline_s=3600)
async def post_to_channel(ctx: JobContext, post: ChannelPost) -> None:
    await post_once(ctx, post.key, post.channel_id, post.message)


def failure_reason(exc: BaseException) -> str:
    if isinstance(exc, Permanent):
        return str(exc)
    if isinstance(exc, TimeoutError):
        return "it took too long"
    return "the memory database or Slack kept failing"


# --- starting work from a listener --------------------------------------------------------------

# Of Slack's 3 s, queueing the work may take this long; the rest is for the network.
ENQUEUE_BUDGET_S = 2.0


async def queued_in_time(
    services: Any, kind: JobKind[Any], payload: BaseModel, dedupe_key: str | None, *, refused: str, then: str
) -> bool | None:
    """Store the work before the ack, within ENQUEUE_BUDGET_S: True when queued, False when the
    same work (dedupe_key) is already queued or running, None (logged, counted) when not in time."""
    try:
        # wait_for, not asyncio.timeout as elsewhere: on the ack path asyncio.timeout measured 30-50 ms
        # worse at the burst's p99 (bench/load_fault.py, A/B); what wait_for may swallow here is a
        # cancellation, which at worst lets an ack finish
        return await asyncio.wait_for(
            services.jobs.enqueue(kind.name, payload, dedupe_key=dedupe_key), ENQUEUE_BUDGET_S
        )
    except (MemoryError_, TimeoutError) as exc:
        log.warning("could not queue %s in time (%s); %s", kind.name, exc, then)
        services.metrics.requests_refused.labels(reason=refused).inc()
        return None


NOT_STARTED = (
    "The memory database is not answering, so I could not start this. Nothing was changed; try again in a minute."
)


async def enqueue_then_ack(
    ack: Any, services: Any, kind: JobKind[Any], payload: BaseModel, *, dedupe_key: str | None = None, **ack_with: Any
) -> bool:
    """Queue the work, then acknowledge. When the database does not take it in time, the
    acknowledgement itself tells the person that nothing was started (never silence)."""
    if (
        await queued_in_time(
            services, kind, payload, dedupe_key, refused="work_not_queued", then="the person is told nothing started"
        )
        is None
    ):
        await ack(**messages.notice(NOT_STARTED))
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
        if (
            await queued_in_time(
                services, kind, payload, dedupe_key, refused="event_not_stored", then="Slack will send it again"
            )
            is None
        ):
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
