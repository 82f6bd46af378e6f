"""The workspace's objects (channel, user, message, ephemeral), as the Web API returns them."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Channel:
    id: str
    name: str
    is_private: bool = False
    topic: str = ""
    purpose: str = ""
    is_member: bool = True
    is_archived: bool = False
    is_im: bool = False
    created: int = 0
    members: list[str] = field(default_factory=list)  # people in it (the bot is `is_member`)
    is_ext_shared: bool = False  # Slack Connect: shared with another organisation

    def as_slack(self) -> dict[str, Any]:
        """The `channel` object of conversations.info."""
        body: dict[str, Any] = {
            "id": self.id,
            "created": self.created,
            "is_archived": self.is_archived,
            "is_member": self.is_member,
            "is_im": self.is_im,
            "is_mpim": False,
            "is_private": self.is_private or self.is_im,
        }
        if self.is_im:
            body["user"] = self.name
            return body
        return body | {
            "name": self.name,
            "name_normalized": self.name,
            "is_channel": not self.is_private,
            "is_group": self.is_private,
            "is_general": False,
            "is_shared": self.is_ext_shared,
            "is_ext_shared": self.is_ext_shared,
            "is_org_shared": False,
            "topic": {"value": self.topic, "creator": "", "last_set": 0},
            "purpose": {"value": self.purpose, "creator": "", "last_set": 0},
        }


@dataclass
class User:
    id: str
    name: str
    team_id: str
    real_name: str = ""
    is_bot: bool = False
    tz: str = "UTC"
    deleted: bool = False
    is_admin: bool = False
    is_owner: bool = False
    is_restricted: bool = False  # a multi-channel guest
    is_ultra_restricted: bool = False  # a single-channel guest

    def as_slack(self) -> dict[str, Any]:
        """The `user` object of users.info."""
        real_name = self.real_name or self.name
        return {
            "id": self.id,
            "team_id": self.team_id,
            "name": self.name,
            "deleted": self.deleted,
            "real_name": real_name,
            "tz": self.tz,
            "tz_offset": 0,
            "is_bot": self.is_bot,
            "is_admin": self.is_admin or self.is_owner,
            "is_owner": self.is_owner,
            "is_primary_owner": False,
            "is_restricted": self.is_restricted or self.is_ultra_restricted,
            "is_ultra_restricted": self.is_ultra_restricted,
            "profile": {
                "real_name": real_name,
                "real_name_normalized": real_name,
                "display_name": self.name,
                "display_name_normalized": self.name,
            },
        }


@dataclass
class Message:
    """A message in a channel: the bot's (posted through the API) or a human's (add_message)."""

    channel: str
    ts: str
    text: str
    user: str
    team: str
    blocks: list[Any] | None = None
    thread_ts: str | None = None
    bot_id: str | None = None
    attachments: list[Any] | None = None
    metadata: dict[str, Any] | None = None
    reply_broadcast: bool = False
    edited_ts: str | None = None
    reply_ts: list[str] = field(default_factory=list)
    reply_users: list[str] = field(default_factory=list)

    @property
    def is_reply(self) -> bool:
        return self.thread_ts is not None and self.thread_ts != self.ts

    def as_slack(self) -> dict[str, Any]:
        """The message as conversations.history / replies return it."""
        body: dict[str, Any] = {
            "type": "message",
            "ts": self.ts,
            "text": self.text,
            "user": self.user,
            "team": self.team,
        }
        if self.bot_id is not None:
            body["bot_id"] = self.bot_id
        if self.blocks is not None:
            body["blocks"] = copy.deepcopy(self.blocks)
        if self.attachments is not None:
            body["attachments"] = copy.deepcopy(self.attachments)
        if self.metadata is not None:
            body["metadata"] = copy.deepcopy(self.metadata)
        if self.edited_ts is not None:
            body["edited"] = {"user": self.user, "ts": self.edited_ts}
        if self.thread_ts is not None:
            body["thread_ts"] = self.thread_ts
        if self.reply_ts:
            body |= {
                "reply_count": len(self.reply_ts),
                "reply_users_count": len(self.reply_users),
                "reply_users": list(self.reply_users),
                "latest_reply": self.reply_ts[-1],
            }
        if self.is_reply and self.reply_broadcast:
            body["subtype"] = "thread_broadcast"
        return body


@dataclass
class Ephemeral:
    """A message only `user` sees; never in history."""

    channel: str
    user: str
    ts: str
    text: str
    blocks: list[Any] | None = None
    thread_ts: str | None = None
