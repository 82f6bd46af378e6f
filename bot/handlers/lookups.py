"""Who and where, asked of Slack: channels and people, remembered per app, for a while, bounded.

One `SlackLookups` per Bolt app (built by `register_all`): two apps in one process (tests, a
replay beside the bot) never share answers, and a busy workspace cannot grow the caches without
end — each holds at most `max_entries`, least recently used out first, and forgets an answer
after its time to live (a renamed channel or person shows up after that).
"""

from __future__ import annotations

import asyncio
from typing import Any

from cachetools import TTLCache
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.services.incidents import ChannelInfo

# Messages in channels that are not incidents would otherwise cost a conversations.info each.
CHANNEL_CACHE_S = 300.0
# A person's name is asked for each message they post in an incident channel otherwise.
USER_CACHE_S = 3600.0
MAX_ENTRIES = 10_000
# conversations.list pages read to find a channel by name (1,000 channels each)
MAX_CHANNEL_PAGES = 20
# conversations.members pages read to look for guests (1,000 members each); a bigger channel is
# taken to have some
MAX_MEMBER_PAGES = 5


async def channel_info(client: AsyncWebClient, channel_id: str, *, lookups: SlackLookups | None = None) -> ChannelInfo:
    """The channel as Slack says it is now (not remembered: declaring must see the present).
    A channel shared with another organisation (Slack Connect) is isolated; so is one with guests
    when `lookups` says guests isolate (GUEST_CHANNELS=isolated, the default)."""
    response = await client.conversations_info(channel=channel_id)
    channel = response["channel"]
    shared = bool(channel.get("is_ext_shared") or channel.get("is_pending_ext_shared"))
    lookups = lookups or _DEFAULT
    return ChannelInfo(
        id=channel_id,
        name=channel.get("name") or channel_id,
        is_private=bool(channel.get("is_private")),
        topic=(channel.get("topic") or {}).get("value", ""),
        purpose=(channel.get("purpose") or {}).get("value", ""),
        is_member=bool(channel.get("is_member", True)),
        is_isolated=shared or (lookups.guests_isolate and await lookups.has_guests(client, channel_id)),
    )


class SlackLookups:
    def __init__(
        self,
        *,
        max_entries: int = MAX_ENTRIES,
        channel_ttl_s: float = CHANNEL_CACHE_S,
        user_ttl_s: float = USER_CACHE_S,
        guests_isolate: bool = True,
    ) -> None:
        self.guests_isolate = guests_isolate  # GUEST_CHANNELS=isolated
        self._guests: TTLCache[str, bool] = TTLCache(max_entries, user_ttl_s)
        self._channels: TTLCache[str, asyncio.Future[ChannelInfo]] = TTLCache(max_entries, channel_ttl_s)
        self._names: TTLCache[str, str] = TTLCache(max_entries, user_ttl_s)
        self._members: TTLCache[str, frozenset[str]] = TTLCache(max_entries, channel_ttl_s)
        self._named: TTLCache[str, str] = TTLCache(max_entries, channel_ttl_s)
        self._team_id: str | None = None

    @classmethod
    def configured(cls, settings: Any) -> SlackLookups:
        """The lookups `settings` (bot.config.Settings) ask for: GUEST_CHANNELS."""
        return cls(guests_isolate=settings.guest_channels == "isolated")

    async def recent_channel_info(self, client: AsyncWebClient, channel_id: str) -> ChannelInfo:
        """channel_info, remembered for a few minutes. A burst of messages shares one request:
        the answer in flight is what is remembered."""
        pending = self._channels.get(channel_id)
        if pending is None:
            pending = asyncio.ensure_future(channel_info(client, channel_id, lookups=self))
            self._channels[channel_id] = pending
        try:
            return await asyncio.shield(pending)
        except Exception:
            self._channels.pop(channel_id, None)  # a failure is not remembered: ask again next time
            raise

    async def user_name(self, client: AsyncWebClient, user_id: str) -> str:
        """How a person is named in memory ("maya.oncall"): readable later, and never a ping."""
        name = self._names.get(user_id)
        if name is not None:
            return name
        try:
            user = (await client.users_info(user=user_id))["user"]
        except SlackApiError:
            return user_id  # not remembered: the next message asks again
        profile = user.get("profile") or {}
        name = profile.get("display_name") or user.get("name") or profile.get("real_name") or user_id
        self._names[user_id] = name
        return name

    async def is_member(self, client: AsyncWebClient, channel_id: str, user_id: str) -> bool:
        """Whether `user_id` is in the channel, as Slack says (remembered for a few minutes). What
        Slack will not say (the bot left a private channel) counts as no."""
        members = self._members.get(channel_id)
        if members is None:
            found: set[str] = set()
            cursor = None
            try:
                while True:
                    page = await client.conversations_members(channel=channel_id, limit=1000, cursor=cursor)
                    found.update(page.get("members") or [])
                    cursor = (page.get("response_metadata") or {}).get("next_cursor")
                    if not cursor:
                        break
            except SlackApiError:
                return False  # not remembered: asked again next time
            members = self._members[channel_id] = frozenset(found)
        return user_id in members

    async def has_guests(self, client: AsyncWebClient, channel_id: str) -> bool:
        """Whether a guest (`is_restricted` / `is_ultra_restricted`) is in the channel. Who is a
        guest is remembered for an hour; what Slack will not say counts as a guest (fail closed)."""
        try:
            cursor = None
            for _ in range(MAX_MEMBER_PAGES):
                page = await client.conversations_members(channel=channel_id, limit=1000, cursor=cursor)
                for user_id in page.get("members") or []:
                    if await self._is_guest(client, user_id):
                        return True
                cursor = (page.get("response_metadata") or {}).get("next_cursor")
                if not cursor:
                    return False
            return True  # more members than are looked up: not known to be guest-free
        except SlackApiError:
            return True

    async def _is_guest(self, client: AsyncWebClient, user_id: str) -> bool:
        known = self._guests.get(user_id)
        if known is None:
            user = (await client.users_info(user=user_id))["user"]
            known = self._guests[user_id] = bool(user.get("is_restricted") or user.get("is_ultra_restricted"))
        return known

    async def team_id(self, client: AsyncWebClient) -> str:
        """The workspace the bot's token belongs to (auth.test, once): alerts carry no team."""
        if self._team_id is None:
            self._team_id = str((await client.auth_test())["team_id"])
        return self._team_id

    async def channel_id_named(self, client: AsyncWebClient, name: str) -> str | None:
        """The id of the channel called `name` (an alert route may name it), or None. Found
        ids are remembered; a name not found is asked again next time (it may be created)."""
        known = self._named.get(name)
        if known is not None:
            return known
        cursor = None
        for _ in range(MAX_CHANNEL_PAGES):
            page = await client.conversations_list(
                types="public_channel,private_channel", exclude_archived=True, limit=1000, cursor=cursor
            )
            for channel in page.get("channels") or []:
                if channel.get("name") == name:
                    self._named[name] = channel["id"]
                    return channel["id"]
            cursor = (page.get("response_metadata") or {}).get("next_cursor")
            if not cursor:
                break
        return None


_DEFAULT = SlackLookups()  # for a caller without the app's: guests isolate, as by default
