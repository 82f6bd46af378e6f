"""Runs jobs: a pgqueuer QueueManager on a connection of its own, with this app's retry rules.

Retries back off (1 s, 2 s, 4 s … at most a minute) until the job succeeds, its attempts run
out, its deadline passes or it fails for good (`Permanent`); then its `give_up` tells the person.
At shutdown the worker stops taking jobs and lets those in flight finish for `drain_s`; what is
still running then goes back to the queue for the next instance, so nothing is lost in a deploy.
A worker killed outright stops its heartbeat, and another worker picks its jobs up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
from pgqueuer import Queries, QueueManager
from pgqueuer.db import AsyncpgDriver
from pgqueuer.errors import RetryRequested
from pgqueuer.models import Job
from pydantic import ValidationError

from bot.jobs.kinds import JobContext, JobKind, Permanent
from bot.observability.context import FIELDS, request_scope

log = logging.getLogger(__name__)

MAX_BACKOFF_S = 60.0


def backoff_s(attempt: int, base_s: float = 1.0) -> float:
    return min(base_s * 2.0**attempt, MAX_BACKOFF_S)


class JobWorker:
    def __init__(
        self,
        dsn: str,
        kinds: Iterable[JobKind[Any]],
        make_context: Callable[[int, int], JobContext],
        *,
        concurrency: int = 8,
        heartbeat_timeout_s: float = 30.0,
        retry_base_s: float = 1.0,
        on_outcome: Callable[[str, str], None] | None = None,
    ) -> None:
        self._dsn = dsn
        self._kinds = {kind.name: kind for kind in kinds}
        self._make_context = make_context
        self._concurrency = max(2, concurrency)
        self._heartbeat_timeout = timedelta(seconds=heartbeat_timeout_s)
        self._retry_base_s = retry_base_s
        self._on_outcome = on_outcome or (lambda kind, outcome: None)
        self._conn: asyncpg.Connection | None = None
        self._manager: QueueManager | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._running: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        self._stopping = False
        self._task = asyncio.create_task(self._supervise(), name="job-worker")

    async def _supervise(self) -> None:
        """Run the queue manager; when the database goes away, connect again (with backoff) and
        carry on. Jobs that were running then are picked up again once their heartbeat is stale."""
        failures = 0
        while not self._stopping:
            try:
                self._conn = await asyncpg.connect(self._dsn, timeout=10)
                self._manager = QueueManager(Queries(AsyncpgDriver(self._conn)))
                for kind in self._kinds.values():
                    limit = kind.concurrency_limit
                    self._manager.entrypoint(kind.name, concurrency_limit=limit)(self._entrypoint(kind))
                if self._stopping:
                    return
                batch = max(1, self._concurrency // 2)
                failures = 0
                # NOTIFY wakes the worker for a new job, not for a retry whose delay has run out: it is
                # looked for at the next poll, so the poll keeps pace with the retries' own scale
                await self._manager.run(
                    dequeue_timeout=timedelta(seconds=min(5.0, max(0.25, 5 * self._retry_base_s))),
                    batch_size=batch,
                    max_concurrent_tasks=2 * batch,
                    heartbeat_timeout=self._heartbeat_timeout,
                )
            except Exception as exc:  # noqa: BLE001 - the worker outlives a database blip
                if self._stopping:
                    return
                failures += 1
                log.warning("the job worker lost the database (%s); connecting again", _why(exc))
            finally:
                if self._conn is not None and not self._conn.is_closed():
                    self._conn.terminate()
            if not self._stopping:
                await asyncio.sleep(min(0.2 * 2**failures, 5.0))

    @property
    def in_flight(self) -> int:
        return len(self._running)

    async def stop(self, drain_s: float = 30.0) -> None:
        """Take no new job; give those running `drain_s`; requeue what is left."""
        if self._task is None:
            return
        self._stopping = True
        if self._manager is not None:
            self._manager.shutdown.set()
        done, _ = await asyncio.wait({self._task}, timeout=drain_s)
        if not done:
            log.warning("shutdown: %d jobs still running after %.0f s; back to the queue", len(self._running), drain_s)
            for task in list(self._running):
                task.cancel()
            await asyncio.wait({self._task}, timeout=10)
        if not self._task.done():
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=5)

    def _entrypoint(self, kind: JobKind[Any]) -> Callable[[Job], Any]:
        async def run(job: Job) -> None:
            task = asyncio.current_task()
            assert task is not None
            self._running.add(task)
            try:
                await self._run(kind, job)
            finally:
                self._running.discard(task)

        run.__name__ = f"job_{kind.name.replace('.', '_')}"
        return run

    async def _run(self, kind: JobKind[Any], job: Job) -> None:
        try:
            payload = kind.payload.model_validate_json(job.payload or b"{}")
        except ValidationError as exc:
            log.error("job %s %d has a payload this version cannot read; dropped: %s", kind.name, job.id, exc)
            self._on_outcome(kind.name, "dropped")
            return
        ctx = self._make_context(job.attempts, job.id)
        with request_scope(**{k: v for k, v in (job.headers or {}).items() if k in FIELDS}):
            await self._attempt(kind, job, payload, ctx)

    async def _attempt(self, kind: JobKind[Any], job: Job, payload: Any, ctx: JobContext) -> None:
        try:
            # asyncio.timeout, not wait_for: 3.11's wait_for can swallow a shutdown's cancellation
            async with asyncio.timeout(kind.attempt_timeout_s):
                await kind.run(ctx, payload)
        except asyncio.CancelledError:
            # shutdown past its drain time: the job goes back to the queue, not to the log
            current = asyncio.current_task()
            if current is not None:
                current.uncancel()
            self._on_outcome(kind.name, "requeued")
            raise RetryRequested(delay=timedelta(0), reason="the worker shut down mid-job") from None
        except Exception as exc:  # noqa: BLE001 - every failure is retried or given up on, never lost
            age_s = (datetime.now(UTC) - job.created).total_seconds()
            delay = backoff_s(job.attempts, self._retry_base_s)
            final = (
                isinstance(exc, Permanent) or job.attempts + 1 >= kind.max_attempts or age_s + delay > kind.deadline_s
            )
            if not final:
                log.warning(
                    "job %s %d failed (attempt %d), again in %.0f s: %s",
                    kind.name,
                    job.id,
                    job.attempts + 1,
                    delay,
                    _why(exc),
                )
                self._on_outcome(kind.name, "retried")
                raise RetryRequested(delay=timedelta(seconds=delay), reason=_why(exc)) from exc
            log.error("job %s %d gave up after %d attempts: %s", kind.name, job.id, job.attempts + 1, _why(exc))
            self._on_outcome(kind.name, "gave_up")
            if kind.give_up is not None:
                try:
                    await kind.give_up(ctx, payload, exc)
                except Exception:  # noqa: BLE001 - telling the user failed too; the log has both
                    log.exception("job %s %d: could not tell anyone it gave up", kind.name, job.id)
            return
        self._on_outcome(kind.name, "done")


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:300]
