"""CPU-heavy reading of members' text, off the event loop that serves every other channel.

Drafting, the guard, the "is it over?" check and imports read text that anyone can make long.
Run on a job's event loop, one slow reading delays every job of that process (a `/recall` in
another channel waited 36 s behind ten crafted messages). Here each reading runs in a process
pool (`concurrent.futures.ProcessPoolExecutor`, spawned once and reused), with a hard deadline:
past it the reading's process is killed and replaced, and the caller gets `ReadingTooLong`,
which says what took too long, so the job ends with a clear message and nothing waits behind it.

The pool's processes are spawned with this process's environment (PROMETHEUS_MULTIPROC_DIR
included, when metrics are collected across processes). `workers=0` reads in the caller's
process (the CLI's small runs, and tests that need no pool).
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.jobs.kinds import Permanent

log = logging.getLogger(__name__)

T = TypeVar("T")

# Below this many characters a reading costs microseconds: it stays on the loop (a pickling
# round trip to another process would cost more than the reading).
INLINE_BELOW_CHARS = 4096


class ReadingTooLong(Permanent):
    """A reading passed its deadline and was stopped; the message says which, for the person."""


def _ready(module: str | None = None) -> int:
    """Run in a pool process: it is up, and the reader's module is imported."""
    if module:
        importlib.import_module(module)
    return os.getpid()


class ReadingPool:
    def __init__(self, workers: int = 2, deadline_s: float = 20.0) -> None:
        self.workers = workers
        self.deadline_s = deadline_s
        self._executor: ProcessPoolExecutor | None = None
        self._warm: set[str] = set()  # the readers' modules imported in the current pool's processes
        self.started = 0  # how many pools were spawned (1, plus one per reading killed)

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # spawn, not fork: a forked child would inherit the parent's event loop, sockets and
            # locks; a spawned one starts clean (with the same environment)
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
            self.started += 1
        return self._executor

    async def start(self, module: str | None = None) -> None:
        """Spawn the processes now (and import `module`, a reader's, in them), not at the first reading."""
        if self.workers:
            loop = asyncio.get_running_loop()
            pool = self._pool()
            await asyncio.gather(*(loop.run_in_executor(pool, _ready, module) for _ in range(self.workers)))
            self._warm.add(module or "")

    async def _warmed(self, module: str) -> None:
        """Spawning the processes and importing the reader is not the reading: on a loaded machine
        it alone can take seconds, and counted against the deadline it failed drafts of ordinary
        channels. It gets a bound of its own (the deadline again, at least a minute)."""
        if module not in self._warm:
            async with asyncio.timeout(max(60.0, self.deadline_s)):
                await self.start(module)

    async def run(self, what: str, fn: Callable[..., T], *args: Any, size: int | None = None, **kwargs: Any) -> T:
        """`fn(*args, **kwargs)` in a pool process, within the deadline. `what` names the reading
        in the message of ReadingTooLong; `size` (characters read), when small, keeps it inline."""
        call = functools.partial(fn, *args, **kwargs)
        if not self.workers or (size is not None and size < INLINE_BELOW_CHARS):
            return call()
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            await self._warmed(getattr(fn, "__module__", None) or "")
            pool = self._pool()
            try:
                async with asyncio.timeout(self.deadline_s):
                    return await loop.run_in_executor(pool, call)
            except TimeoutError:
                self._replace(pool)
                raise ReadingTooLong(
                    f"{what} took longer than {self.deadline_s:g} s and was stopped (READING_DEADLINE_S)"
                ) from None
            except BrokenProcessPool:
                # another reading's deadline killed the pool under this one: once more, in the new pool
                self._replace(pool)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _replace(self, pool: ProcessPoolExecutor) -> None:
        """Kill the pool's processes (a reading past its deadline cannot be cancelled otherwise);
        the next reading spawns a fresh pool."""
        if self._executor is not pool:
            return
        self._executor = None
        self._warm.clear()
        processes = list(getattr(pool, "_processes", {}).values())  # no public way before 3.14
        for process in processes:
            if process.is_alive():
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        log.warning("a reading passed its deadline: %d reading processes replaced", len(processes))

    def __enter__(self) -> ReadingPool:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
            self._warm.clear()


INLINE = ReadingPool(workers=0)
