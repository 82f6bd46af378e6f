"""Recall terms re-derived after a tokenizer change: memories stored under an older
TERMS_VERSION get their terms, statistics and postings again, in batches under the retain lock."""

from __future__ import annotations

import logging
from collections import Counter, defaultdict

import asyncpg

from bot.memory.pool import acquire
from bot.memory.postings import hold_retain_lock, rederive_postings
from bot.models import MemoryDraft
from bot.recall.concepts import Vocabulary
from bot.recall.document import TERMS_VERSION, memory_document, memory_features

log = logging.getLogger(__name__)


async def reindex_terms(pool: asyncpg.Pool, vocabulary: Vocabulary, *, batch: int = 500) -> int:
    """Re-derive the stored terms of memories indexed by an older tokenizer (TERMS_VERSION),
    with their statistics and postings; returns how many. One read when nothing is stale."""
    async with acquire(pool) as conn:
        if await conn.fetchval("SELECT version FROM recall_terms_state") >= TERMS_VERSION:
            return 0
    changed = 0
    while True:
        async with acquire(pool) as conn, conn.transaction():
            await hold_retain_lock(conn)
            rows = await conn.fetch(
                """SELECT pk, team_id, retained_content, doc_terms, doc_len FROM memories
                   WHERE terms_version < $1 ORDER BY pk LIMIT $2 FOR UPDATE""",
                TERMS_VERSION, batch,
            )  # fmt: skip
            if not rows:
                await conn.execute("UPDATE recall_terms_state SET version = greatest(version, $1)", TERMS_VERSION)
                if changed:
                    log.info("re-derived the recall terms of %d memories (terms version %d)", changed, TERMS_VERSION)
                return changed
            df: dict[str, Counter[str]] = defaultdict(Counter)
            lengths: Counter[str] = Counter()
            updates = []
            for row in rows:
                draft = MemoryDraft.model_validate(row["retained_content"])
                document = memory_document(draft)
                features = memory_features(draft, vocabulary)
                df[row["team_id"]].subtract(row["doc_terms"].keys())
                df[row["team_id"]].update(document.terms.keys())
                lengths[row["team_id"]] += document.length - row["doc_len"]
                updates.append((row["pk"], dict(document.terms), document.length, sorted(document.terms),
                                features.signature, list(features.concepts), TERMS_VERSION))  # fmt: skip
                await conn.execute(
                    "DELETE FROM recall_postings WHERE team_id = $1 AND term = ANY($2::text[]) AND memory_pk = $3",
                    row["team_id"], list(row["doc_terms"]), row["pk"],
                )  # fmt: skip
            await conn.executemany(
                """UPDATE memories SET doc_terms = $2, doc_len = $3, search = array_to_tsvector($4::text[]),
                       error_signature = $5, concepts = $6, terms_version = $7 WHERE pk = $1""",
                updates,
            )
            for team_id, counts in df.items():
                moved = {t: d for t, d in counts.items() if d}
                await conn.execute(
                    """INSERT INTO term_stats (team_id, term, df)
                       SELECT $1, t, d FROM unnest($2::text[], $3::int[]) AS x(t, d)
                       ON CONFLICT (team_id, term) DO UPDATE SET df = term_stats.df + EXCLUDED.df""",
                    team_id, sorted(moved), [moved[t] for t in sorted(moved)],
                )  # fmt: skip
                await conn.execute(
                    "UPDATE team_stats SET total_len = total_len + $2 WHERE team_id = $1", team_id, lengths[team_id]
                )
            await rederive_postings(conn, [r["pk"] for r in rows])
            changed += len(rows)
