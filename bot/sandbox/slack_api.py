"""A local stand-in for Slack's Web API, served over real HTTP on 127.0.0.1.

The real `slack_sdk` client (and so the real Bolt app) talks to it unchanged: point
`AsyncWebClient(token=..., base_url=sandbox.base_url)` at it. It keeps what Slack would keep
(the workspace: workspace.py), answers the methods the bot calls (methods.py) and refuses what
Slack would refuse (Block Kit limits: checks.py), records every call (calls.py), and can be
scripted to fail, rate-limit, stall or hold a method (scripting.py). See the package docstring
for the API in one place.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

from aiohttp import web

from bot.sandbox.calls import Call, SlackError, read_params, read_response_payload
from bot.sandbox.methods import METHODS, respond
from bot.sandbox.model import Message
from bot.sandbox.payloads import form_values
from bot.sandbox.scripting import DEFAULT_WAIT, Hold, Script
from bot.sandbox.workspace import (
    DEFAULT_APP_ID,
    DEFAULT_BOT_ID,
    DEFAULT_BOT_USER_ID,
    DEFAULT_SCOPES,
    DEFAULT_TEAM_ID,
    Workspace,
)

T = TypeVar("T")
Handler = Callable[[dict[str, Any]], dict[str, Any]]

RESPONSE_URL_METHOD: Final = "response_url"
DEFAULT_TOKEN: Final = "xoxb-sandbox-token"


class SlackSandbox(Workspace):
    """Slack's Web API, locally: the workspace served over HTTP, its calls recorded and scriptable.

    Use as `async with SlackSandbox() as sandbox:` or start()/stop(). The setting-up and
    reading-back methods (add_channel, messages, last_view, ...) are the Workspace's.
    """

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
        super().__init__(
            team_id=team_id,
            team=team,
            bot_user_id=bot_user_id,
            bot_id=bot_id,
            app_id=app_id,
            scopes=scopes,
            trigger_ttl=trigger_ttl,
            clock=clock,
        )
        self.token = token
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._changed: asyncio.Condition | None = None
        self._handlers: dict[str, Handler] = {name: functools.partial(method, self) for name, method in METHODS.items()}
        self._calls: list[Call] = []
        self._script = Script()

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
        self._script.release_all()
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
        self._script.release_all()
        self._script = Script()
        self._calls = []
        self._forget_activity()

    def type_into(self, view_id: str, answers: Mapping[str, Any]) -> None:
        """A person types into an open modal without submitting (block_id → answer, as
        `form_values` takes it): Slack keeps it as the view's state."""
        typed = form_values(self.view(view_id), answers)
        self.view_state(view_id).update({b: v for b, v in typed.items() if b in answers})

    def response_url(self, channel: str, *, user: str | None = None, message_ts: str | None = None) -> str:
        """A response_url on the sandbox, as Slack puts in commands and block actions.

        What Bolt's `respond()` posts there lands in this channel: `in_channel` as a message,
        otherwise as an ephemeral for `user`; `replace_original`/`delete_original` act on
        `message_ts`.
        """
        return f"{self.url}response/{self.new_response_target(channel, user, message_ts)}"

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
        self._script.fail_next(method, error, times=times, status=status, messages=messages)

    def rate_limit_next(self, method: str, *, retry_after: int = 1, times: int = 1) -> None:
        """The next `times` calls to `method` answer HTTP 429 with `Retry-After: retry_after`."""
        self._script.rate_limit_next(method, retry_after=retry_after, times=times)

    def delay(self, method: str, seconds: float) -> None:
        """Every call to `method` waits `seconds` before it is answered; 0 clears."""
        self._script.delay(method, seconds)

    def hold(self, method: str) -> Hold:
        """Calls to `method` wait until the returned Hold is released."""
        return self._script.hold(method)

    def handle(self, method: str, handler: Handler) -> None:
        """Answer another Web API method: `handler(params)` returns the body without "ok"
        (raise SlackError to refuse). Unhandled methods answer unknown_method."""
        self._handlers[method] = handler

    # ---- inspection ------------------------------------------------------------------------

    def calls(self, method: str | None = None) -> list[Call]:
        """Every call received, in order; only `method`'s if given."""
        return [c for c in self._calls if method is None or c.method == method]

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
            return next((m for m in self.messages(channel) if where(m)), None)

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
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation
            # (Ctrl-C, SIGTERM) that arrives as the awaited call completes
            async with asyncio.timeout(timeout):
                return await until()
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
            call.params, call.encoding, call.token = await read_params(request)
            await self._script.stall(method)
            self._authenticate(call.token)
            self._script.raise_scripted(method)
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

    def _authenticate(self, token: str | None) -> None:
        if not token:
            raise SlackError("not_authed")
        if token != self.token:
            raise SlackError("invalid_auth")

    async def _handle_response_url(self, request: web.Request) -> web.Response:
        """Slack's response_url: JSON in, plain "ok" (or the error as text) out."""
        call = Call(RESPONSE_URL_METHOD, {}, request.method, "json", self._clock(), None)
        target = self.response_target(request.match_info["key"])
        try:
            if target is None:
                raise SlackError("expired_url", status=404)
            call.params = await read_response_payload(request)
            respond(self, target, call.params)
            call.status, call.response = 200, {"ok": True}
        except SlackError as refusal:
            call.status = refusal.status if refusal.status != 200 else 400
            call.response = refusal.body()
        self._calls.append(call)
        await self._notify()
        text = "ok" if call.status == 200 else str(call.error)
        return web.Response(text=text, status=call.status)
