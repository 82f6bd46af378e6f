"""Faults scripted into the sandbox: refusals, rate limits, delays and holds, per method."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.sandbox.calls import SlackError

DEFAULT_WAIT: Final = 5.0


@dataclass(frozen=True)
class _Scripted:
    error: str
    status: int = 200
    retry_after: int | None = None
    messages: tuple[str, ...] = ()


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


class Script:
    """What the next calls to each method meet before the method itself runs."""

    def __init__(self) -> None:
        self._refusals: dict[str, deque[_Scripted]] = {}
        self._delays: dict[str, float] = {}
        self._holds: dict[str, Hold] = {}

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
        queue = self._refusals.setdefault(method, deque())
        queue.extend(_Scripted(error, status, None, messages) for _ in range(times))

    def rate_limit_next(self, method: str, *, retry_after: int = 1, times: int = 1) -> None:
        """The next `times` calls to `method` answer HTTP 429 with `Retry-After: retry_after`."""
        queue = self._refusals.setdefault(method, deque())
        queue.extend(_Scripted("ratelimited", 429, retry_after) for _ in range(times))

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

    def release_all(self) -> None:
        """Let every held call through: a held request would keep the server from closing."""
        for hold in list(self._holds.values()):
            hold.release()

    async def stall(self, method: str) -> None:
        """Wait as scripted: while the method is held, then its delay."""
        hold = self._holds.get(method)
        if hold is not None:
            await hold._pass()
        seconds = self._delays.get(method)
        if seconds:
            await asyncio.sleep(seconds)

    def raise_scripted(self, method: str) -> None:
        """Raise the next scripted refusal of the method, if any."""
        queue = self._refusals.get(method)
        if not queue:
            return
        scripted = queue.popleft()
        headers = {"Retry-After": str(scripted.retry_after)} if scripted.retry_after is not None else None
        raise SlackError(scripted.error, messages=scripted.messages, status=scripted.status, headers=headers)

    def _unhold(self, hold: Hold) -> None:
        if self._holds.get(hold.method) is hold:
            del self._holds[hold.method]
