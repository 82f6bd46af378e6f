"""Deriving recall's impact-ordered postings from memories, in batches, off the request path.

`derive_postings` turns every memory past the watermark into (term, impact) rows, in SQL from
the stored term counts, BATCH memories per transaction. Call it after a bulk load, and from a
periodic job in a running bot; until then, recall finds the newest memories through the GIN
index (see PostgresMemoryStore.candidates). Impacts use the corpus's average length at the time
of derivation; idf is applied at query time, so df changes never require a rewrite.
"""

from __future__ import annotations

import asyncpg

from bot.recall.candidates import BM25_B, BM25_K1

BATCH = 20_000
DERIVE_LOCK = 7_242_130_502
"""Retains hold it shared for their transaction, derivation exclusively while it picks its batch:
so every memory at or below the watermark had committed (a sequence hands out pks before
commit; without the lock a slow retain could fall below the watermark and never be derived)."""


async def hold_retain_lock(conn: asyncpg.Connection) -> None:
    """Call inside a transaction that inserts memories."""
    await conn.execute("SELECT pg_advisory_xact_lock_shared($1)", DERIVE_LOCK)


_INSERT_POSTINGS = """INSERT INTO recall_postings (team_id, term, impact, memory_pk, occurred_at)
    SELECT m.team_id, d.key,
           (d.value::float8 * ($3::float8 + 1)
            / (d.value::float8 + $3::float8 * (1 - $4::float8 + $4::float8 * m.doc_len
               / greatest(1.0, s.total_len::float8 / greatest(1, s.doc_count)))))::real,
           m.pk, m.occurred_at
    FROM memories m
    JOIN team_stats s ON s.team_id = m.team_id
    CROSS JOIN LATERAL jsonb_each_text(m.doc_terms) d
    """


async def rederive_postings(conn: asyncpg.Connection, pks: list[int]) -> None:
    """Postings of memories whose terms were re-derived (call in their transaction, after the
    update): those past the watermark wait for the next derivation as usual."""
    await conn.execute(
        _INSERT_POSTINGS + "WHERE m.pk = ANY($1::bigint[]) AND m.pk <= $2",
        pks, await conn.fetchval("SELECT max_pk FROM recall_postings_state FOR UPDATE"), BM25_K1, BM25_B,
    )  # fmt: skip


async def derive_postings(conn: asyncpg.Connection, *, batch: int = BATCH) -> int:
    """Derive postings for every memory past the watermark; returns how many memories."""
    done = 0
    while True:
        async with conn.transaction():
            # one deriver at a time: the state row is the lock
            start = await conn.fetchval("SELECT max_pk FROM recall_postings_state FOR UPDATE")
            await conn.execute("SELECT pg_advisory_xact_lock($1)", DERIVE_LOCK)
            upto = await conn.fetchval(
                "SELECT max(pk) FROM (SELECT pk FROM memories WHERE pk > $1 ORDER BY pk LIMIT $2) b", start, batch
            )
            if upto is None:
                return done
            await conn.execute(_INSERT_POSTINGS + "WHERE m.pk > $1 AND m.pk <= $2", start, upto, BM25_K1, BM25_B)
            done += await conn.fetchval("SELECT count(*) FROM memories WHERE pk > $1 AND pk <= $2", start, upto)
            await conn.execute("UPDATE recall_postings_state SET max_pk = $1", upto)
