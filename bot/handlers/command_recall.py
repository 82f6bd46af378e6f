"""`/recall [text]`: on free text (only you see it), or on the channel's incident (a thread)."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.context import services_of
from bot.handlers.errors import spawn
from bot.handlers.flows import post_recall_thread
from bot.models import utcnow
from bot.services.container import Services
from bot.slack import messages


async def recall_command(
    ack: Any, command: dict[str, Any], client: AsyncWebClient, respond: Any, context: AsyncBoltContext
) -> None:
    await ack()
    text = (command.get("text") or "").strip()
    services = services_of(context)
    spawn(context, _recall(client, services, context.team_id, context.channel_id, text, respond), name="recall")


async def _recall(client: AsyncWebClient, services: Services, team_id: str, channel_id: str, text: str, respond: Any) -> None:
    if not text:
        incident = await services.incidents.open_in(team_id, channel_id)
        if incident is None:
            await respond(**messages.notice("No open incident here: give me some text, e.g. `/recall checkout timeouts`."))
            return
        await post_recall_thread(client, services, incident)
        return
    result = await services.recall.for_text(team_id, channel_id, text)
    await respond(**messages.recall_parent(text, result.matches, result.conflicts))
    now = utcnow()
    for match in result.matches:
        await respond(**messages.recall_reply(match, now, messages.conflicting_ids(match, result.conflicts)))
