"""What every listener finds in Bolt's `context`, put there once per request by one middleware.

- `services_of(context)`: the use cases (bot/services), the same object for every request;
- `lookups_of(context)`: this app's Slack lookups (channels, people), cached and bounded;
- `directory_of(context)`: who a user is for the authority policy (name, admin, reviewer);
- `context.team_id`, `context.user_id`, `context.channel_id`: resolved by Bolt from whatever
  shape the payload has (command, event, button, modal). A modal's channel is not in its
  payload: the middleware reads it from the modal's private_metadata, where our modals keep it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext

from bot.handlers.lookups import SlackLookups
from bot.policy import Reviewers
from bot.services.container import Services
from bot.slack.directory import SlackDirectory
from bot.slack.modals import read_metadata

_SERVICES = "services"
_LOOKUPS = "lookups"
_DIRECTORY = "directory"


def context_middleware(
    services: Services, lookups: SlackLookups, directory: SlackDirectory | None = None
) -> Callable[..., Awaitable[None]]:
    # built at the first request: registering the app reads no setting
    directories = [directory] if directory is not None else []

    async def provide_context(
        context: AsyncBoltContext, body: dict[str, Any], next_: Callable[[], Awaitable[None]]
    ) -> None:
        if not directories:
            directories.append(SlackDirectory(Reviewers.parse(services.settings.memory_reviewers)))
        context[_SERVICES] = services
        context[_LOOKUPS] = lookups
        context[_DIRECTORY] = directories[0]
        view = body.get("view")
        if context.channel_id is None and isinstance(view, dict):
            try:
                channel_id = read_metadata(view).get("channel_id")
            except ValueError:  # not one of our modals' metadata: no channel, as Slack sent it
                channel_id = None
            if isinstance(channel_id, str) and channel_id:
                context["channel_id"] = channel_id
        await next_()

    return provide_context


def services_of(context: AsyncBoltContext | dict[str, Any]) -> Services:
    return context[_SERVICES]


def lookups_of(context: AsyncBoltContext | dict[str, Any]) -> SlackLookups:
    return context[_LOOKUPS]


def directory_of(context: AsyncBoltContext | dict[str, Any]) -> SlackDirectory:
    return context[_DIRECTORY]
