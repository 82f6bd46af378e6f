"""The Postgres side of the hourly limits on costly work (investigations, drafts): each request
admitted is a row; a request is admitted while the person and the channel are under their limits
for the last hour. Admission is serialised per person and per channel (advisory locks held to the
end of the transaction), so two clicks at once cannot both take the last place."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import asyncpg

from bot.memory.pool import acquire

WINDOW = "1 hour"


@dataclass(frozen=True, slots=True)
class Admission:
    request_id: int | None  # None: refused
    refused_by: str | None = None  # "person" or "channel"
    used: int = 0  # requests in the last hour, of whom refused it
    free_at: datetime | None = None  # when the oldest of those leaves the window


class PostgresWorkLimits:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def admit(
        self, team_id: str, kind: str, user_id: str, channel_id: str, *, per_person: int, per_channel: int
    ) -> Admission:
        async with acquire(self._pool) as conn, conn.transaction():
            # person first, then channel: every admission takes them in this order (no deadlock)
            for key in (f"{team_id}:{kind}:person:{user_id}", f"{team_id}:{kind}:channel:{channel_id}"):
                await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 25))", key)
            for who, column, value, limit in (
                ("person", "user_id", user_id, per_person),
                ("channel", "channel_id", channel_id, per_channel),
            ):
                row = await conn.fetchrow(
                    f"""SELECT count(*) AS used, min(at) + interval '{WINDOW}' AS free_at FROM work_requests
                        WHERE team_id = $1 AND kind = $2 AND {column} = $3 AND at > now() - interval '{WINDOW}'""",
                    team_id, kind, value,
                )  # fmt: skip
                if row["used"] >= limit:
                    return Admission(None, who, row["used"], row["free_at"])
            request_id = await conn.fetchval(
                """INSERT INTO work_requests (team_id, kind, user_id, channel_id) VALUES ($1, $2, $3, $4)
                   RETURNING id""",
                team_id, kind, user_id, channel_id,
            )  # fmt: skip
            # what no limit looks at any more goes (a person's or a channel's older rows)
            await conn.execute(
                """DELETE FROM work_requests WHERE team_id = $1 AND kind = $2 AND (user_id = $3 OR channel_id = $4)
                   AND at < now() - interval '2 hours'""",
                team_id, kind, user_id, channel_id,
            )  # fmt: skip
            return Admission(request_id)

    async def refund(self, request_id: int) -> None:
        """The request started nothing (it joined work already running): it does not count."""
        async with acquire(self._pool) as conn:
            await conn.execute("DELETE FROM work_requests WHERE id = $1", request_id)
