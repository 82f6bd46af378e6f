"""`/incident [declare | resolve | show ID | help]`."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.errors import MemoryNotFound
from bot.handlers.context import services_of
from bot.handlers.errors import spawn
from bot.handlers.resolution_form import open_resolution_modal
from bot.services.container import Services
from bot.slack import messages
from bot.slack.modals import declare_modal


async def incident_command(
    ack: Any, command: dict[str, Any], client: AsyncWebClient, respond: Any, context: AsyncBoltContext
) -> None:
    verb, _, rest = (command.get("text") or "").strip().partition(" ")
    verb = verb.lower()
    services = services_of(context)
    team_id, channel_id = context.team_id, context.channel_id
    if verb in ("", "declare"):
        await ack()
        await client.views_open(trigger_id=command["trigger_id"], view=declare_modal(context={"channel_id": channel_id}))
    elif verb == "resolve":
        await ack()
        await open_resolution_modal(client, context, command["trigger_id"], respond)
    elif verb == "show" and rest.strip():
        await ack()
        spawn(context, _show(services, team_id, rest.strip(), respond), name="incident-show")
    elif verb == "help":
        await ack(**messages.help_message(services.settings.incident_channel_pattern))
    else:
        await ack(**messages.notice(f"I don't know `/incident {verb}`. Try `/incident help`."))


async def _show(services: Services, team_id: str, incident_id: str, respond: Any) -> None:
    try:
        memory = await services.recall.memory(team_id, incident_id)
    except MemoryNotFound:
        await respond(**messages.notice(f"No memory `{incident_id}` in this workspace."))
        return
    await respond(**messages.memory_detail(memory))
