"""Effects that happen once: what a job did outside the database, remembered by key.

A job that posts to Slack may run more than once (a retry after a 500, a worker killed after it
posted). Before an effect, the job asks whether it was done; after it, it records it (with the
message ts). The window between Slack's answer and the record is the only place a duplicate can
come from, and it is one statement long.
"""

from __future__ import annotations

import asyncpg

from bot.memory.pool import acquire


class PostgresEffects:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def done(self, key: str) -> str | None:
        """The recorded value (e.g. a message ts) if the effect happened, else None."""
        async with acquire(self._pool) as conn:
            return await conn.fetchval("SELECT value FROM job_effects WHERE key = $1", key)

    async def record(self, key: str, value: str = "") -> None:
        async with acquire(self._pool) as conn:
            await conn.execute(
                "INSERT INTO job_effects (key, value) VALUES ($1, $2) "
                "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, done_at = now()",
                key, value,
            )  # fmt: skip

    async def prune(self, older_than_hours: float) -> int:
        async with acquire(self._pool) as conn:
            result = await conn.execute(
                "DELETE FROM job_effects WHERE done_at < now() - make_interval(secs => $1)", older_than_hours * 3600
            )
        return int(result.split()[-1])
