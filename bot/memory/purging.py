"""Purging memories, in the caller's transaction: what a memory superseded is refused, restored
(an audited truth move back) or purged down the chain, and each purge leaves a content-free row
in purge_records. Also the one INSERT of a truth move, shared with `transition`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

from bot.errors import MemoryNotFound, PurgeRefused
from bot.memory.port import PurgeOutcome, SupersededHandling
from bot.models import TruthState, TruthTransition

Uncount = Callable[[asyncpg.Connection, str, list[str], int], Awaitable[None]]  # term statistics, minus one document


async def record_truth_move(
    conn: asyncpg.Connection, pk: int, team_id: str, from_state: TruthState, move: TruthTransition
) -> None:
    await conn.execute(
        """INSERT INTO truth_transitions (memory_pk, team_id, from_state, to_state, actor, reason, successor_id, at, actor_name)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)""",
        pk, team_id, from_state.value, move.to_state.value, move.actor, move.reason,
        move.successor_id, move.at, move.actor_name,
    )  # fmt: skip


async def superseded_by(conn: asyncpg.Connection, team_id: str, successors: list[str]) -> list[str]:
    """Incident ids of the memories that any of `successors` supersedes (locked)."""
    rows = await conn.fetch(
        """SELECT incident_id FROM memories WHERE team_id = $1 AND superseded_by = ANY($2::text[])
           ORDER BY incident_id FOR UPDATE""",
        team_id, successors,
    )  # fmt: skip
    return [r["incident_id"] for r in rows]


async def purge_memory(
    conn: asyncpg.Connection, team_id: str, incident_id: str, *, purged_by: str,
    superseded: SupersededHandling, uncount: Uncount,
) -> PurgeOutcome:  # fmt: skip
    by = TruthTransition(  # validates who before anything is deleted
        from_state=TruthState.SUPERSEDED, to_state=TruthState.UNCONFIRMED_HYPOTHESIS, actor=purged_by
    ).actor
    predecessors = await superseded_by(conn, team_id, [incident_id])
    if predecessors and superseded is SupersededHandling.REFUSE:
        raise PurgeRefused(incident_id, predecessors)
    purged, restored = [incident_id], []
    if superseded is SupersededHandling.RESTORE:
        for predecessor in predecessors:
            await _restore(conn, team_id, predecessor, by, f"its successor {incident_id} was purged")
        restored = predecessors
    elif superseded is SupersededHandling.PURGE:
        below = predecessors
        while below:  # down the chain: what they superseded would dangle in turn
            purged += [i for i in below if i not in purged]
            below = [i for i in await superseded_by(conn, team_id, below) if i not in purged]
    for gone in purged:
        detail: dict[str, Any] = {"corrections": await _delete(conn, team_id, gone, uncount)}
        if gone == incident_id:
            detail |= {"superseded": predecessors, "superseded_handling": superseded.value} if predecessors else {}
        else:
            detail["purged_with"] = incident_id
        await conn.execute(
            "INSERT INTO purge_records (team_id, incident_id, what, purged_by, detail) VALUES ($1, $2, 'memory', $3, $4)",
            team_id, gone, by, detail,
        )  # fmt: skip
    return PurgeOutcome(incident_id=incident_id, purged=purged, restored=restored)


async def _restore(conn: asyncpg.Connection, team_id: str, incident_id: str, actor: str, reason: str) -> None:
    """A superseded memory goes back to the state it had before it was superseded, audited."""
    pk = await conn.fetchval(
        "SELECT pk FROM memories WHERE team_id = $1 AND incident_id = $2 FOR UPDATE", team_id, incident_id
    )
    if pk is None:
        raise MemoryNotFound(incident_id, team_id)
    before = await conn.fetchval(
        """SELECT from_state FROM truth_transitions WHERE memory_pk = $1 AND to_state = 'superseded'
           ORDER BY at DESC, id DESC LIMIT 1""",
        pk,
    )  # retained as superseded: its recorded move starts from unconfirmed_hypothesis
    previous = TruthState(before or TruthState.UNCONFIRMED_HYPOTHESIS.value)
    move = TruthTransition(from_state=TruthState.SUPERSEDED, to_state=previous, actor=actor, reason=reason)
    await conn.execute(
        "UPDATE memories SET truth_state = $2, superseded_by = NULL, updated_at = now() WHERE pk = $1",
        pk,
        previous.value,
    )
    await record_truth_move(conn, pk, team_id, TruthState.SUPERSEDED, move)


async def _delete(conn: asyncpg.Connection, team_id: str, incident_id: str, uncount: Uncount) -> int:
    """Delete one memory (its corrections, history and feedback go with it); how many
    corrections it had."""
    corrections = await conn.fetchval(
        """SELECT count(*) FROM memory_corrections c JOIN memories m ON m.pk = c.memory_pk
           WHERE m.team_id = $1 AND m.incident_id = $2""",
        team_id, incident_id,
    )  # fmt: skip
    row = await conn.fetchrow(
        "DELETE FROM memories WHERE team_id = $1 AND incident_id = $2 RETURNING pk, doc_terms, doc_len",
        team_id, incident_id,
    )  # fmt: skip
    if row is None:
        raise MemoryNotFound(incident_id, team_id)
    await uncount(conn, team_id, sorted(row["doc_terms"]), row["doc_len"])
    # deleted for good: its terms leave the postings too
    await conn.execute(
        "DELETE FROM recall_postings WHERE team_id = $1 AND term = ANY($2::text[]) AND memory_pk = $3",
        team_id, list(row["doc_terms"]), row["pk"],
    )  # fmt: skip
    return int(corrections)
