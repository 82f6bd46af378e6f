"""App Home, per person: incidents awaiting an outcome (the drafted modal one click away),
memories to review (Confirm, Reject), recent memories, and a recall search box. It shows a person
only what they may see: a private channel's incidents and memories only to its members."""

from __future__ import annotations

from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.context import directory_of, lookups_of, services_of
from bot.handlers.errors import spawn
from bot.handlers.lookups import SlackLookups
from bot.models import utcnow
from bot.services.container import Services
from bot.slack.directory import SlackDirectory
from bot.slack.home import home_view


async def publish_home(
    client: AsyncWebClient,
    services: Services,
    lookups: SlackLookups,
    directory: SlackDirectory,
    team_id: str,
    user_id: str,
    *,
    query: str | None = None,
) -> None:
    async def is_member(channel_id: str) -> bool:
        return await lookups.is_member(client, channel_id, user_id)

    # "Save what we learned" only on incidents this person may close (bot/policy.py)
    actor = await directory.actor(client, user_id)
    content = await services.review.home(team_id, is_member, actor=actor, query=query)
    await client.views_publish(user_id=user_id, view=home_view(content, utcnow()))


async def on_home_opened(event: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    if event.get("tab", "home") != "home":
        return
    work = publish_home(
        client, services_of(context), lookups_of(context), directory_of(context), context.team_id, event["user"]
    )
    spawn(context, work, name="home", tell=False)


async def on_home_search(ack: Any, action: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext) -> None:
    await ack()
    work = publish_home(
        client, services_of(context), lookups_of(context), directory_of(context), context.team_id, context.user_id,
        query=action.get("value"),
    )  # fmt: skip
    spawn(context, work, name="home-search")


def from_home(body: dict[str, Any]) -> bool:
    """Whether a click came from the App Home tab (then the tab is refreshed after the change)."""
    return (body.get("view") or {}).get("type") == "home"
