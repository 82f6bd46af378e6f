"""`serve`'s job workers as processes of their own (`incident-memory worker`), started again
when one exits."""

from __future__ import annotations

from typing import Any

from bot.config import Settings
from bot.observability.metrics import process_exited


class WorkerProcesses:
    """`serve`'s job workers as processes of their own: the OS, not one event loop, shares the
    CPU between answering Slack and doing the work. A worker that exits is started again."""

    def __init__(self, settings: Settings, count: int) -> None:
        import os
        import sys

        self._count = count
        self._argv = [sys.executable, "-m", "bot.cli", "worker"]
        self._env = {**os.environ, "DATABASE_URL": settings.database_url or ""}
        self._drain_s = settings.shutdown_drain_s
        self._procs: list[Any] = []
        self._stopping = False
        self._task: Any = None

    async def start(self) -> None:
        import asyncio

        self._task = asyncio.create_task(self._supervise(), name="worker-processes")

    async def _supervise(self) -> None:
        import asyncio

        while not self._stopping:
            for gone in [p for p in self._procs if p.returncode is not None]:
                process_exited(gone.pid)
            self._procs = [p for p in self._procs if p.returncode is None]
            for _ in range(self._count - len(self._procs)):
                self._procs.append(await asyncio.create_subprocess_exec(*self._argv, env=self._env))
            await asyncio.sleep(1.0)

    async def stop(self) -> None:
        import asyncio
        import contextlib
        import signal

        self._stopping = True
        if self._task is not None:
            self._task.cancel()
        for proc in self._procs:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        for proc in self._procs:
            try:
                async with asyncio.timeout(self._drain_s + 5):
                    await proc.wait()
            except TimeoutError:
                proc.kill()
            process_exited(proc.pid)
