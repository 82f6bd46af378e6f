"""Opening the resolution modal: at once, then drafted.

Slack gives a trigger_id 3 seconds; a model's draft takes longer. So the modal opens within the
ack, saying the draft is on its way, and is updated (views.update) when the draft is ready. The
inputs keep their block_id and action_id, so Slack keeps whatever the person typed meanwhile;
the update carries the view's hash, so a modal that changed since (an error shown on submit) is
never overwritten. The draft is a durable job (`resolution.draft`). `/incident resolve`, the
Resolve button, every nudge's "Save what we learned" and App Home open it the same way; when
Slack cannot open it in time, the person gets a button that opens it later (`open_form`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.errors import MemoryError_, StoreUnavailable
from bot.handlers.action_open_form import OPEN_BUDGET_S, open_form
from bot.handlers.context import lookups_of, services_of
from bot.handlers.work import JobPayload
from bot.jobs import JobContext, job
from bot.jobs.reading import ReadingTooLong
from bot.models import IncidentRecord
from bot.services.container import Services
from bot.services.limits import DRAFT
from bot.slack import messages
from bot.slack.commands import in_use
from bot.slack.modals import resolution_modal

log = logging.getLogger(__name__)

# Finding the incident for the modal's title may take this long; after that the modal opens with
# a generic title and no draft (the trigger_id would expire).
TITLE_LOOKUP_S = 1.0


async def open_resolution_modal(
    client: AsyncWebClient, context: AsyncBoltContext, trigger_id: str, respond: Any, *, incident_id: str | None = None
) -> None:
    """Open the modal for `incident_id`, or for the incident of the request's channel."""
    services, lookups = services_of(context), lookups_of(context)
    team_id, channel_id, user_id = context.team_id, context.channel_id, context.user_id

    async def find() -> IncidentRecord | None:
        if not incident_id:
            return await services.incidents.latest_in(team_id, channel_id)
        # a button names the incident (a nudge by direct message, App Home): a private channel's
        # incident opens only for someone in that channel
        found = await services.incidents.get(team_id, incident_id)
        if found is not None and found.is_private and found.channel != channel_id:
            if not await lookups.is_member(client, found.channel, user_id):
                return None
        return found

    began = asyncio.get_running_loop().time()
    try:
        async with asyncio.timeout(TITLE_LOOKUP_S):
            incident = await find()
            # each draft counts against the hourly limits (DRAFTS_PER_PERSON/CHANNEL_PER_HOUR)
            ticket = await services.limits.admit(DRAFT, team_id, user_id, incident.channel) if incident else None
    except (TimeoutError, MemoryError_):
        incident = None  # the submission finds the incident again; the modal must open now
    else:
        if incident is None:
            declare = f"Declare one with `{in_use().incident} declare`."
            text = (
                "I could not find that incident." if incident_id else f"There is no incident in this channel. {declare}"
            )
            await respond(**messages.notice(text), response_type="ephemeral", replace_original=False)
            return
    title = incident.title if incident else "this channel's incident"
    declared = _declared(incident)
    where = incident.channel if incident else channel_id
    modal_context = {"channel_id": where, **({"current_incident": incident.incident_id} if incident else {})}
    refusal = ticket.refusal if incident is not None and ticket is not None else None
    drafting = incident is not None and refusal is None
    opened = await open_form(
        client, services, trigger_id,
        resolution_modal(title, context=modal_context, values=declared, drafting=drafting, error=refusal),
        channel_id=channel_id, user_id=user_id, later=resolution_modal(title, context=modal_context, values=declared),
        # the lookup came out of the trigger's time: views.open gets what is left of it
        budget_s=max(0.1, OPEN_BUDGET_S - (asyncio.get_running_loop().time() - began)),
    )  # fmt: skip
    if incident is None or opened is None or not drafting:
        return
    request = DraftRequest(
        team_id=team_id, incident_id=incident.incident_id, view_id=opened["id"], view_hash=opened["hash"],
        modal_context=modal_context,
    )  # fmt: skip
    try:
        await services.jobs.enqueue(show_draft.name, request, dedupe_key=show_draft.dedupe(opened["id"]))
    except MemoryError_ as exc:
        log.warning("the draft could not be queued (%s): the modal stays as opened", exc)
        await _show(client, services, incident, request)


def _declared(incident: IncidentRecord | None) -> dict[str, str]:
    """The modal's inputs the declaration fills: its symptoms, shown for the person to confirm or edit
    (none declared: the draft offers the channel's first report, bot/drafting/first_report.py)."""
    return {"symptoms": incident.symptoms} if incident is not None and incident.symptoms else {}


class DraftRequest(JobPayload):
    team_id: str
    incident_id: str
    view_id: str
    view_hash: str
    modal_context: dict[str, Any]


# The modal is open now: a draft minutes late is better than none, an hour late helps nobody.
@job("resolution.draft", DraftRequest, max_attempts=3, deadline_s=600, attempt_timeout_s=120)
async def show_draft(ctx: JobContext, request: DraftRequest) -> None:
    incident = await ctx.services.incidents.get(request.team_id, request.incident_id)
    if incident is not None:
        await _show(ctx.client, ctx.services, incident, request)


async def _show(client: AsyncWebClient, services: Services, incident: IncidentRecord, request: DraftRequest) -> None:
    """Draft from the channel, then show the draft in the open modal."""
    declared = _declared(incident)
    try:
        saved = await services.drafting.draft(incident)
        view = resolution_modal(
            incident.title, context={**request.modal_context, "draft_id": saved.draft_id}, values=declared,
            draft=saved.draft,
        )  # fmt: skip
    except ReadingTooLong as exc:  # past READING_DEADLINE_S: said as it is
        view = resolution_modal(
            incident.title, context=request.modal_context, values=declared,
            error=f"No draft this time: {exc}. Fill it in from the channel.",
        )  # fmt: skip
    except StoreUnavailable as exc:  # the database went away (a shutdown, an outage): no traceback to read
        log.warning("drafting the resolution of %s stopped: %s", incident.incident_id, exc)
        view = resolution_modal(
            incident.title, context=request.modal_context, values=declared,
            error="No draft this time: the memory database did not answer. Fill it in from the channel.",
        )  # fmt: skip
    except Exception:  # noqa: BLE001 - the modal must not keep saying "drafting…"
        log.exception("drafting the resolution of %s failed", incident.incident_id)
        view = resolution_modal(
            incident.title, context=request.modal_context, values=declared,
            error="No draft this time (the error is in the bot's logs): fill it in from the channel.",
        )  # fmt: skip
    try:
        await client.views_update(view_id=request.view_id, hash=request.view_hash, view=view)
    except SlackApiError as exc:
        # hash_conflict: the modal changed meanwhile (an error on submit); not_found: it was
        # submitted or closed. Either way the person's modal is left as it is.
        log.info("the drafted modal was not shown: %s", exc.response.get("error"))
