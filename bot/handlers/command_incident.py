"""`/incident [declare | resolve | show ID | help]`."""

from __future__ import annotations

import asyncio
from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.errors import MemoryError_
from bot.handlers.action_open_form import open_form
from bot.handlers.context import services_of
from bot.handlers.work import CommandRequest, enqueue_then_ack, show_memory
from bot.services.container import Services
from bot.slack import messages
from bot.slack.commands import in_use
from bot.slack.modals import declare_modal, resolution_modal

# Looking up the channel's incident title for the resolution modal may take this long; after
# that the modal opens with a generic title (the trigger_id would expire).
TITLE_LOOKUP_S = 1.0


async def incident_command(
    ack: Any, command: dict[str, Any], client: AsyncWebClient, respond: Any, context: AsyncBoltContext
) -> None:
    verb, _, rest = (command.get("text") or "").strip().partition(" ")
    verb = verb.lower()
    services = services_of(context)
    team_id, channel_id = context.team_id, context.channel_id
    if verb in ("", "declare"):
        await ack()
        view = declare_modal(context={"channel_id": channel_id})
        await open_form(client, services, command["trigger_id"], view, channel_id=channel_id, user_id=context.user_id)
    elif verb == "resolve":
        await ack()
        await open_resolution_modal(client, services, team_id, channel_id, command["trigger_id"], respond, context.user_id)
    elif verb == "show" and rest.strip():
        request = CommandRequest(
            team_id=team_id, channel_id=channel_id, user_id=context.user_id, text=rest.strip(),
            response_url=command["response_url"],
        )  # fmt: skip
        await enqueue_then_ack(ack, services, show_memory, request)
    elif verb == "help":
        await ack(**messages.help_message(services.settings.incident_channel_pattern))
    else:
        name = command.get("command") or in_use().incident  # as typed
        await ack(**messages.notice(f"I don't know `{name} {verb}`. Try `{name} help`."))


async def open_resolution_modal(
    client: AsyncWebClient, services: Services, team_id: str, channel_id: str, trigger_id: str, respond: Any,
    user_id: str,
) -> None:
    try:
        incident = await asyncio.wait_for(services.incidents.latest_in(team_id, channel_id), TITLE_LOOKUP_S)
    except (TimeoutError, MemoryError_):
        incident = None  # the submission finds the incident again; the modal must open now
    else:
        if incident is None:
            await respond(**messages.notice(f"There is no incident in this channel. Declare one with `{in_use().incident} declare`."))
            return
    title = incident.title if incident else "this channel's incident"
    context = {"channel_id": channel_id, **({"current_incident": incident.incident_id} if incident else {})}
    await open_form(client, services, trigger_id, resolution_modal(title, context=context), channel_id=channel_id, user_id=user_id)

