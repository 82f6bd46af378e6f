"""Opening the resolution modal: at once, then drafted.

Slack gives a trigger_id 3 seconds; a model's draft takes longer. So the modal opens within the
ack, saying the draft is on its way, and is updated (views.update) when the draft is ready. The
inputs keep their block_id and action_id, so Slack keeps whatever the person typed meanwhile;
the update carries the view's hash, so a modal that changed since (an error shown on submit) is
never overwritten. `/incident resolve`, the Resolve button, every nudge's "Save what we learned"
and App Home open it the same way.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.errors import MemoryError_
from bot.handlers.context import services_of
from bot.handlers.errors import spawn
from bot.models import IncidentRecord
from bot.services.container import Services
from bot.slack import messages
from bot.slack.modals import resolution_modal

log = logging.getLogger(__name__)

# Finding the incident for the modal's title may take this long; after that the modal opens with
# a generic title and no draft (the trigger_id would expire).
TITLE_LOOKUP_S = 1.0


async def open_resolution_modal(
    client: AsyncWebClient, context: AsyncBoltContext, trigger_id: str, respond: Any, *, incident_id: str | None = None
) -> None:
    """Open the modal for `incident_id`, or for the incident of the request's channel."""
    services = services_of(context)
    team_id, channel_id = context.team_id, context.channel_id
    try:
        if incident_id:
            lookup = services.incidents.get(team_id, incident_id)
        else:
            lookup = services.incidents.latest_in(team_id, channel_id)
        incident = await asyncio.wait_for(lookup, TITLE_LOOKUP_S)
    except (TimeoutError, MemoryError_):
        incident = None  # the submission finds the incident again; the modal must open now
    else:
        if incident is None:
            text = "I could not find that incident." if incident_id else "There is no incident in this channel. Declare one with `/incident declare`."
            await respond(**messages.notice(text), response_type="ephemeral", replace_original=False)
            return
    title = incident.title if incident else "this channel's incident"
    where = incident.channel if incident else channel_id
    modal_context = {"channel_id": where, **({"current_incident": incident.incident_id} if incident else {})}
    opened = await client.views_open(trigger_id=trigger_id, view=resolution_modal(title, context=modal_context, drafting=incident is not None))
    if incident is not None:
        view = opened["view"]
        spawn(context, fill_draft(client, services, incident, modal_context, view["id"], view["hash"]), name="draft", tell=False)


async def fill_draft(
    client: AsyncWebClient, services: Services, incident: IncidentRecord, modal_context: dict[str, Any],
    view_id: str, view_hash: str,
) -> None:  # fmt: skip
    """Draft from the channel, then show the draft in the open modal."""
    try:
        saved = await services.drafting.draft(incident)
        view = resolution_modal(incident.title, context={**modal_context, "draft_id": saved.draft_id}, draft=saved.draft)
    except Exception:  # noqa: BLE001 - the modal must not keep saying "drafting…"
        log.exception("drafting the resolution of %s failed", incident.incident_id)
        view = resolution_modal(incident.title, context=modal_context, error="No draft this time (the error is in the bot's logs): fill it in from the channel.")
    try:
        await client.views_update(view_id=view_id, hash=view_hash, view=view)
    except SlackApiError as exc:
        # hash_conflict: the modal changed meanwhile (an error on submit); not_found: it was
        # submitted or closed. Either way the person's modal is left as it is.
        log.info("the drafted modal was not shown: %s", exc.response.get("error"))
