"""Work that outlives a Slack request (recall, investigation, saving after a slow ack).

Bolt's lazy listeners start tasks nobody waits for; these are tracked, so shutdown can wait for
them and a failure is logged instead of vanishing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Coroutine
from typing import Any

log = logging.getLogger(__name__)


class BackgroundWork:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, work: Coroutine[Any, Any, Any], *, name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background work %s failed", task.get_name(), exc_info=task.exception())

    @property
    def pending(self) -> int:
        return len(self._tasks)

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait for the work in flight (and work it starts), up to `timeout` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self._tasks:
            remaining = deadline - loop.time()
            if remaining <= 0:
                log.warning("shutdown: %d background tasks still running; cancelling", len(self._tasks))
                for task in list(self._tasks):
                    task.cancel()
                break
            await asyncio.wait(list(self._tasks), timeout=remaining)


async def to_the_end(cleanup: Awaitable[None]) -> None:
    """Await a cleanup to its end even when Ctrl-C or SIGTERM cancels us meanwhile (the
    cancellation goes on once it is done): a pool closed halfway reconnects to a database being
    dropped, a drop cut short leaves the database behind."""
    task = asyncio.ensure_future(cleanup)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            cancelled = True
    task.result()
    if cancelled:
        raise asyncio.CancelledError
