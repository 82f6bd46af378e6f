"""Buttons on a recalled memory: Helpful, Not relevant, Add correction, Confirm, Reject, Why this?
(Confirm and Reject also in App Home)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.errors import MemoryNotFound
from bot.handlers.action_open_form import open_form
from bot.handlers.context import services_of
from bot.handlers.home import from_home
from bot.handlers.work import JobPayload, enqueue_then_ack, tell_later
from bot.jobs import JobContext, job
from bot.models import FeedbackKind
from bot.slack import messages
from bot.slack.modals import confirm_modal, correction_modal, reject_modal, why_modal

_THANKS = {FeedbackKind.HELPFUL: "Noted as helpful", FeedbackKind.NOT_RELEVANT: "Noted as not relevant"}


def _memory_title(body: dict[str, Any], incident_id: str) -> str:
    # the button's own message says which memory it is; no database read before views.open
    return (body.get("message") or {}).get("text") or incident_id


async def on_helpful(ack: Any, action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    await _on_feedback(ack, action, client, context, FeedbackKind.HELPFUL)


async def on_not_relevant(ack: Any, action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    await _on_feedback(ack, action, client, context, FeedbackKind.NOT_RELEVANT)


async def open_correction_modal(
    ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await _open_modal(correction_modal, ack, body, action, client, context)


async def open_confirm_modal(
    ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await _open_modal(confirm_modal, ack, body, action, client, context)


async def open_reject_modal(
    ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await _open_modal(reject_modal, ack, body, action, client, context)


async def open_why_modal(ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient) -> None:
    """The numbers behind a recalled memory, carried in the button's value: no database read."""
    await ack()
    await client.views_open(trigger_id=body["trigger_id"], view=why_modal(action["value"]))


async def _open_modal(
    modal: Callable[..., dict[str, Any]], ack: Any, body: dict[str, Any], action: dict[str, Any],
    client: AsyncWebClient, context: AsyncBoltContext,
) -> None:  # fmt: skip
    """Open `modal(incident_id, memory_title, context=...)` for the button's memory, at once."""
    await ack()
    incident_id = action["value"]
    # from App Home there is no channel: the submission checks the person may see the memory
    where = {"from_home": True} if from_home(body) else {"channel_id": context.channel_id}
    view = modal(incident_id, _memory_title(body, incident_id), context=where)
    await open_form(
        client, services_of(context), body["trigger_id"], view, channel_id=context.channel_id, user_id=context.user_id
    )


async def _on_feedback(
    ack: Any, action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext, kind: FeedbackKind
) -> None:
    feedback = Feedback(
        team_id=context.team_id, channel_id=context.channel_id, user_id=context.user_id,
        incident_id=action["value"], kind=kind,
    )  # fmt: skip
    await enqueue_then_ack(ack, services_of(context), record_feedback, feedback)


class Feedback(JobPayload):
    team_id: str
    channel_id: str | None
    user_id: str
    incident_id: str
    kind: FeedbackKind


@job("memory.feedback", Feedback, max_attempts=8, deadline_s=3600)
async def record_feedback(ctx: JobContext, feedback: Feedback) -> None:
    try:
        await ctx.services.recall.feedback(
            feedback.team_id, feedback.incident_id, feedback.user_id, feedback.kind, channel_id=feedback.channel_id
        )
    except MemoryNotFound:  # gone, or a private channel's memory clicked elsewhere: not found either way
        note = messages.notice(f"No memory `{feedback.incident_id}` here.")
    else:
        note = messages.notice(f"{_THANKS[feedback.kind]}: `{feedback.incident_id}`. Recall will weigh it next time.")
    if feedback.channel_id:
        await tell_later(ctx.services, feedback.channel_id, feedback.user_id, note)
