"""Who a Slack user is, for the authority policy: their name, whether they are a workspace admin
(users.info is_admin / is_owner) and whether they are a memory reviewer (MEMORY_REVIEWERS, user
groups read with usergroups.users.list). Answers are kept a few minutes.

When Slack cannot say, the answer is the least authority: a refusal that says who can is better
than a rejection nobody was allowed to make.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.policy import Actor, Reviewers

log = logging.getLogger(__name__)

DIRECTORY_CACHE_S = 300.0


class SlackDirectory:
    def __init__(
        self, client: AsyncWebClient, reviewers: Reviewers, *, cache_s: float = DIRECTORY_CACHE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:  # fmt: skip
        self._client = client
        self.reviewers = reviewers
        self._cache_s = cache_s
        self._clock = clock
        self._actors: dict[str, tuple[float, Actor]] = {}
        self._group_members: tuple[float, frozenset[str]] | None = None

    async def actor(self, user_id: str) -> Actor:
        now = self._clock()
        cached = self._actors.get(user_id)
        if cached is not None and now - cached[0] < self._cache_s:
            return cached[1]
        try:
            user = (await self._client.users_info(user=user_id))["user"]
        except SlackApiError as exc:
            log.warning("users.info for %s failed (%s): treated as neither admin nor named", user_id, exc.response.get("error"))
            return Actor(id=user_id, is_reviewer=await self._is_reviewer(user_id))
        profile = user.get("profile") or {}
        actor = Actor(
            id=user_id,
            name=profile.get("display_name") or user.get("name") or profile.get("real_name") or None,
            is_admin=bool(user.get("is_admin") or user.get("is_owner") or user.get("is_primary_owner")),
            is_reviewer=await self._is_reviewer(user_id),
        )
        self._actors[user_id] = (now, actor)
        return actor

    async def _is_reviewer(self, user_id: str) -> bool:
        if user_id in self.reviewers.users:
            return True
        return bool(self.reviewers.groups) and user_id in await self._members()

    async def _members(self) -> frozenset[str]:
        now = self._clock()
        if self._group_members is not None and now - self._group_members[0] < self._cache_s:
            return self._group_members[1]
        members: set[str] = set()
        for group in self.reviewers.groups:
            try:
                members.update((await self._client.usergroups_users_list(usergroup=group))["users"] or [])
            except SlackApiError as exc:
                log.warning("usergroups.users.list for %s failed: %s", group, exc.response.get("error"))
                return frozenset(members)  # not remembered: asked again next time
        self._group_members = (now, frozenset(members))
        return self._group_members[1]
