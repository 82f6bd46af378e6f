"""`/incident [declare | resolve | show ID | help]`."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.action_open_form import open_form
from bot.handlers.context import services_of
from bot.handlers.resolution_form import open_resolution_modal
from bot.handlers.work import CommandRequest, enqueue_then_ack
from bot.handlers.work_recall import show_memory
from bot.slack import messages
from bot.slack.commands import in_use
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
        view = declare_modal(context={"channel_id": channel_id})
        await open_form(client, services, command["trigger_id"], view, channel_id=channel_id, user_id=context.user_id)
    elif verb == "resolve":
        await ack()
        await open_resolution_modal(client, context, command["trigger_id"], respond)
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
