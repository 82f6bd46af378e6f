"""Bulk retain for replays and benchmarks: many new memories in one transaction, by COPY.

The same rows, terms, signals and statistics as `PostgresMemoryStore.retain`, computed in Python
and written in a few statements instead of several per memory. Memories whose incident_id is
already stored are skipped (no conflict check: a replay or a load starts from an empty bank).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Sequence

import asyncpg

from bot.memory.pool import DRAFT_COLUMNS
from bot.memory.postings import hold_retain_lock
from bot.models import MemoryDraft, TruthState, utcnow
from bot.recall.concepts import Vocabulary
from bot.recall.document import TERMS_VERSION, memory_document, memory_features

_COLUMNS = DRAFT_COLUMNS
_DERIVED = ("retained_content", "doc_terms", "doc_len", "error_signature", "concepts", "terms")


def _row(draft: MemoryDraft, vocabulary: Vocabulary) -> tuple[tuple, Counter[str]]:
    document = memory_document(draft)
    features = memory_features(draft, vocabulary)
    values = {c: getattr(draft, c) for c in _COLUMNS}
    values["failed_attempts"] = json.dumps([a.model_dump() for a in draft.failed_attempts])
    values["alerts"] = json.dumps([a.model_dump(mode="json") for a in draft.alerts])
    values["source"] = draft.source.value
    values["truth_state"] = draft.truth_state.value
    if draft.truth_state.reusable and draft.verified_at is None:
        values["verified_at"] = draft.resolved_at or draft.occurred_at or utcnow()
    row = (
        *values.values(), json.dumps(draft.content()), json.dumps(dict(document.terms)), document.length,
        features.signature, list(features.concepts), sorted(document.terms),
    )  # fmt: skip
    return row, document.terms


async def retain_many(conn: asyncpg.Connection, drafts: Sequence[MemoryDraft], vocabulary: Vocabulary) -> int:
    """Retain new memories in bulk; returns how many were created."""
    unique = list({(d.team_id, d.incident_id): d for d in drafts}.values())
    if not unique:
        return 0
    rows, docs = [], {}
    for draft in unique:
        row, terms = _row(draft, vocabulary)
        rows.append(row)
        docs[(draft.team_id, draft.incident_id)] = terms
    cols = ", ".join(_COLUMNS)
    # COPY sends jsonb as text: the staging table holds text, the insert casts it
    staged = cols.replace("failed_attempts", "failed_attempts::text").replace("alerts", "alerts::text")
    inserted = cols.replace("failed_attempts", "failed_attempts::jsonb").replace("alerts", "alerts::jsonb")
    async with conn.transaction():
        await hold_retain_lock(conn)
        await conn.execute(
            f"""CREATE TEMP TABLE bulk_memories ON COMMIT DROP AS
                SELECT {staged}, retained_content::text, doc_terms::text, doc_len, error_signature, concepts,
                       '{{}}'::text[] AS terms
                FROM memories WITH NO DATA"""
        )
        await conn.copy_records_to_table("bulk_memories", records=rows, columns=[*_COLUMNS, *_DERIVED])
        created = await conn.fetch(
            f"""INSERT INTO memories ({cols}, retained_content, doc_terms, doc_len, error_signature, concepts, search,
                                      terms_version)
                SELECT {inserted}, retained_content::jsonb, doc_terms::jsonb, doc_len, error_signature, concepts,
                       array_to_tsvector(terms), {TERMS_VERSION}
                FROM bulk_memories
                ON CONFLICT (team_id, incident_id) DO NOTHING
                RETURNING pk, team_id, incident_id, truth_state"""
        )
        df: dict[str, Counter[str]] = defaultdict(Counter)
        sizes: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for r in created:
            terms = docs[(r["team_id"], r["incident_id"])]
            df[r["team_id"]].update(terms.keys())
            sizes[r["team_id"]][0] += 1
            sizes[r["team_id"]][1] += sum(terms.values())
        for team_id, counts in df.items():
            await conn.execute(
                """INSERT INTO term_stats (team_id, term, df)
                   SELECT $1, t, d FROM unnest($2::text[], $3::int[]) AS x(t, d)
                   ON CONFLICT (team_id, term) DO UPDATE SET df = term_stats.df + EXCLUDED.df""",
                team_id, list(counts.keys()), list(counts.values()),
            )  # fmt: skip
        for team_id, (count, length) in sizes.items():
            await conn.execute(
                """INSERT INTO team_stats (team_id, doc_count, total_len) VALUES ($1, $2, $3)
                   ON CONFLICT (team_id) DO UPDATE SET doc_count = team_stats.doc_count + EXCLUDED.doc_count,
                                                       total_len = team_stats.total_len + EXCLUDED.total_len""",
                team_id, count, length,
            )  # fmt: skip
        moved = [r["pk"] for r in created if r["truth_state"] != TruthState.UNCONFIRMED_HYPOTHESIS.value]
        if moved:
            # the state a memory was retained in is its first recorded move, as in retain()
            await conn.execute(
                """INSERT INTO truth_transitions (memory_pk, team_id, from_state, to_state, actor, reason, successor_id,
                                                 actor_name)
                   SELECT pk, team_id, 'unconfirmed_hypothesis', truth_state, coalesce(verified_by, source),
                          'retained', superseded_by, CASE WHEN verified_by IS NOT NULL THEN verified_by_name END
                   FROM memories WHERE pk = ANY($1::bigint[])""",
                moved,
            )
    return len(created)


async def analyze_after_load(conn: asyncpg.Connection) -> None:
    """Fresh planner statistics after a bulk load (and its postings), so recall's plans fit."""
    await conn.execute("VACUUM ANALYZE memories")
    await conn.execute("VACUUM ANALYZE recall_postings")
    await conn.execute("ANALYZE term_stats")
