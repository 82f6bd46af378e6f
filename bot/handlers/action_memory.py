"""Buttons on a recalled memory: Helpful, Not relevant, Add correction, Reject."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from pydantic import BaseModel, ConfigDict

from bot.app import Services
from bot.handlers.action_open_form import open_form
from bot.handlers.work import enqueue_then_ack, tell_later
from bot.jobs import JobContext, job
from bot.memory.port import FeedbackKind
from bot.slack import ids, messages
from bot.slack.modals import correction_modal, reject_modal

_FEEDBACK = {ids.MEMORY_HELPFUL: FeedbackKind.HELPFUL, ids.MEMORY_NOT_RELEVANT: FeedbackKind.NOT_RELEVANT}
_THANKS = {FeedbackKind.HELPFUL: "Noted as helpful", FeedbackKind.NOT_RELEVANT: "Noted as not relevant"}


def _where(body: dict[str, Any]) -> tuple[str, str | None, str]:
    team_id = (body.get("team") or {}).get("id") or body.get("user", {}).get("team_id")
    channel_id = (body.get("channel") or {}).get("id")
    return team_id, channel_id, body["user"]["id"]


def _memory_title(body: dict[str, Any], incident_id: str) -> str:
    # the button's own message says which memory it is; no database read before views.open
    return (body.get("message") or {}).get("text") or incident_id


def register(app: AsyncApp, services: Services) -> None:
    for action_id, kind in _FEEDBACK.items():
        app.action(action_id)(_feedback_listener(services, kind))

    app.action(ids.MEMORY_ADD_CORRECTION)(_modal_opener(services, correction_modal))
    app.action(ids.MEMORY_REJECT)(_modal_opener(services, reject_modal))


def _modal_opener(services: Services, modal: Callable[..., dict[str, Any]]):  # noqa: ANN202 - a Bolt listener
    """A button that opens `modal(incident_id, memory_title, context=...)` for its memory, at once."""

    async def open_modal(ack: Any, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient) -> None:
        await ack()
        _, channel_id, user_id = _where(body)
        incident_id = action["value"]
        view = modal(incident_id, _memory_title(body, incident_id), context={"channel_id": channel_id})
        await open_form(client, services, body["trigger_id"], view, channel_id=channel_id, user_id=user_id)

    return open_modal


def _feedback_listener(services: Services, kind: FeedbackKind):  # noqa: ANN202 - a Bolt listener
    async def on_feedback(ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        team_id, channel_id, user_id = _where(body)
        feedback = Feedback(team_id=team_id, channel_id=channel_id, user_id=user_id, incident_id=action["value"], kind=kind)
        await enqueue_then_ack(ack, services, record_feedback, feedback)

    return on_feedback


class Feedback(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    team_id: str
    channel_id: str | None
    user_id: str
    incident_id: str
    kind: FeedbackKind


@job("memory.feedback", Feedback, max_attempts=8, deadline_s=3600)
async def record_feedback(ctx: JobContext, feedback: Feedback) -> None:
    await ctx.services.recall.feedback(feedback.team_id, feedback.incident_id, feedback.user_id, feedback.kind)
    if feedback.channel_id:
        note = messages.notice(f"{_THANKS[feedback.kind]}: `{feedback.incident_id}`. Recall will weigh it next time.")
        await tell_later(ctx.services, feedback.channel_id, feedback.user_id, note)
