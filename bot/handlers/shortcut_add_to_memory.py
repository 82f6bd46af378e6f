""" "Add to incident memory", a message shortcut: mark any channel message as a failed attempt
(asking why), the fix or the root cause, for the draft of the channel's incident."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.drafting.models import Mark, MarkKind
from bot.handlers.action_open_form import open_form
from bot.handlers.context import lookups_of, services_of
from bot.handlers.modal_save import CannotSave, parse_submission, save_modal
from bot.handlers.work import tell_later
from bot.models import IncidentRecord
from bot.slack import messages
from bot.slack.modals import mark_modal, read_metadata
from bot.slack.submissions import MarkSubmission

_AS = {MarkKind.FAILED_ATTEMPT: "a failed attempt", MarkKind.FIX: "the fix", MarkKind.ROOT_CAUSE: "the root cause"}


async def on_add_to_memory(
    ack: Any, shortcut: dict[str, Any], client: AsyncWebClient, respond: Any, context: AsyncBoltContext
) -> None:
    await ack()
    message = shortcut.get("message") or {}
    text = (message.get("text") or "").strip()
    if not text:
        await respond(**messages.notice("That message has no text to add."), response_type="ephemeral")
        return
    modal_context = {
        "channel_id": shortcut["channel"]["id"],
        "message_ts": message.get("ts") or shortcut.get("message_ts"),
        "author": message.get("user") or message.get("username") or "unknown",
    }
    view = mark_modal(text, context=modal_context)
    await open_form(
        client,
        services_of(context),
        shortcut["trigger_id"],
        view,
        channel_id=modal_context["channel_id"],
        user_id=context.user_id,
    )


async def on_mark(ack: Any, view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    submission = await parse_submission(ack, MarkSubmission, view)
    if submission is None:
        return
    services, lookups = services_of(context), lookups_of(context)
    metadata = read_metadata(view)
    kind = MarkKind(submission.kind)

    async def mark() -> IncidentRecord:
        author = metadata.get("author") or "unknown"
        if author[:1] in ("U", "W"):
            author = await lookups.user_name(client, author)
        record = Mark(
            message_ts=metadata["message_ts"], author=author, text=metadata["message_text"], kind=kind,
            why=submission.why if kind is MarkKind.FAILED_ATTEMPT else None,
            marked_by=await lookups.user_name(client, context.user_id),
        )  # fmt: skip
        incident = await services.drafting.mark(context.team_id, metadata["channel_id"], record)
        if incident is None:
            raise CannotSave("this channel has no incident to add it to; declare one with `/incident declare`")
        return incident

    async def saved(incident: IncidentRecord) -> None:
        note = messages.notice(
            f"Added to `{incident.incident_id}` as {_AS[kind]}: the resolution form will be drafted with it.",
            emoji=":memo:",
        )
        await tell_later(services, metadata["channel_id"], context.user_id, note)
        return None

    await save_modal(ack, client, services.background, view, mark(), saved)
