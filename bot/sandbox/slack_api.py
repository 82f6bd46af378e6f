"""A local stand-in for Slack's Web API, served over real HTTP on 127.0.0.1.

The real `slack_sdk` client (and so the real Bolt app) talks to it unchanged: point
`AsyncWebClient(token=..., base_url=sandbox.base_url)` at it. It keeps what Slack would keep
(channels, users, messages and threads, modals), refuses what Slack would refuse (Block Kit
limits, unknown channels, expired trigger ids), records every call, and can be scripted to fail,
rate-limit, stall or hold a method. See the package docstring for the API in one place.

Requests are read the three ways `slack_sdk` sends them: a JSON body (chat.*, views.*), a
form body (`api_call(..., data=...)`, where blocks and views arrive as JSON strings), and a
query string (GET methods such as conversations.info, and POST methods sent with `params=`
such as auth.test and conversations.join). A JSON string in `blocks`, `attachments`, `view` or
`metadata` is decoded, so a recorded call looks the same however it was sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar

from aiohttp import web

from bot.sandbox import checks

T = TypeVar("T")
Params = dict[str, Any]
Encoding = Literal["json", "form", "multipart", "query", "empty"]
Handler = Callable[[Params], dict[str, Any]]

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
# slack_sdk form posts carry these as JSON strings; decoded so every call records the same shape.
JSON_FIELDS: Final = ("blocks", "attachments", "view", "metadata")
RESPONSE_URL_METHOD: Final = "response_url"
DEFAULT_TOKEN: Final = "xoxb-sandbox-token"
DEFAULT_TEAM_ID: Final = "T0SANDBOX"
DEFAULT_BOT_USER_ID: Final = "U0SANDBOXBOT"
DEFAULT_BOT_ID: Final = "B0SANDBOX"
DEFAULT_APP_ID: Final = "A0SANDBOX"
DEFAULT_WAIT: Final = 5.0


class SlackError(Exception):
    """A Web API refusal, answered as Slack does: `{"ok": false, "error": ...}`."""

    def __init__(
        self,
        error: str,
        *,
        messages: tuple[str, ...] | list[str] = (),
        status: int = 200,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(error)
        self.error = error
        self.messages = tuple(messages)
        self.status = status
        self.headers = dict(headers or {})

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"ok": False, "error": self.error}
        if self.messages:
            body["response_metadata"] = {"messages": list(self.messages)}
        return body


@dataclass
class Call:
    """One request the sandbox received, refused ones included."""

    method: str
    params: Params
    http_method: str
    encoding: Encoding
    at: float
    token: str | None
    status: int = 0
    response: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == 200 and self.response.get("ok") is True

    @property
    def error(self) -> str | None:
        error = self.response.get("error")
        return error if isinstance(error, str) else None


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
            "is_shared": False,
            "is_ext_shared": False,
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


@dataclass(frozen=True)
class _Scripted:
    error: str
    status: int = 200
    retry_after: int | None = None
    messages: tuple[str, ...] = ()


@dataclass(frozen=True)
class _ResponseTarget:
    channel: str
    user: str | None
    message_ts: str | None


class Hold:
    """Keeps every call to one method waiting until released.

    Proves "acknowledge first, then work" without a clock: hold views.open, send the command,
    see the acknowledgement come back while the modal is still waiting, then release.
    """

    def __init__(self, method: str, on_release: Callable[[Hold], None]) -> None:
        self.method = method
        self.waiting = 0
        self._released = asyncio.Event()
        self._arrived = asyncio.Event()
        self._on_release = on_release

    def release(self) -> None:
        self._on_release(self)
        self._released.set()

    async def arrived(self, timeout: float = DEFAULT_WAIT) -> None:
        """Returns once a call to the method is being held."""
        await asyncio.wait_for(self._arrived.wait(), timeout)

    async def _pass(self) -> None:
        self.waiting += 1
        self._arrived.set()
        try:
            await self._released.wait()
        finally:
            self.waiting -= 1


def _flag(value: Any) -> bool:
    """slack_sdk sends booleans as "1"/"0" in query strings and forms, true/false in JSON."""
    if isinstance(value, str):
        return value.lower() in ("1", "true")
    return bool(value)


def _decode_json_fields(params: Params) -> Params:
    for name in JSON_FIELDS:
        value = params.get(name)
        if isinstance(value, str):
            # left as a string when it is not JSON: the method answers invalid_blocks_format / invalid_arguments
            with contextlib.suppress(json.JSONDecodeError):
                params[name] = json.loads(value)
    return params


async def _read_params(request: web.Request) -> tuple[Params, Encoding, str | None]:
    """The call's arguments however slack_sdk sent them, and the token (header or argument)."""
    params: Params = dict(request.query)
    encoding: Encoding = "query" if params else "empty"
    if request.method == "POST" and request.can_read_body:
        content_type = request.content_type
        if content_type == "application/json":
            raw = await request.text()
            if raw.strip():
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError as error:
                    raise SlackError("invalid_json") from error
                if not isinstance(body, dict):
                    raise SlackError("invalid_json")
                params |= body
                encoding = "json"
        elif content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            form = await request.post()
            for key, value in form.items():
                params[key] = value if isinstance(value, str) else getattr(value, "filename", "(file)")
            encoding = "form" if content_type.endswith("urlencoded") else "multipart"
    token: str | None = None
    authorization = request.headers.get("Authorization", "")
    if authorization.startswith("Bearer "):
        token = authorization.removeprefix("Bearer ").strip()
    argument = params.pop("token", None)
    if token is None and isinstance(argument, str):
        token = argument
    return _decode_json_fields(params), encoding, token


class SlackSandbox:
    """Slack's Web API, locally. Use as `async with SlackSandbox() as sandbox:` or start()/stop()."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        team_id: str = DEFAULT_TEAM_ID,
        team: str = "Sandbox",
        bot_user_id: str = DEFAULT_BOT_USER_ID,
        bot_id: str = DEFAULT_BOT_ID,
        app_id: str = DEFAULT_APP_ID,
        scopes: tuple[str, ...] = DEFAULT_SCOPES,
        trigger_ttl: float = 3.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.token = token
        self.team_id = team_id
        self.team = team
        self.bot_user_id = bot_user_id
        self.bot_id = bot_id
        self.app_id = app_id
        self.scopes = scopes
        self.trigger_ttl = trigger_ttl
        self._clock = clock
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._changed: asyncio.Condition | None = None
        self._channels: dict[str, Channel] = {}
        self._users: dict[str, User] = {}
        self._usergroups: dict[str, list[str]] = {}
        self._add_bot_user()
        self._handlers: dict[str, Handler] = {
            "auth.test": self._auth_test,
            "chat.postMessage": self._chat_post_message,
            "chat.update": self._chat_update,
            "chat.postEphemeral": self._chat_post_ephemeral,
            "views.open": self._views_open,
            "views.push": self._views_push,
            "views.update": self._views_update,
            "conversations.info": self._conversations_info,
            "conversations.join": self._conversations_join,
            "conversations.history": self._conversations_history,
            "conversations.replies": self._conversations_replies,
            "users.info": self._users_info,
            "usergroups.users.list": self._usergroups_users_list,
            "chat.delete": self._chat_delete,
            "chat.getPermalink": self._chat_get_permalink,
        }
        self._reset_state()

    def _add_bot_user(self) -> None:
        self._users[self.bot_user_id] = User(self.bot_user_id, "incident-memory", self.team_id, is_bot=True)

    def _reset_state(self) -> None:
        self._calls: list[Call] = []
        self._messages: dict[str, list[Message]] = {}
        self._ephemerals: list[Ephemeral] = []
        self._views: dict[str, dict[str, Any]] = {}
        self._view_order: list[str] = []
        self._root_view_id: str | None = None
        self._triggers: dict[str, float] = {}
        self._exchanged: set[str] = set()
        self._response_urls: dict[str, _ResponseTarget] = {}
        self._scripted: dict[str, deque[_Scripted]] = {}
        self._delays: dict[str, float] = {}
        self._holds: dict[str, Hold] = {}
        self._last_ts_us = 0
        self._ids = itertools.count(1)

    # ---- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self._handle_api)
        app.router.add_post("/response/{key}", self._handle_response_url)
        self._changed = asyncio.Condition()
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        for hold in list(self._holds.values()):
            hold.release()  # a held request would otherwise keep the server from closing
        if self._runner is not None:
            await self._runner.cleanup()
        self._runner = None
        self._port = None

    async def __aenter__(self) -> SlackSandbox:
        await self.start()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        """The server's root, e.g. http://127.0.0.1:54321/."""
        if self._port is None:
            raise RuntimeError("the sandbox is not started")
        return f"http://127.0.0.1:{self._port}/"

    @property
    def base_url(self) -> str:
        """The Web API base for `AsyncWebClient(base_url=...)`; ends with "/api/"."""
        return self.url + "api/"

    def reset(self) -> None:
        """Forget calls, messages, views and scripts; keep channels and users."""
        for hold in list(self._holds.values()):
            hold.release()
        self._reset_state()

    # ---- the workspace ---------------------------------------------------------------------

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
    ) -> Channel:
        channel = Channel(
            channel_id, name, is_private, topic, purpose, is_member, is_archived, created=int(self._clock())
        )
        self._channels[channel_id] = channel
        return channel

    def channel(self, channel_id: str) -> Channel:
        return self._channels[channel_id]

    def channels(self) -> dict[str, Channel]:
        """Every channel by id, DMs the bot opened included."""
        return dict(self._channels)

    def add_user(
        self, user_id: str, name: str, *, real_name: str = "", is_bot: bool = False, tz: str = "UTC",
        is_admin: bool = False, is_owner: bool = False,
    ) -> User:  # fmt: skip
        user = User(user_id, name, self.team_id, real_name, is_bot, tz, is_admin=is_admin, is_owner=is_owner)
        self._users[user_id] = user
        return user

    def add_usergroup(self, group_id: str, users: list[str]) -> None:
        """A user group (S…) whose members usergroups.users.list returns."""
        self._usergroups[group_id] = list(users)

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
        message = Message(channel, self._next_ts(), text, user, self.team_id, blocks)
        self._store(message, thread_ts)
        return message

    def new_trigger_id(self) -> str:
        """A trigger id the sandbox checks: one views.open/push within `trigger_ttl` seconds."""
        trigger_id = f"{next(self._ids)}.{secrets.token_hex(6)}"
        self._triggers[trigger_id] = self._clock()
        return trigger_id

    def response_url(self, channel: str, *, user: str | None = None, message_ts: str | None = None) -> str:
        """A response_url on the sandbox, as Slack puts in commands and block actions.

        What Bolt's `respond()` posts there lands in this channel: `in_channel` as a message,
        otherwise as an ephemeral for `user`; `replace_original`/`delete_original` act on
        `message_ts`.
        """
        key = secrets.token_hex(8)
        self._response_urls[key] = _ResponseTarget(channel, user, message_ts)
        return f"{self.url}response/{key}"

    # ---- scripting -------------------------------------------------------------------------

    def fail_next(
        self,
        method: str,
        error: str,
        *,
        times: int = 1,
        status: int = 200,
        messages: tuple[str, ...] = (),
    ) -> None:
        """The next `times` calls to `method` answer `{"ok": false, "error": error}`."""
        queue = self._scripted.setdefault(method, deque())
        queue.extend(_Scripted(error, status, None, messages) for _ in range(times))

    def rate_limit_next(self, method: str, *, retry_after: int = 1, times: int = 1) -> None:
        """The next `times` calls to `method` answer HTTP 429 with `Retry-After: retry_after`."""
        queue = self._scripted.setdefault(method, deque())
        queue.extend(_Scripted("ratelimited", 429, retry_after) for _ in range(times))

    def handle(self, method: str, handler: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        """Answer another Web API method: `handler(params)` returns the body without "ok"
        (raise SlackError to refuse). Unhandled methods answer unknown_method."""
        self._handlers[method] = handler

    def delay(self, method: str, seconds: float) -> None:
        """Every call to `method` waits `seconds` before it is answered; 0 clears."""
        if seconds > 0:
            self._delays[method] = seconds
        else:
            self._delays.pop(method, None)

    def hold(self, method: str) -> Hold:
        """Calls to `method` wait until the returned Hold is released."""
        if method in self._holds:
            raise ValueError(f"{method} is already held")
        hold = Hold(method, self._unhold)
        self._holds[method] = hold
        return hold

    def _unhold(self, hold: Hold) -> None:
        if self._holds.get(hold.method) is hold:
            del self._holds[hold.method]

    # ---- inspection ------------------------------------------------------------------------

    def calls(self, method: str | None = None) -> list[Call]:
        """Every call received, in order; only `method`'s if given."""
        return [c for c in self._calls if method is None or c.method == method]

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
        return [parent] + [m for m in self._messages[channel] if m.is_reply and m.thread_ts == ts]

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

    def last_view(self) -> dict[str, Any]:
        """The modal most recently opened, pushed or updated, as Slack returned it."""
        if not self._view_order:
            raise LookupError("no view was opened")
        return self.view(self._view_order[-1])

    async def wait_for(
        self,
        what: str | Callable[[Call], bool],
        *,
        count: int = 1,
        timeout: float = DEFAULT_WAIT,
    ) -> Call:
        """The `count`-th call (already received or still to come) to a method or matching a test.

        Calls are matched once answered, so `call.response` is final.
        """
        match: Callable[[Call], bool] = (lambda c: c.method == what) if isinstance(what, str) else what

        def probe() -> Call | None:
            matched = [c for c in self._calls if match(c)]
            return matched[count - 1] if len(matched) >= count else None

        label = what if isinstance(what, str) else getattr(what, "__name__", "predicate")
        return await self._wait(probe, timeout, f"call #{count} of {label}")

    async def wait_for_message(
        self,
        channel: str,
        where: Callable[[Message], bool] = lambda _m: True,
        *,
        timeout: float = DEFAULT_WAIT,
    ) -> Message:
        """The first message in the channel (already there or still to come) that matches."""

        def probe() -> Message | None:
            return next((m for m in self._messages.get(channel, []) if where(m)), None)

        return await self._wait(probe, timeout, f"a message in {channel}")

    async def _wait(self, probe: Callable[[], T | None], timeout: float, what: str) -> T:
        if self._changed is None:
            raise RuntimeError("the sandbox is not started")
        changed = self._changed

        async def until() -> T:
            async with changed:
                while (found := probe()) is None:
                    await changed.wait()
                return found

        try:
            return await asyncio.wait_for(until(), timeout)
        except TimeoutError:
            seen = ", ".join(f"{c.method}={c.error or 'ok'}" for c in self._calls) or "none"
            raise TimeoutError(f"waited {timeout} s for {what}; calls so far: {seen}") from None

    async def _notify(self) -> None:
        if self._changed is not None:
            async with self._changed:
                self._changed.notify_all()

    # ---- HTTP ------------------------------------------------------------------------------

    async def _handle_api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        call = Call(method, {}, request.method, "empty", self._clock(), None)
        headers = {"x-oauth-scopes": ",".join(self.scopes), "x-accepted-oauth-scopes": ""}
        try:
            call.params, call.encoding, call.token = await _read_params(request)
            await self._stall(method)
            self._authenticate(call.token)
            self._raise_scripted(method)
            handler = self._handlers.get(method)
            if handler is None:
                raise SlackError("unknown_method")
            call.status, call.response = 200, {"ok": True} | handler(call.params)
        except SlackError as refusal:
            call.status, call.response = refusal.status, refusal.body()
            headers |= refusal.headers
        self._calls.append(call)
        await self._notify()
        return web.json_response(call.response, status=call.status, headers=headers)

    async def _stall(self, method: str) -> None:
        hold = self._holds.get(method)
        if hold is not None:
            await hold._pass()
        seconds = self._delays.get(method)
        if seconds:
            await asyncio.sleep(seconds)

    def _authenticate(self, token: str | None) -> None:
        if not token:
            raise SlackError("not_authed")
        if token != self.token:
            raise SlackError("invalid_auth")

    def _raise_scripted(self, method: str) -> None:
        queue = self._scripted.get(method)
        if not queue:
            return
        scripted = queue.popleft()
        headers = {"Retry-After": str(scripted.retry_after)} if scripted.retry_after is not None else None
        raise SlackError(scripted.error, messages=scripted.messages, status=scripted.status, headers=headers)

    async def _handle_response_url(self, request: web.Request) -> web.Response:
        """Slack's response_url: JSON in, plain "ok" (or the error as text) out."""
        call = Call(RESPONSE_URL_METHOD, {}, request.method, "json", self._clock(), None)
        target = self._response_urls.get(request.match_info["key"])
        try:
            if target is None:
                raise SlackError("expired_url", status=404)
            try:
                payload = await request.json()
            except json.JSONDecodeError as error:
                raise SlackError("invalid_payload", status=400) from error
            if not isinstance(payload, dict):
                raise SlackError("invalid_payload", status=400)
            call.params = _decode_json_fields(payload)
            self._respond(target, call.params)
            call.status, call.response = 200, {"ok": True}
        except SlackError as refusal:
            call.status = refusal.status if refusal.status != 200 else 400
            call.response = refusal.body()
        self._calls.append(call)
        await self._notify()
        text = "ok" if call.status == 200 else str(call.error)
        return web.Response(text=text, status=call.status)

    def _respond(self, target: _ResponseTarget, payload: Params) -> None:
        if _flag(payload.get("delete_original")):
            if target.message_ts is None:
                raise SlackError("no_original_message")
            self._messages[target.channel].remove(self._find(target.channel, target.message_ts))
            return
        _check_message(payload)
        text, blocks = str(payload.get("text") or ""), payload.get("blocks")
        if _flag(payload.get("replace_original")):
            if target.message_ts is None:
                raise SlackError("no_original_message")
            original = self._find(target.channel, target.message_ts)
            original.text, original.blocks, original.edited_ts = text, blocks, self._next_ts()
        elif payload.get("response_type") == "in_channel":
            message = Message(
                target.channel, self._next_ts(), text, self.bot_user_id, self.team_id, blocks, bot_id=self.bot_id
            )
            self._store(message, payload.get("thread_ts"))
        else:
            user = target.user or ""
            self._ephemerals.append(
                Ephemeral(target.channel, user, self._next_ts(), text, blocks, payload.get("thread_ts"))
            )

    # ---- state helpers ---------------------------------------------------------------------

    def _next_ts(self) -> str:
        """Slack's "seconds.micros" message id, strictly increasing so order is total."""
        now_us = int(self._clock() * 1_000_000)
        self._last_ts_us = max(now_us, self._last_ts_us + 1)
        return f"{self._last_ts_us // 1_000_000}.{self._last_ts_us % 1_000_000:06d}"

    def _store(self, message: Message, thread_ts: Any) -> None:
        channel_messages = self._messages.setdefault(message.channel, [])
        if thread_ts:
            parent = self._find(message.channel, str(thread_ts), error="thread_not_found")
            # a reply to a reply joins the parent's thread, as in Slack
            message.thread_ts = parent.thread_ts if parent.is_reply and parent.thread_ts else parent.ts
            root = self._find(message.channel, message.thread_ts)
            root.thread_ts = root.ts
            root.reply_ts.append(message.ts)
            if message.user not in root.reply_users:
                root.reply_users.append(message.user)
        channel_messages.append(message)

    def _find(self, channel: str, ts: str, *, error: str = "message_not_found") -> Message:
        for message in self._messages.get(channel, []):
            if message.ts == ts:
                return message
        raise SlackError(error)

    def _channel_for(self, params: Params, *, to_read: bool = False) -> Channel:
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

    def _postable(self, params: Params) -> Channel:
        channel = self._channel_for(params)
        if channel.is_archived:
            raise SlackError("is_archived")
        if not channel.is_member and "chat:write.public" not in self.scopes:
            raise SlackError("not_in_channel")
        return channel

    def _exchange_trigger(self, params: Params) -> None:
        trigger_id = params.get("trigger_id") or params.get("interactivity_pointer")
        if not isinstance(trigger_id, str) or not trigger_id:
            raise SlackError("invalid_arguments", messages=["[ERROR] missing required field: trigger_id"])
        if trigger_id in self._exchanged:
            raise SlackError("exchanged_trigger_id")
        issued = self._triggers.get(trigger_id)
        if issued is not None and self._clock() - issued > self.trigger_ttl:
            raise SlackError("expired_trigger_id")
        self._exchanged.add(trigger_id)

    def _new_view(self, view: Mapping[str, Any], *, view_id: str, root: str, previous: str | None) -> dict[str, Any]:
        stored: dict[str, Any] = {
            "id": view_id,
            "team_id": self.team_id,
            "type": view.get("type"),
            "title": copy.deepcopy(view.get("title")),
            "blocks": copy.deepcopy(view.get("blocks", [])),
            "private_metadata": view.get("private_metadata", ""),
            "callback_id": view.get("callback_id", ""),
            "external_id": view.get("external_id", ""),
            "state": {"values": {}},
            "hash": f"{int(self._clock())}.{secrets.token_hex(4)}",
            "clear_on_close": _flag(view.get("clear_on_close", False)),
            "notify_on_close": _flag(view.get("notify_on_close", False)),
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

    # ---- Web API methods -------------------------------------------------------------------

    def _auth_test(self, _params: Params) -> dict[str, Any]:
        return {
            "url": f"https://{self.team.lower()}.slack.com/",
            "team": self.team,
            "user": "incident-memory",
            "team_id": self.team_id,
            "user_id": self.bot_user_id,
            "bot_id": self.bot_id,
            "is_enterprise_install": False,
        }

    def _chat_post_message(self, params: Params) -> dict[str, Any]:
        channel = self._postable(params)
        _check_message(params)
        message = Message(
            channel.id,
            self._next_ts(),
            str(params.get("text") or ""),
            self.bot_user_id,
            self.team_id,
            params.get("blocks"),
            bot_id=self.bot_id,
            attachments=params.get("attachments"),
            metadata=params.get("metadata"),
            reply_broadcast=_flag(params.get("reply_broadcast", False)),
        )
        self._store(message, params.get("thread_ts"))
        return {"channel": channel.id, "ts": message.ts, "message": message.as_slack()}

    def _chat_update(self, params: Params) -> dict[str, Any]:
        channel = self._channel_for(params)
        message = self._find(channel.id, str(params.get("ts", "")))
        if message.bot_id != self.bot_id:
            raise SlackError("cant_update_message")
        _check_message(params)
        if "text" in params:
            message.text = str(params["text"])
        if "blocks" in params:
            message.blocks = params["blocks"]
        if "attachments" in params:
            message.attachments = params["attachments"]
        message.edited_ts = self._next_ts()
        return {"channel": channel.id, "ts": message.ts, "text": message.text, "message": message.as_slack()}

    def _chat_delete(self, params: Params) -> dict[str, Any]:
        channel = self._channel_for(params)
        message = self._find(channel.id, str(params.get("ts", "")))
        if message.bot_id != self.bot_id:
            raise SlackError("cant_delete_message")
        self._messages[channel.id].remove(message)
        return {"channel": channel.id, "ts": message.ts}

    def _chat_get_permalink(self, params: Params) -> dict[str, Any]:
        channel = self._channel_for(params)
        message = self._find(channel.id, str(params.get("message_ts", "")))
        link = f"https://{self.team.lower()}.slack.com/archives/{channel.id}/p{message.ts.replace('.', '')}"
        return {"channel": channel.id, "permalink": link}

    def _chat_post_ephemeral(self, params: Params) -> dict[str, Any]:
        channel = self._postable(params)
        user = params.get("user")
        if not isinstance(user, str) or user not in self._users:
            raise SlackError("user_not_found")
        _check_message(params)
        ephemeral = Ephemeral(
            channel.id,
            user,
            self._next_ts(),
            str(params.get("text") or ""),
            params.get("blocks"),
            params.get("thread_ts"),
        )
        self._ephemerals.append(ephemeral)
        return {"message_ts": ephemeral.ts}

    def _views_open(self, params: Params) -> dict[str, Any]:
        view = _checked_view(params)
        self._exchange_trigger(params)
        view_id = f"V{next(self._ids):08d}"
        self._root_view_id = view_id
        return {"view": self._new_view(view, view_id=view_id, root=view_id, previous=None)}

    def _views_push(self, params: Params) -> dict[str, Any]:
        view = _checked_view(params)
        self._exchange_trigger(params)
        view_id = f"V{next(self._ids):08d}"
        previous = self._view_order[-1] if self._view_order else None
        root = self._root_view_id or view_id
        return {"view": self._new_view(view, view_id=view_id, root=root, previous=previous)}

    def _views_update(self, params: Params) -> dict[str, Any]:
        view = _checked_view(params)
        view_id, external_id = params.get("view_id"), params.get("external_id")
        if view_id:
            current = self._views.get(str(view_id))
        elif external_id:
            current = next((v for v in self._views.values() if v.get("external_id") == external_id), None)
        else:
            raise SlackError("invalid_arguments", messages=["[ERROR] view_id or external_id is required"])
        if current is None:
            raise SlackError("not_found")
        wanted_hash = params.get("hash")
        if wanted_hash and wanted_hash != current["hash"]:
            raise SlackError("hash_conflict")
        updated = self._new_view(
            view, view_id=current["id"], root=current["root_view_id"], previous=current["previous_view_id"]
        )
        return {"view": updated}

    def _conversations_info(self, params: Params) -> dict[str, Any]:
        return {"channel": self._channel_for(params).as_slack()}

    def _conversations_join(self, params: Params) -> dict[str, Any]:
        channel = self._channel_for(params)
        if channel.is_private or channel.is_im:
            raise SlackError("method_not_supported_for_channel_type")
        if channel.is_archived:
            raise SlackError("is_archived")
        already = channel.is_member
        channel.is_member = True
        body: dict[str, Any] = {"channel": channel.as_slack()}
        if already:
            body["warning"] = "already_in_channel"
            body["response_metadata"] = {"warnings": ["already_in_channel"]}
        return body

    def _conversations_history(self, params: Params) -> dict[str, Any]:
        channel = self._channel_for(params, to_read=True)
        inclusive = _flag(params.get("inclusive", False))
        oldest, latest = float(params.get("oldest") or 0), float(params.get("latest") or "inf")

        def within(ts: float) -> bool:
            if inclusive:
                return oldest <= ts <= latest
            return oldest < ts < latest

        top_level = [
            m.as_slack()
            for m in reversed(self._messages.get(channel.id, []))
            if (not m.is_reply or m.reply_broadcast) and within(float(m.ts))
        ]
        return _page(top_level, params) | {"pin_count": 0}

    def _conversations_replies(self, params: Params) -> dict[str, Any]:
        channel = self._channel_for(params, to_read=True)
        parent = self._find(channel.id, str(params.get("ts", "")), error="thread_not_found")
        if parent.is_reply:
            return _page([parent.as_slack()], params)
        replies = [m for m in self._messages[channel.id] if m.is_reply and m.thread_ts == parent.ts]
        return _page([parent.as_slack()] + [m.as_slack() for m in replies], params)

    def _users_info(self, params: Params) -> dict[str, Any]:
        user = self._users.get(str(params.get("user", "")))
        if user is None:
            raise SlackError("user_not_found")
        return {"user": user.as_slack()}


    def _usergroups_users_list(self, params: Params) -> dict[str, Any]:
        if "usergroups:read" not in self.scopes:
            raise SlackError("missing_scope")
        group = self._usergroups.get(str(params.get("usergroup", "")))
        if group is None:
            raise SlackError("no_such_subteam")
        return {"users": list(group)}


def _page(items: list[dict[str, Any]], params: Params) -> dict[str, Any]:
    """Cursor pagination as Slack does it: `limit` (default 100, at most 999) and an opaque cursor."""
    try:
        limit = min(max(int(params.get("limit") or 100), 1), 999)
        start = int(params.get("cursor") or 0)
    except ValueError as error:
        raise SlackError("invalid_cursor") from error
    page = items[start : start + limit]
    more = start + limit < len(items)
    return {
        "messages": page,
        "has_more": more,
        "response_metadata": {"next_cursor": str(start + limit) if more else ""},
    }


def _check_message(params: Params) -> None:
    """What Slack refuses in a message's text and blocks."""
    text, blocks, attachments = params.get("text"), params.get("blocks"), params.get("attachments")
    if isinstance(blocks, str):
        raise SlackError("invalid_blocks_format")
    if blocks is not None:
        problems = checks.check_blocks(blocks, limit=checks.MAX_MESSAGE_BLOCKS)
        if problems:
            raise SlackError("invalid_blocks", messages=problems)
        if checks.blocks_text_too_long(blocks):
            raise SlackError("msg_blocks_too_long")
    if not text and not blocks and not attachments:
        raise SlackError("no_text")
    if text is not None and len(str(text)) > checks.MAX_MESSAGE_TEXT:
        raise SlackError("msg_too_long")


def _checked_view(params: Params) -> Mapping[str, Any]:
    """The `view` argument, or the refusal Slack gives it."""
    view = params.get("view")
    if not isinstance(view, Mapping):
        raise SlackError("invalid_arguments", messages=["[ERROR] view must be a JSON object [json-pointer:/view]"])
    problems = checks.check_view_arguments(view)
    if problems:
        raise SlackError("invalid_arguments", messages=problems)
    problems = checks.check_blocks(view.get("blocks", []), limit=checks.MAX_VIEW_BLOCKS, in_view=True)
    if problems:
        raise SlackError("invalid_blocks", messages=problems)
    return view
