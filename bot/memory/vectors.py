"""Semantic recall's SQL (pgvector): memories' vectors written, and read as candidates.

Tables from migrations/0009 exist only where the server has the `vector` extension; every
function here is called only once `vectors_ready` said yes. Vectors travel as pgvector's text
form ('[0.1,0.2]') and are cast in SQL, so no driver codec is needed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.models import RecallQuery
from bot.recall.meaning import QueryMeaning

log = logging.getLogger(__name__)

VECTOR_MIGRATIONS = ("0009_memory_vectors.sql", "0019_memory_opening_vectors.sql")
"""The migrations that create the vector tables and columns, each idempotent: run again, in order,
when the extension appears after the migrations ran."""
SEMANTIC_CANDIDATES = 10
"""Memories closest in meaning that compete besides the lexical ones (they may share no word).
On jira-dev 10, 20 and 30 gave the same figures (±0.001): most of the gain is the similarity
re-weighing lexical candidates; each extra candidate costs its BM25 scoring and loading."""
NEAREST_SCANNED = 100
"""The nearest vectors taken before recall's other filters (truth, privacy, service...) are
applied on `memories`: joining every vector to its memory first cost 4× the scan at 10k."""


@dataclass(frozen=True, slots=True)
class MemoryVectors:
    """What `embed` writes for one memory."""

    memory_pk: int
    document: Sequence[float]
    sentences: Sequence[str]
    sentence_vectors: Sequence[Sequence[float]]
    opening: Sequence[float] | None = None
    """The memory's title, symptoms and error embedded apart (meaning.opening_text)."""


def literal(vector: Sequence[float]) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector) + "]"


async def vectors_ready(conn: asyncpg.Connection) -> bool:
    return bool(await conn.fetchval("SELECT to_regclass('memory_vectors') IS NOT NULL"))


async def extension_available(conn: asyncpg.Connection) -> bool:
    return bool(await conn.fetchval("SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')"))


async def ensure_vector_tables(conn: asyncpg.Connection, migrations_dir: Path) -> bool:
    """Run the (idempotent) vector migrations again: the extension may have been installed after
    the migrations ran. Whether the tables are there now."""
    if not await vectors_ready(conn) and await extension_available(conn):
        for name in VECTOR_MIGRATIONS:
            await conn.execute((migrations_dir / name).read_text(encoding="utf-8"))
    return await vectors_ready(conn)


async def pending_rows(
    conn: asyncpg.Connection, columns: str, model: str, dims: int | None, *,
    include_private: bool, after_pk: int, limit: int,
) -> list[asyncpg.Record]:  # fmt: skip
    """Memories past `after_pk` without a vector of `model` (none yet, another model's, or — with
    `dims` — one of another size: the same model name served with another dimension — or one saved
    before openings were embedded); memories from private channels only with `include_private`."""
    return await conn.fetch(
        f"""SELECT {columns} FROM memories m
            WHERE m.pk > $1 AND ($5 OR NOT m.is_private) AND NOT EXISTS (
                SELECT 1 FROM memory_vectors v
                WHERE v.memory_pk = m.pk AND v.model = $2 AND ($4::int IS NULL OR v.dims = $4)
                  AND v.opening IS NOT NULL)
            ORDER BY m.pk LIMIT $3""",
        after_pk, model, limit, dims, include_private,
    )  # fmt: skip


async def count_vectors(
    conn: asyncpg.Connection, model: str, dims: int | None, *, include_private: bool
) -> tuple[int, int, int]:
    """(memories with a vector of `model` — and of `dims` when given —, with another one (or one
    without its opening's), with none; private memories count as missing only with `include_private`)."""
    row = await conn.fetchrow(
        """SELECT count(*) FILTER (WHERE v.model = $1 AND ($2::int IS NULL OR v.dims = $2)
                                    AND v.opening IS NOT NULL) AS current,
                  count(*) FILTER (WHERE v.model <> $1 OR v.dims <> $2
                                    OR (v.memory_pk IS NOT NULL AND v.opening IS NULL)) AS stale,
                  count(*) FILTER (WHERE v.memory_pk IS NULL AND ($3 OR NOT m.is_private)) AS missing
           FROM memories m LEFT JOIN memory_vectors v ON v.memory_pk = m.pk""",
        model, dims, include_private,
    )  # fmt: skip
    return row["current"], row["stale"], row["missing"]


async def save_vectors(conn: asyncpg.Connection, model: str, items: Sequence[MemoryVectors]) -> None:
    """Replace each memory's vectors (a memory purged meanwhile is skipped)."""
    async with conn.transaction():
        for item in items:
            saved = await conn.fetchval(
                """INSERT INTO memory_vectors (memory_pk, team_id, occurred_at, model, dims, embedding, opening)
                   SELECT pk, team_id, occurred_at, $2, $4, $3::vector, $5::vector FROM memories WHERE pk = $1
                   ON CONFLICT (memory_pk) DO UPDATE
                       SET model = EXCLUDED.model, dims = EXCLUDED.dims, embedding = EXCLUDED.embedding,
                           opening = EXCLUDED.opening, embedded_at = now()
                   RETURNING memory_pk""",
                item.memory_pk, model, literal(item.document), len(item.document),
                None if item.opening is None else literal(item.opening),
            )  # fmt: skip
            if saved is None:
                continue
            await conn.execute("DELETE FROM memory_sentence_vectors WHERE memory_pk = $1", item.memory_pk)
            await conn.execute(
                """INSERT INTO memory_sentence_vectors (memory_pk, ord, sentence, embedding)
                   SELECT $1, t.ord, t.sentence, t.embedding::vector
                   FROM unnest($2::int[], $3::text[], $4::text[]) AS t(ord, sentence, embedding)""",
                item.memory_pk, list(range(len(item.sentences))), list(item.sentences),
                [literal(v) for v in item.sentence_vectors],
            )  # fmt: skip


async def semantic_candidates(
    conn: asyncpg.Connection, query: RecallQuery, meaning: QueryMeaning, filters: str, filter_args: Sequence[object]
) -> list[int]:
    """The memories closest in meaning under recall's filters (written for arguments from $6 on):
    the nearest vectors of the team, model and time first, then the other filters on those."""
    rows = await conn.fetch(
        f"""WITH near AS MATERIALIZED (
                SELECT v.memory_pk, v.embedding <=> $4::vector AS distance FROM memory_vectors v
                WHERE v.team_id = $1 AND v.model = $2 AND v.dims = $3
                  AND ($5::timestamptz IS NULL OR v.occurred_at IS NULL OR v.occurred_at <= $5)
                ORDER BY distance LIMIT {NEAREST_SCANNED})
            SELECT m.pk FROM near JOIN memories m ON m.pk = near.memory_pk
            WHERE m.team_id = $1 {filters}
            ORDER BY near.distance LIMIT {SEMANTIC_CANDIDATES}""",
        query.team_id, meaning.model, len(meaning.vector), literal(meaning.vector), query.occurred_before, *filter_args,
    )  # fmt: skip
    return [r["pk"] for r in rows]


async def similarities(
    conn: asyncpg.Connection, pks: Sequence[int], meaning: QueryMeaning
) -> dict[int, tuple[float, str | None, float | None, float | None]]:
    """pk → (cosine similarity to the query, the memory's sentence closest to it, the cosine of its
    opening — title, symptoms, error — with the query: None for a vector saved without one, the
    closest sentence's cosine: None for a memory without sentence vectors)."""
    rows = await conn.fetch(
        """SELECT v.memory_pk, 1 - (v.embedding <=> $2::vector) AS similarity,
                  1 - (v.opening <=> $2::vector) AS opening, s.sentence AS closest, 1 - s.distance AS sentence
           FROM memory_vectors v
           LEFT JOIN LATERAL (SELECT ms.sentence, ms.embedding <=> $2::vector AS distance
                              FROM memory_sentence_vectors ms
                              WHERE ms.memory_pk = v.memory_pk AND vector_dims(ms.embedding) = $4
                              ORDER BY distance LIMIT 1) s ON true
           WHERE v.memory_pk = ANY($1::bigint[]) AND v.model = $3 AND v.dims = $4""",
        list(pks), literal(meaning.vector), meaning.model, len(meaning.vector),
    )  # fmt: skip
    return {
        r["memory_pk"]: (
            float(r["similarity"]),
            r["closest"],
            None if r["opening"] is None else float(r["opening"]),
            None if r["sentence"] is None else float(r["sentence"]),
        )  # fmt: skip
        for r in rows
    }
