"""Forms Slack could not open in time, opened from a button instead.

A trigger_id opens one modal within 3 seconds. When Slack answers views.open with a 429, an
expired trigger or nothing at all in that time, the form is kept (a week, with the jobs' effects) and the person gets an
ephemeral button that opens it with the fresh trigger of their click: a form is never lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.context import services_of
from bot.handlers.work import tell_later
from bot.observability.context import request_age
from bot.services.container import Services
from bot.slack import messages

log = logging.getLogger(__name__)

# Slack gives 3 s from the click or command; views.open gets what the ack left of it.
OPEN_BUDGET_S = 2.5


async def open_form(
    client: AsyncWebClient,
    services: Services,
    trigger_id: str,
    view: dict[str, Any],
    *,
    channel_id: str | None,
    user_id: str,
    later: dict[str, Any] | None = None,
    budget_s: float = OPEN_BUDGET_S,
) -> dict[str, Any] | None:
    """views.open, or — when Slack cannot open it in time — a button that opens it later (the
    form `later`, when what opens now differs from what can wait, e.g. a modal awaiting its
    draft). `budget_s`: what is left of the trigger's 3 s (less when the caller read first). The
    opened view as Slack returned it, or None."""
    try:
        # the trigger's 3 s run from the click, so what the server spent before this listener is gone too
        async with asyncio.timeout(min(budget_s, max(0.1, OPEN_BUDGET_S - request_age()))):
            response = await client.views_open(trigger_id=trigger_id, view=view)
        return response["view"]
    except (SlackApiError, TimeoutError) as exc:
        why = exc.response.get("error") if isinstance(exc, SlackApiError) else "timeout"
        log.warning("views.open failed (%s): offering a button instead", why)
    if not channel_id:
        return None
    key = f"form:{uuid.uuid4().hex}"
    await services.effects.record(key, json.dumps(later or view))
    title = (view.get("title") or {}).get("text") or "the form"
    await tell_later(services, channel_id, user_id, messages.form_offer(title, key))
    return None


async def on_open_form(
    ack: Any,
    body: dict[str, Any],
    action: dict[str, Any],
    client: AsyncWebClient,
    respond: Any,
    context: AsyncBoltContext,
) -> None:
    await ack()
    services = services_of(context)
    stored = await services.effects.done(action.get("value") or "")
    if not stored:
        await respond(**messages.notice("That form is no longer kept. Run the command again."), replace_original=False)
        return
    await open_form(
        client, services, body["trigger_id"], json.loads(stored), channel_id=context.channel_id, user_id=context.user_id
    )
