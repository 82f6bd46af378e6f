"""The resolution modal: the confirmed outcome becomes a memory (nothing typed is ever lost)."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.errors import MemoryNotFound
from bot.handlers.context import directory_of, lookups_of, services_of
from bot.handlers.modal_save import parse_submission, save_modal, saved_view
from bot.handlers.work import post_later, tell_later
from bot.handlers.work_embed import embed_later
from bot.models import Resolution
from bot.policy import NotAllowed
from bot.services.resolution import ResolutionOutcome, ResolutionStatus
from bot.slack import messages
from bot.slack.modals import correction_modal, read_metadata
from bot.slack.submissions import ResolutionSubmission


def _as_correction(resolution: Resolution) -> str:
    """What the user typed, as the text of a correction (so it is not lost)."""
    parts = [f"Root cause: {resolution.root_cause}", f"Fix: {resolution.resolution}"]
    parts += [f"Did not work: {a.action} — {a.why_it_failed}" for a in resolution.failed_attempts]
    if resolution.lesson:
        parts.append(f"Lesson: {resolution.lesson}")
    return "\n".join(parts)[:3000]


async def on_resolution(ack: Any, view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    submission = await parse_submission(ack, ResolutionSubmission, view)
    if submission is None:
        return
    resolution = submission.to_resolution()
    services = services_of(context)
    team_id, user_id, channel_id = context.team_id, context.user_id, context.channel_id
    metadata = read_metadata(view)
    current_incident = metadata.get("current_incident")
    draft_id = metadata.get("draft_id") if isinstance(metadata.get("draft_id"), int) else None

    async def resolve() -> ResolutionOutcome | NotAllowed:
        incident = None
        if current_incident:
            incident = await services.incidents.get(team_id, current_incident)
        incident = incident or await services.incidents.latest_in(team_id, channel_id)
        if incident is None:
            raise MemoryNotFound(current_incident or channel_id, team_id)
        by = await directory_of(context).actor(client, user_id)
        # closing belongs to the incident's channel: Slack says who is in it
        in_channel = await lookups_of(context).is_member(client, incident.channel, user_id)
        # which fields were drafted from the channel, and which the person changed
        drafting = await services.drafting.trace(team_id, draft_id, resolution, declared_symptoms=incident.symptoms)
        try:
            return await services.resolution.resolve(
                incident, resolution, by=by, in_channel=in_channel, drafting=drafting
            )
        except NotAllowed as refused:
            return refused

    async def saved(outcome: ResolutionOutcome | NotAllowed) -> dict[str, Any] | None:
        if isinstance(outcome, NotAllowed):  # nothing saved; every typed value stays
            await tell_later(services, channel_id, user_id, messages.refusal(outcome))
            return {"response_action": "errors", "errors": {"verified": str(outcome)[:150]}}
        memory = outcome.memory
        assert memory is not None
        if outcome.status is ResolutionStatus.HYPOTHESIS:  # said in the modal: they may not be in the channel
            return {"response_action": "update", "view": saved_view(messages.kept_as_hypothesis(memory))}
        if outcome.status in (ResolutionStatus.SAVED, ResolutionStatus.REVISED):
            by = memory.shown_verifier or ""
            if outcome.replaced:  # a revision: what it replaced stays, superseded, in history
                by += f"; it replaces {outcome.replaced}, now superseded"
            confirmation = messages.resolution_confirmation(memory, by=by or None)
            await post_later(services, channel_id, confirmation, key=f"resolution:{team_id}:{memory.incident_id}")
            await embed_later(services, after=f"{team_id}:{memory.incident_id}")  # its vector, in the background
            return None
        if outcome.status is ResolutionStatus.UNCHANGED:
            note = messages.notice(f"`{memory.incident_id}` was already resolved with exactly this; nothing changed.")
            await tell_later(services, channel_id, user_id, note)
            return None
        # different content for a resolved incident: never overwritten; offer a correction
        # pre-filled with what they typed
        fields = ", ".join(outcome.conflicting_fields)
        view_ = correction_modal(
            memory.incident_id, memory.title, context={"channel_id": channel_id},
            values={"text": _as_correction(resolution)},
            error=f"This incident was already resolved, and this differs in: {fields}. "
            "Nothing was overwritten. Record what you typed as a correction?",
        )  # fmt: skip
        return {"response_action": "update", "view": view_}

    await save_modal(ack, client, services.background, view, resolve(), saved)
