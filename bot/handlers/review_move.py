"""Saving a reviewer's truth move (confirm or reject) from its modal — the part both modals share:
from App Home there is no channel, so a private memory is seen from its own channel when the person
is in it; a refusal says who can (inline, and by name in the channel); App Home is refreshed, or
the person told in the channel."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.errors import TruthMoveRefused
from bot.handlers.context import directory_of, lookups_of, services_of
from bot.handlers.home import publish_home
from bot.handlers.modal_save import save_modal
from bot.handlers.work import tell_later
from bot.models import MemoryRecord
from bot.policy import NotAllowed
from bot.slack import messages
from bot.slack.modals import read_metadata

# (services, team_id, incident_id, actor, channel seen from) → the moved memory
Move = Callable[[Any, str, str, Any, str | None], Awaitable[MemoryRecord]]


async def save_review_move(
    ack: Any, view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext,
    move: Move, *, field: str, done: Callable[[str], str],
) -> None:  # fmt: skip
    """Run `move` within the modal's save protocol; `field` carries an inline refusal, `done(id)`
    is what the person reads in the channel afterwards."""
    services, lookups = services_of(context), lookups_of(context)
    team_id, user_id, channel_id = context.team_id, context.user_id, context.channel_id
    metadata = read_metadata(view)
    incident_id = metadata["incident_id"]

    async def is_member(channel: str) -> bool:
        return await lookups.is_member(client, channel, user_id)

    async def save() -> MemoryRecord | TruthMoveRefused | NotAllowed:
        seen_from = await services.review.seen_from(team_id, incident_id, channel_id, is_member)
        try:
            actor = await directory_of(context).actor(client, user_id)
            return await move(services, team_id, incident_id, actor, seen_from)
        except (TruthMoveRefused, NotAllowed) as refused:
            return refused

    async def saved(result: MemoryRecord | TruthMoveRefused | NotAllowed) -> dict[str, Any] | None:
        if isinstance(result, NotAllowed) and channel_id:  # who can, by name (the inline error is plain text)
            await tell_later(services, channel_id, user_id, messages.refusal(result))
        if isinstance(result, (NotAllowed, TruthMoveRefused)):
            return {"response_action": "errors", "errors": {field: str(result)[:150]}}
        if metadata.get("from_home"):
            services.background.spawn(
                publish_home(client, services, lookups, directory_of(context), team_id, user_id), name="home"
            )
        elif channel_id:
            await tell_later(services, channel_id, user_id, messages.notice(done(result.incident_id)))
        return None

    await save_modal(ack, client, services.background, view, save(), saved)
