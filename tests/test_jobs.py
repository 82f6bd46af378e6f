"""The job queue and worker on a real PostgreSQL: retries, giving up once, deduplication, and
jobs that survive a shutdown or a killed worker."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest
from pydantic import BaseModel

from bot.jobs import JobContext, JobKind, Permanent, job
from bot.jobs.worker import JobWorker
from bot.memory.jobqueue import PostgresJobQueue
from bot.memory.pool import create_pool


class Note(BaseModel):
    text: str


@pytest.fixture
async def pool(database_url: str) -> AsyncIterator[asyncpg.Pool]:
    pool = await create_pool(database_url)
    yield pool
    await pool.close()


def context(attempt: int, job_id: int) -> JobContext:
    return JobContext(services=None, client=None, attempt=attempt, job_id=job_id)  # type: ignore[arg-type]


async def until(predicate: Any, timeout: float = 15.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "timed out waiting"
        await asyncio.sleep(0.05)


def worker(database_url: str, *kinds: JobKind[Any], **options: Any) -> JobWorker:
    options.setdefault("retry_base_s", 0.05)
    return JobWorker(database_url, kinds, context, concurrency=4, **options)


async def test_a_job_runs_once_and_a_duplicate_enqueue_is_skipped(pool: asyncpg.Pool, database_url: str) -> None:
    seen: list[str] = []

    @job("note.keep", Note)
    async def keep(ctx: JobContext, note: Note) -> None:
        seen.append(note.text)

    queue = PostgresJobQueue(pool)
    assert await queue.enqueue(keep.name, Note(text="a"), dedupe_key="event-1") is True
    assert await queue.enqueue(keep.name, Note(text="a"), dedupe_key="event-1") is False
    assert await queue.pending() == {"note.keep": 1}
    runner = worker(database_url, keep)
    await runner.start()
    try:
        await until(lambda: seen == ["a"])
        await until(lambda: runner.in_flight == 0)
    finally:
        await runner.stop()
    assert seen == ["a"]
    assert await queue.pending() == {}


async def test_a_failing_job_is_retried_until_it_succeeds(pool: asyncpg.Pool, database_url: str) -> None:
    attempts: list[int] = []

    @job("note.flaky", Note)
    async def flaky(ctx: JobContext, note: Note) -> None:
        attempts.append(ctx.attempt)
        if len(attempts) < 3:
            raise ConnectionError("slack answered 500")

    await PostgresJobQueue(pool).enqueue(flaky.name, Note(text="x"))
    runner = worker(database_url, flaky)
    await runner.start()
    try:
        await until(lambda: len(attempts) == 3)
    finally:
        await runner.stop()
    assert attempts == [0, 1, 2]


async def test_give_up_is_told_once_after_the_last_attempt_and_at_once_for_permanent(
    pool: asyncpg.Pool, database_url: str
) -> None:
    told: list[tuple[str, str]] = []

    async def tell(ctx: JobContext, note: Note, exc: BaseException) -> None:
        told.append((note.text, str(exc)))

    @job("note.broken", Note, give_up=tell, max_attempts=3)
    async def broken(ctx: JobContext, note: Note) -> None:
        if note.text == "permanent":
            raise Permanent("the channel is gone")
        raise ConnectionError("still down")

    queue = PostgresJobQueue(pool)
    await queue.enqueue(broken.name, Note(text="permanent"))
    await queue.enqueue(broken.name, Note(text="transient"))
    runner = worker(database_url, broken)
    await runner.start()
    try:
        await until(lambda: len(told) == 2)
        await asyncio.sleep(0.5)  # nothing more comes
    finally:
        await runner.stop()
    assert sorted(told) == [("permanent", "the channel is gone"), ("transient", "still down")]
    assert await queue.pending() == {}


async def test_past_its_deadline_a_job_gives_up_instead_of_retrying(pool: asyncpg.Pool, database_url: str) -> None:
    told: list[str] = []
    runs: list[int] = []

    async def tell(ctx: JobContext, note: Note, exc: BaseException) -> None:
        told.append(note.text)

    @job("note.late", Note, give_up=tell, max_attempts=50, deadline_s=0.3)
    async def late(ctx: JobContext, note: Note) -> None:
        runs.append(ctx.attempt)
        raise ConnectionError("down")

    await PostgresJobQueue(pool).enqueue(late.name, Note(text="late"))
    runner = worker(database_url, late, retry_base_s=0.2)
    await runner.start()
    try:
        await until(lambda: told == ["late"])
    finally:
        await runner.stop()
    assert len(runs) < 5


async def test_a_job_cut_by_shutdown_goes_back_to_the_queue_and_the_next_worker_finishes_it(
    pool: asyncpg.Pool, database_url: str
) -> None:
    started = asyncio.Event()
    finished: list[int] = []

    @job("note.slow", Note)
    async def slow(ctx: JobContext, note: Note) -> None:
        if ctx.attempt == 0:
            started.set()
            await asyncio.sleep(60)  # the model is slow; a deploy comes
        finished.append(ctx.attempt)

    queue = PostgresJobQueue(pool)
    await queue.enqueue(slow.name, Note(text="investigate"))
    first = worker(database_url, slow)
    await first.start()
    await asyncio.wait_for(started.wait(), 15)
    await first.stop(drain_s=0.2)
    assert finished == []
    assert await queue.pending() == {"note.slow": 1}
    second = worker(database_url, slow)
    await second.start()
    try:
        await until(lambda: finished == [1])
    finally:
        await second.stop()


async def test_a_killed_worker_s_job_is_picked_up_by_another(pool: asyncpg.Pool, database_url: str) -> None:
    started = asyncio.Event()
    finished: list[int] = []

    @job("note.orphan", Note)
    async def orphan(ctx: JobContext, note: Note) -> None:
        if not started.is_set():
            started.set()
            await asyncio.sleep(3600)
        finished.append(ctx.attempt)

    await PostgresJobQueue(pool).enqueue(orphan.name, Note(text="x"))
    first = worker(database_url, orphan, heartbeat_timeout_s=1.0)
    await first.start()
    await asyncio.wait_for(started.wait(), 15)
    # SIGKILL: no shutdown, the connection just goes away and the heartbeat stops
    first._task.cancel()  # type: ignore[union-attr]
    for task in list(first._running):
        task.cancel()
    first._conn.terminate()  # type: ignore[union-attr]
    second = worker(database_url, orphan, heartbeat_timeout_s=1.0)
    await second.start()
    try:
        await until(lambda: finished != [], timeout=20)
    finally:
        await second.stop()


async def test_a_job_runs_in_the_log_context_of_the_request_that_queued_it(
    pool: asyncpg.Pool, database_url: str
) -> None:
    from bot.jobs.queue import JobQueue
    from bot.observability.context import current_context, request_scope

    seen: list[dict[str, str]] = []

    @job("note.context", Note)
    async def remember(ctx: JobContext, note: Note) -> None:
        seen.append(dict(current_context()))

    with request_scope(request_id="req-7", team="T1", channel="C1"):
        await JobQueue(PostgresJobQueue(pool)).enqueue(remember.name, Note(text="x"))
    runner = worker(database_url, remember)
    await runner.start()
    try:
        await until(lambda: seen != [])
    finally:
        await runner.stop()
    assert seen == [{"request_id": "req-7", "team": "T1", "channel": "C1"}]
