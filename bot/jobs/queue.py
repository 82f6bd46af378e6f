"""Enqueueing from a request: the job carries the request's log context (request id, team,
channel, incident), so the lines a job logs can be followed back to the click that started it."""

from __future__ import annotations

from pydantic import BaseModel

from bot.memory.jobqueue import PostgresJobQueue
from bot.observability.context import current_context


class JobQueue:
    def __init__(self, queue: PostgresJobQueue) -> None:
        self._queue = queue

    async def enqueue(
        self, kind: str, payload: BaseModel, *, dedupe_key: str | None = None, delay_s: float | None = None
    ) -> bool:
        context = {k: str(v) for k, v in current_context().items()}
        return await self._queue.enqueue(kind, payload, dedupe_key=dedupe_key, delay_s=delay_s, headers=context)

    async def waiting(self, dedupe_key: str) -> bool:
        return await self._queue.waiting(dedupe_key)

    async def waiting_under(self, prefix: str) -> bool:
        return await self._queue.waiting_under(prefix)

    async def pending(self) -> dict[str, int]:
        return await self._queue.pending()
