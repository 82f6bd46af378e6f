"""Memories as read back: the columns a MemoryRecord is made of, and the rows turned into records
with their corrections and truth history (two queries for any number of rows)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg

from bot.memory.pool import DRAFT_COLUMNS
from bot.models import Correction, MemoryRecord, TruthTransition

RECORD_COLUMNS = ", ".join(("pk", *DRAFT_COLUMNS, "provenance", "drafting", "created_at", "updated_at"))


async def read_records(conn: asyncpg.Connection, rows: Sequence[asyncpg.Record]) -> list[MemoryRecord]:
    if not rows:
        return []
    pks = [r["pk"] for r in rows]
    corrections: dict[int, list[Correction]] = {pk: [] for pk in pks}
    transitions: dict[int, list[TruthTransition]] = {pk: [] for pk in pks}
    for c in await conn.fetch(
        """SELECT memory_pk, author, author_name, text, created_at FROM memory_corrections
           WHERE memory_pk = ANY($1) ORDER BY created_at, id""",
        pks,
    ):
        corrections[c["memory_pk"]].append(
            Correction(author=c["author"], author_name=c["author_name"], text=c["text"], created_at=c["created_at"])
        )
    for t in await conn.fetch(
        """SELECT memory_pk, from_state, to_state, actor, actor_name, reason, successor_id, at
           FROM truth_transitions WHERE memory_pk = ANY($1) ORDER BY at, id""",
        pks,
    ):
        transitions[t["memory_pk"]].append(
            TruthTransition(
                from_state=t["from_state"],
                to_state=t["to_state"],
                actor=t["actor"],
                actor_name=t["actor_name"],
                reason=t["reason"],
                successor_id=t["successor_id"],
                at=t["at"],
            )  # fmt: skip
        )
    return [_record(r, corrections[r["pk"]], transitions[r["pk"]]) for r in rows]


def _record(row: asyncpg.Record, corrections: list[Correction], transitions: list[TruthTransition]) -> MemoryRecord:
    fields: dict[str, Any] = {c: row[c] for c in DRAFT_COLUMNS}
    fields["tags"] = list(fields["tags"] or [])
    fields["provenance"] = row["provenance"]
    fields["drafting"] = row["drafting"]
    return MemoryRecord.model_validate(
        {**fields, "corrections": corrections, "transitions": transitions,
         "created_at": row["created_at"], "updated_at": row["updated_at"]}
    )  # fmt: skip
