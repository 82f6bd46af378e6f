"""Who a Slack user is, for the authority policy: their name, whether they are a workspace admin
(users.info is_admin / is_owner) and whether they are a memory reviewer (MEMORY_REVIEWERS; user
groups read with usergroups.users.list). One per Bolt app (built by `register_all`), answers
remembered a few minutes in bounded caches: a new admin or reviewer counts after that.

When Slack cannot say, the answer is the least authority: a refusal that says who can is better
than a rejection nobody was allowed to make.
"""

from __future__ import annotations

import logging

from cachetools import TTLCache
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.policy import Actor, Reviewers

log = logging.getLogger(__name__)

DIRECTORY_CACHE_S = 300.0
MAX_ENTRIES = 10_000


class SlackDirectory:
    def __init__(
        self, reviewers: Reviewers, *, ttl_s: float = DIRECTORY_CACHE_S, max_entries: int = MAX_ENTRIES
    ) -> None:
        self.reviewers = reviewers
        self._actors: TTLCache[str, Actor] = TTLCache(max_entries, ttl_s)
        self._groups: TTLCache[str, frozenset[str]] = TTLCache(max(1, len(reviewers.groups)), ttl_s)

    async def actor(self, client: AsyncWebClient, user_id: str) -> Actor:
        cached = self._actors.get(user_id)
        if cached is not None:
            return cached
        is_reviewer = await self._is_reviewer(client, user_id)
        try:
            user = (await client.users_info(user=user_id))["user"]
        except SlackApiError as exc:  # not remembered: asked again next time
            log.warning("users.info for %s failed (%s): neither admin nor named", user_id, exc.response.get("error"))
            return Actor(id=user_id, is_reviewer=is_reviewer)
        profile = user.get("profile") or {}
        actor = Actor(
            id=user_id,
            name=profile.get("display_name") or user.get("name") or profile.get("real_name") or None,
            is_admin=bool(user.get("is_admin") or user.get("is_owner") or user.get("is_primary_owner")),
            is_reviewer=is_reviewer,
        )
        self._actors[user_id] = actor
        return actor

    async def _is_reviewer(self, client: AsyncWebClient, user_id: str) -> bool:
        if user_id in self.reviewers.users:
            return True
        for group in self.reviewers.groups:
            members = self._groups.get(group)
            if members is None:
                try:
                    members = frozenset((await client.usergroups_users_list(usergroup=group))["users"] or [])
                except SlackApiError as exc:  # not remembered: asked again next time
                    log.warning("usergroups.users.list for %s failed: %s", group, exc.response.get("error"))
                    continue
                self._groups[group] = members
            if user_id in members:
                return True
        return False
