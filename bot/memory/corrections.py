"""Corrections' SQL: a correction is an unverified addition to a memory, never a rewrite of it,
and a memory takes only so many (MEMORY_CORRECTIONS_MAX, MEMORY_CORRECTIONS_PER_PERSON)."""

from __future__ import annotations

import asyncpg

from bot.errors import CorrectionRefused
from bot.models import Correction


async def insert_correction(
    conn: asyncpg.Connection, memory_pk: int, team_id: str, incident_id: str, correction: Correction,
    *, max_total: int | None, max_per_author: int | None,
) -> None:  # fmt: skip
    """Add `correction` to the memory; the caller holds the memory's row lock, so the counts
    hold. CorrectionRefused (nothing written) when a limit is reached."""
    if max_total is not None or max_per_author is not None:
        total, mine = await conn.fetchrow(
            """SELECT count(*), count(*) FILTER (WHERE author = $2) FROM memory_corrections
               WHERE memory_pk = $1""",
            memory_pk, correction.author,
        )  # fmt: skip
        if max_total is not None and total >= max_total:
            raise CorrectionRefused(incident_id, f"it already has {total}, the most a memory keeps")
        if max_per_author is not None and mine >= max_per_author:
            raise CorrectionRefused(incident_id, f"you already added {mine}, the most one person may")
    await conn.execute(
        """INSERT INTO memory_corrections (memory_pk, team_id, author, text, created_at, author_name)
           VALUES ($1, $2, $3, $4, $5, $6)""",
        memory_pk, team_id, correction.author, correction.text, correction.created_at, correction.author_name,
    )  # fmt: skip
    await conn.execute("UPDATE memories SET updated_at = now() WHERE pk = $1", memory_pk)
