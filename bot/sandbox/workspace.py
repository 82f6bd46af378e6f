"""The workspace the sandbox keeps, as Slack would keep it: channels, users, messages and
threads, ephemerals, modals, trigger ids and response URLs.

Plain state and the rules Slack applies to it (who may post where, how a reply joins a thread,
when a trigger id is spent); no HTTP. `SlackSandbox` serves it, the Web API methods in
`methods.py` change it, and tests read it back through the methods below.
"""

from __future__ import annotations

import copy
import itertools
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.sandbox.calls import Params, SlackError, flag
from bot.sandbox.model import Channel, Ephemeral, Message, User

# What docs/SLACK.md says this bot needs; Bolt reads them from the x-oauth-scopes header.
DEFAULT_SCOPES: Final = (
    "commands",
    "chat:write",
    "channels:history",
    "groups:history",
    "channels:read",
    "groups:read",
    "users:read",
    "usergroups:read",
)
DEFAULT_TEAM_ID: Final = "T0SANDBOX"
DEFAULT_BOT_USER_ID: Final = "U0SANDBOXBOT"
DEFAULT_BOT_ID: Final = "B0SANDBOX"
DEFAULT_APP_ID: Final = "A0SANDBOX"


@dataclass(frozen=True)
class ResponseTarget:
    channel: str
    user: str | None
    message_ts: str | None


class Workspace:
    """One Slack workspace's state, with the bot installed in it."""

    def __init__(
        self,
        *,
        team_id: str = DEFAULT_TEAM_ID,
        team: str = "Sandbox",
        bot_user_id: str = DEFAULT_BOT_USER_ID,
        bot_id: str = DEFAULT_BOT_ID,
        app_id: str = DEFAULT_APP_ID,
        scopes: tuple[str, ...] = DEFAULT_SCOPES,
        trigger_ttl: float = 3.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.team_id = team_id
        self.team = team
        self.bot_user_id = bot_user_id
        self.bot_id = bot_id
        self.app_id = app_id
        self.scopes = scopes
        self.trigger_ttl = trigger_ttl
        self._clock = clock
        self._channels: dict[str, Channel] = {}
        self._users: dict[str, User] = {}
        self._users[bot_user_id] = User(bot_user_id, "incident-memory", team_id, is_bot=True)
        self._usergroups: dict[str, list[str]] = {}
        self._forget_activity()

    def _forget_activity(self) -> None:
        """Forget messages, views, trigger ids and response URLs; keep channels and users."""
        self._messages: dict[str, list[Message]] = {}
        self._ephemerals: list[Ephemeral] = []
        self._views: dict[str, dict[str, Any]] = {}
        self._view_order: list[str] = []
        self._closed_views: set[str] = set()
        self._root_view_id: str | None = None
        self._homes: dict[str, dict[str, Any]] = {}
        self._triggers: dict[str, float] = {}
        self._exchanged: set[str] = set()
        self._response_targets: dict[str, ResponseTarget] = {}
        self._last_ts_us = 0
        self._ids = itertools.count(1)

    # ---- setting it up ---------------------------------------------------------------------

    def add_channel(
        self,
        channel_id: str,
        name: str,
        *,
        is_private: bool = False,
        topic: str = "",
        purpose: str = "",
        is_member: bool = True,
        is_archived: bool = False,
        members: tuple[str, ...] = (),
        is_ext_shared: bool = False,
    ) -> Channel:
        """`is_ext_shared`: a Slack Connect channel, shared with another organisation."""
        channel = Channel(
            channel_id,
            name,
            is_private,
            topic,
            purpose,
            is_member,
            is_archived,
            created=int(self._clock()),
            members=list(members),
            is_ext_shared=is_ext_shared,
        )
        self._channels[channel_id] = channel
        return channel

    def add_user(
        self, user_id: str, name: str, *, real_name: str = "", is_bot: bool = False, tz: str = "UTC",
        is_admin: bool = False, is_owner: bool = False, is_restricted: bool = False, is_ultra_restricted: bool = False,
    ) -> User:  # fmt: skip
        """`is_restricted` / `is_ultra_restricted`: a multi- / single-channel guest."""
        user = User(
            user_id, name, self.team_id, real_name, is_bot, tz, is_admin=is_admin, is_owner=is_owner,
            is_restricted=is_restricted, is_ultra_restricted=is_ultra_restricted,
        )  # fmt: skip
        self._users[user_id] = user
        return user

    def add_usergroup(self, group_id: str, users: list[str]) -> None:
        """A user group (S…) whose members usergroups.users.list returns."""
        self._usergroups[group_id] = list(users)

    def usergroup(self, group_id: Any) -> list[str] | None:
        return list(self._usergroups[group_id]) if isinstance(group_id, str) and group_id in self._usergroups else None

    def add_message(
        self,
        channel: str,
        text: str,
        *,
        user: str,
        thread_ts: str | None = None,
        blocks: list[Any] | None = None,
    ) -> Message:
        """A human's message, so that history and replies have something besides the bot."""
        if channel not in self._channels:
            raise KeyError(f"add_channel({channel!r}, ...) first")
        if user not in self._channels[channel].members:  # who speaks in a channel is in it
            self._channels[channel].members.append(user)
        message = Message(channel, self.next_ts(), text, user, self.team_id, blocks)
        self.store(message, thread_ts)
        return message

    def new_trigger_id(self) -> str:
        """A trigger id the sandbox checks: one views.open/push within `trigger_ttl` seconds."""
        trigger_id = f"{next(self._ids)}.{secrets.token_hex(6)}"
        self._triggers[trigger_id] = self._clock()
        return trigger_id

    def new_response_target(self, channel: str, user: str | None, message_ts: str | None) -> str:
        """The key of a new response URL that answers into `channel`."""
        key = secrets.token_hex(8)
        self._response_targets[key] = ResponseTarget(channel, user, message_ts)
        return key

    # ---- reading it back -------------------------------------------------------------------

    def channel(self, channel_id: str) -> Channel:
        return self._channels[channel_id]

    def channels(self) -> dict[str, Channel]:
        """Every channel by id, DMs the bot opened included."""
        return dict(self._channels)

    def messages(self, channel: str) -> list[Message]:
        """Every message in the channel, top-level and replies, oldest first."""
        return list(self._messages.get(channel, []))

    def message(self, channel: str, ts: str) -> Message:
        for message in self._messages.get(channel, []):
            if message.ts == ts:
                return message
        raise KeyError(f"no message {ts} in {channel}")

    def thread(self, channel: str, ts: str) -> list[Message]:
        """The parent message at `ts` and its replies, oldest first."""
        parent = self.message(channel, ts)
        return [parent] + self.replies(channel, ts)

    def ephemerals(self, channel: str | None = None, user: str | None = None) -> list[Ephemeral]:
        return [
            e
            for e in self._ephemerals
            if (channel is None or e.channel == channel) and (user is None or e.user == user)
        ]

    def views(self) -> list[dict[str, Any]]:
        """Every modal opened or pushed, as Slack last returned it, in order of their last change."""
        return [copy.deepcopy(self._views[view_id]) for view_id in self._view_order]

    def view(self, view_id: str) -> dict[str, Any]:
        return copy.deepcopy(self._views[view_id])

    def home(self, user_id: str) -> dict[str, Any]:
        """The App Home tab the bot last published for `user_id`, as Slack returned it."""
        return copy.deepcopy(self._homes[user_id])

    def homes(self) -> dict[str, dict[str, Any]]:
        return copy.deepcopy(self._homes)

    def last_view(self) -> dict[str, Any]:
        """The modal most recently opened, pushed or updated, as Slack returned it."""
        if not self._view_order:
            raise LookupError("no view was opened")
        return self.view(self._view_order[-1])

    # ---- Slack's rules, for the Web API methods ---------------------------------------------

    def next_ts(self) -> str:
        """Slack's "seconds.micros" message id, strictly increasing so order is total."""
        now_us = int(self._clock() * 1_000_000)
        self._last_ts_us = max(now_us, self._last_ts_us + 1)
        return f"{self._last_ts_us // 1_000_000}.{self._last_ts_us % 1_000_000:06d}"

    def store(self, message: Message, thread_ts: Any) -> None:
        """Add a message to its channel; with `thread_ts`, as a reply in that thread."""
        channel_messages = self._messages.setdefault(message.channel, [])
        if thread_ts:
            parent = self.find(message.channel, str(thread_ts), error="thread_not_found")
            # a reply to a reply joins the parent's thread, as in Slack
            message.thread_ts = parent.thread_ts if parent.is_reply and parent.thread_ts else parent.ts
            root = self.find(message.channel, message.thread_ts)
            root.thread_ts = root.ts
            root.reply_ts.append(message.ts)
            if message.user not in root.reply_users:
                root.reply_users.append(message.user)
        channel_messages.append(message)

    def remove(self, message: Message) -> None:
        self._messages[message.channel].remove(message)

    def add_ephemeral(self, ephemeral: Ephemeral) -> None:
        self._ephemerals.append(ephemeral)

    def find(self, channel: str, ts: str, *, error: str = "message_not_found") -> Message:
        """The message at `ts`, or Slack's refusal `error`."""
        for message in self._messages.get(channel, []):
            if message.ts == ts:
                return message
        raise SlackError(error)

    def replies(self, channel: str, ts: str) -> list[Message]:
        return [m for m in self._messages.get(channel, []) if m.is_reply and m.thread_ts == ts]

    def user(self, user_id: Any) -> User | None:
        return self._users.get(user_id) if isinstance(user_id, str) else None

    def response_target(self, key: str) -> ResponseTarget | None:
        return self._response_targets.get(key)

    def channel_for(self, params: Params, *, to_read: bool = False) -> Channel:
        """The channel an argument names: an id, a name, or a user id (opens the DM)."""
        ref = params.get("channel")
        if not isinstance(ref, str) or not ref:
            raise SlackError("channel_not_found")
        channel = self._channels.get(ref)
        if channel is None:
            name = ref.removeprefix("#")
            channel = next((c for c in self._channels.values() if c.name == name and not c.is_im), None)
        if channel is None and ref[:1] in ("U", "W") and ref in self._users:
            channel = self._channels.setdefault("D" + ref[1:], Channel("D" + ref[1:], ref, is_im=True))
        if channel is None:
            raise SlackError("channel_not_found")
        if channel.is_private and not channel.is_member:
            raise SlackError("channel_not_found")  # Slack hides private channels from non-members
        if to_read and not channel.is_member:
            raise SlackError("not_in_channel")
        return channel

    def postable(self, params: Params) -> Channel:
        """The channel the bot may post in, or why not."""
        channel = self.channel_for(params)
        if channel.is_archived:
            raise SlackError("is_archived")
        if not channel.is_member and "chat:write.public" not in self.scopes:
            raise SlackError("not_in_channel")
        return channel

    def exchange_trigger(self, params: Params) -> None:
        """Spend the call's trigger id: once, and within `trigger_ttl` of its issue."""
        trigger_id = params.get("trigger_id") or params.get("interactivity_pointer")
        if not isinstance(trigger_id, str) or not trigger_id:
            raise SlackError("invalid_arguments", messages=["[ERROR] missing required field: trigger_id"])
        if trigger_id in self._exchanged:
            raise SlackError("exchanged_trigger_id")
        issued = self._triggers.get(trigger_id)
        if issued is not None and self._clock() - issued > self.trigger_ttl:
            raise SlackError("expired_trigger_id")
        self._exchanged.add(trigger_id)

    def new_view_id(self, *, root: bool) -> str:
        view_id = f"V{next(self._ids):08d}"
        if root:
            self._root_view_id = view_id
        return view_id

    @property
    def root_view_id(self) -> str | None:
        return self._root_view_id

    @property
    def latest_view_id(self) -> str | None:
        return self._view_order[-1] if self._view_order else None

    def find_view(self, *, view_id: str | None = None, external_id: str | None = None) -> dict[str, Any] | None:
        """The stored view (not a copy) by its id or its external_id."""
        if view_id:
            return self._views.get(view_id)
        return next((v for v in self._views.values() if v.get("external_id") == external_id), None)

    def close_view(self, view_id: str) -> None:
        """The person submitted or closed the modal: as in Slack, a later views.update finds nothing."""
        self._closed_views.add(view_id)

    def is_closed(self, view_id: str) -> bool:
        return view_id in self._closed_views

    def publish_home(self, user_id: str, view: Mapping[str, Any]) -> dict[str, Any]:
        previous = self._homes.get(user_id)
        view_id = previous["id"] if previous else f"V{next(self._ids):08d}"
        stored = {
            "id": view_id, "team_id": self.team_id, "type": "home", "blocks": copy.deepcopy(view.get("blocks", [])),
            "private_metadata": view.get("private_metadata", ""), "callback_id": view.get("callback_id", ""),
            "external_id": view.get("external_id", ""), "state": {"values": {}},
            "hash": f"{int(self._clock())}.{secrets.token_hex(4)}", "app_id": self.app_id, "bot_id": self.bot_id,
        }  # fmt: skip
        self._homes[user_id] = stored
        return copy.deepcopy(stored)

    def view_state(self, view_id: str) -> dict[str, Any]:
        """The stored view's typed state (not a copy): what `type_into` writes."""
        return self._views[view_id]["state"]["values"]

    def save_view(self, view: Mapping[str, Any], *, view_id: str, root: str, previous: str | None) -> dict[str, Any]:
        """Store the view as Slack returns it (a new hash each time) and return a copy.

        As in Slack, what was typed into an input survives a views.update that keeps the input's
        block_id and action_id (its new initial_value does not replace it)."""
        kept: dict[str, Any] = {}
        old = self._views.get(view_id)
        if old is not None:
            inputs = {
                (b.get("block_id"), (b.get("element") or {}).get("action_id"))
                for b in view.get("blocks", []) if isinstance(b, Mapping) and b.get("type") == "input"
            }  # fmt: skip
            for block_id, actions in old["state"]["values"].items():
                kept[block_id] = {a: v for a, v in actions.items() if (block_id, a) in inputs}
            kept = {b: a for b, a in kept.items() if a}
        stored: dict[str, Any] = {
            "id": view_id,
            "team_id": self.team_id,
            "type": view.get("type"),
            "title": copy.deepcopy(view.get("title")),
            "blocks": copy.deepcopy(view.get("blocks", [])),
            "private_metadata": view.get("private_metadata", ""),
            "callback_id": view.get("callback_id", ""),
            "external_id": view.get("external_id", ""),
            "state": {"values": kept},
            "hash": f"{int(self._clock())}.{secrets.token_hex(4)}",
            "clear_on_close": flag(view.get("clear_on_close", False)),
            "notify_on_close": flag(view.get("notify_on_close", False)),
            "root_view_id": root,
            "previous_view_id": previous,
            "app_id": self.app_id,
            "bot_id": self.bot_id,
        }
        for button in ("submit", "close"):
            if button in view:
                stored[button] = copy.deepcopy(view[button])
        self._views[view_id] = stored
        if view_id in self._view_order:
            self._view_order.remove(view_id)
        self._view_order.append(view_id)
        return copy.deepcopy(stored)
