"""The Postgres adapter of the memory store. All of the memory bank's SQL lives here."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, nullcontext
from pathlib import Path
from typing import Any

import asyncpg

from bot.errors import MemoryConflict, MemoryNotFound, TruthMoveRefused
from bot.memory import vectors
from bot.memory.corrections import insert_correction
from bot.memory.incidents import mark_resolved_in
from bot.memory.pool import DRAFT_COLUMNS, acquire
from bot.memory.port import FeedbackKind, MemoryPage, PurgeOutcome, RetainOutcome, RetainStatus, SupersededHandling
from bot.memory.postings import derive_postings, hold_retain_lock
from bot.memory.purging import purge_memory, record_truth_move, superseded_by
from bot.memory.records import RECORD_COLUMNS, read_records
from bot.memory.reindex import reindex_terms
from bot.memory.search import nearest, search_candidates, to_candidates
from bot.models import (
    Correction,
    MemoryDraft,
    MemoryRecord,
    RecallQuery,
    TruthState,
    TruthTransition,
    utcnow,
)
from bot.recall.candidates import Candidate
from bot.recall.concepts import Vocabulary, load_vocabulary
from bot.recall.document import TERMS_VERSION, QueryTerms, memory_document, memory_features
from bot.recall.meaning import QueryMeaning
from bot.recall.truth import refusal

log = logging.getLogger(__name__)

_STORED_CONTENT = "SELECT retained_content FROM memories WHERE team_id = $1 AND incident_id = $2"


def _refuse_other_content(draft: MemoryDraft, stored: dict[str, Any]) -> RetainStatus:
    content = draft.content()
    differing = sorted(k for k in content.keys() | stored.keys() if content.get(k) != stored.get(k))
    if differing:
        raise MemoryConflict(draft.incident_id, differing)
    return RetainStatus.UNCHANGED


class PostgresMemoryStore:
    def __init__(self, pool: asyncpg.Pool, *, vocabulary: Vocabulary | None = None) -> None:
        self._pool = pool
        self._vocabulary = vocabulary or load_vocabulary()
        self._deriving: asyncio.Task[None] | None = None
        self._vectors: bool | None = None

    @property
    def vocabulary(self) -> Vocabulary:
        return self._vocabulary

    # ---- writing -------------------------------------------------------------------------

    async def retain(self, draft: MemoryDraft) -> RetainOutcome:
        return await self._retain(draft)

    async def resolve_incident(self, draft: MemoryDraft) -> RetainOutcome:
        async def close_incident(conn: asyncpg.Connection) -> None:
            await mark_resolved_in(conn, draft.team_id, draft.incident_id)

        return await self._retain(draft, also=close_incident)

    async def _retain(
        self, draft: MemoryDraft, *, also: Callable[[asyncpg.Connection], Awaitable[None]] | None = None
    ) -> RetainOutcome:
        """Retain `draft`; `also` runs in the same transaction once the memory is in (new or
        unchanged): it commits with the memory, or neither does."""
        content = draft.content()
        document = memory_document(draft)
        features = memory_features(draft, self._vocabulary)
        terms = sorted(document.terms)  # sorted: concurrent retains lock term rows in one order
        values = [getattr(draft, c) for c in DRAFT_COLUMNS]
        values[DRAFT_COLUMNS.index("failed_attempts")] = [a.model_dump() for a in draft.failed_attempts]
        values[DRAFT_COLUMNS.index("source")] = draft.source.value
        values[DRAFT_COLUMNS.index("truth_state")] = draft.truth_state.value
        if draft.truth_state.reusable and draft.verified_at is None:
            # confirmed when it was resolved, or else as it is retained
            values[DRAFT_COLUMNS.index("verified_at")] = draft.resolved_at or draft.occurred_at or utcnow()
        placeholders = ", ".join(f"${i}" for i in range(1, len(values) + 1))
        n = len(values)
        async with self._acquire() as conn, conn.transaction():
            await hold_retain_lock(conn)
            pk = await conn.fetchval(
                f"""INSERT INTO memories ({", ".join(DRAFT_COLUMNS)}, retained_content,
                        doc_terms, doc_len, search, error_signature, concepts, provenance, terms_version)
                    VALUES ({placeholders}, ${n + 1}, ${n + 2}, ${n + 3}, array_to_tsvector(${n + 4}::text[]),
                            ${n + 5}, ${n + 6}, ${n + 7}, ${n + 8})
                    ON CONFLICT (team_id, incident_id) DO NOTHING
                    RETURNING pk""",
                *values, content, dict(document.terms), document.length, terms,
                features.signature, list(features.concepts),
                draft.provenance.model_dump(mode="json") if draft.provenance else None,
                TERMS_VERSION,
            )  # fmt: skip
            if pk is None:
                _refuse_other_content(draft, await conn.fetchval(_STORED_CONTENT, draft.team_id, draft.incident_id))
                if also is not None:
                    await also(conn)
                return RetainOutcome(
                    status=RetainStatus.UNCHANGED, memory=await self._get(conn, draft.team_id, draft.incident_id)
                )
            if draft.drafting is not None:  # kept beside the content, never part of it
                await conn.execute(
                    "UPDATE memories SET drafting = $2 WHERE pk = $1", pk, draft.drafting.model_dump(mode="json")
                )
            if draft.truth_state is not TruthState.UNCONFIRMED_HYPOTHESIS:
                # the state it was retained in is its first recorded move
                await conn.execute(
                    """INSERT INTO truth_transitions (memory_pk, team_id, from_state, to_state, actor, reason,
                                                     successor_id, actor_name)
                       VALUES ($1, $2, 'unconfirmed_hypothesis', $3, $4, 'retained', $5, $6)""",
                    pk, draft.team_id, draft.truth_state.value,
                    draft.verified_by or draft.source.value, draft.superseded_by,
                    draft.verified_by_name if draft.verified_by else None,
                )  # fmt: skip
            await self._count_document(conn, draft.team_id, terms, document.length, +1)
            if also is not None:
                await also(conn)
            outcome = RetainOutcome(
                status=RetainStatus.CREATED, memory=await self._get(conn, draft.team_id, draft.incident_id)
            )
        self._derive_soon()
        return outcome

    async def check(self, draft: MemoryDraft) -> RetainStatus:
        """What `retain(draft)` would do, writing nothing: CREATED, UNCHANGED or MemoryConflict."""
        async with self._acquire() as conn:
            stored = await conn.fetchval(_STORED_CONTENT, draft.team_id, draft.incident_id)
        return RetainStatus.CREATED if stored is None else _refuse_other_content(draft, stored)

    @asynccontextmanager
    async def atomic(self, *, read_only: bool = False) -> AsyncIterator[PostgresMemoryStore]:
        """This store on one connection in one transaction: its writes commit together when the
        block ends, or none do (an exception rolls all back; one retain's conflict only its own)."""
        async with self._acquire() as conn, conn.transaction(readonly=read_only):
            yield _OneTransaction(self, conn)
        self._derive_soon()

    def _derive_soon(self) -> None:
        """Derive postings for new memories in the background, after the retain has answered."""
        if self._deriving is None or self._deriving.done():
            self._deriving = asyncio.get_running_loop().create_task(self._derive())

    async def _derive(self) -> None:
        try:
            async with self._acquire() as conn:
                await derive_postings(conn)
        except Exception:  # noqa: BLE001 - the next retain tries again; recall uses GIN meanwhile
            log.warning("deriving recall postings failed; will retry on the next retain", exc_info=True)

    async def close(self) -> None:
        """Wait for a background derivation (call before closing the pool)."""
        if self._deriving is not None:
            await asyncio.gather(self._deriving, return_exceptions=True)

    async def _count_document(
        self, conn: asyncpg.Connection, team_id: str, terms: list[str], length: int, sign: int
    ) -> None:
        if terms:
            await conn.execute(
                """INSERT INTO term_stats (team_id, term, df) SELECT $1, t, $3 FROM unnest($2::text[]) AS t
                   ON CONFLICT (team_id, term) DO UPDATE SET df = term_stats.df + EXCLUDED.df""",
                team_id, terms, sign,
            )  # fmt: skip
        await conn.execute(
            """INSERT INTO team_stats (team_id, doc_count, total_len) VALUES ($1, $2, $3)
               ON CONFLICT (team_id) DO UPDATE SET doc_count = team_stats.doc_count + EXCLUDED.doc_count,
                                                   total_len = team_stats.total_len + EXCLUDED.total_len""",
            team_id, sign, sign * length,
        )  # fmt: skip

    async def add_correction(
        self, team_id: str, incident_id: str, author: str, text: str, *, author_name: str | None = None,
        max_total: int | None = None, max_per_author: int | None = None,
    ) -> MemoryRecord:  # fmt: skip
        correction = Correction(author=author, text=text, author_name=author_name)
        async with self._acquire() as conn, conn.transaction():
            pk = await self._pk(conn, team_id, incident_id, lock=True)  # the lock makes the counts hold
            await insert_correction(
                conn, pk, team_id, incident_id, correction, max_total=max_total, max_per_author=max_per_author
            )
            return await self._get(conn, team_id, incident_id)

    async def transition(
        self,
        team_id: str,
        incident_id: str,
        to_state: TruthState,
        *,
        actor: str,
        actor_name: str | None = None,
        reason: str = "",
        successor_id: str | None = None,
        verification_note: str | None = None,
    ) -> MemoryRecord:
        move = TruthTransition(
            from_state=TruthState.UNCONFIRMED_HYPOTHESIS,
            to_state=to_state,
            actor=actor,
            reason=reason,
            successor_id=successor_id,
            actor_name=actor_name,
        )  # fmt: skip  (validates actor and reason before anything is read)
        async with self._acquire() as conn, conn.transaction():
            row = await conn.fetchrow(
                "SELECT pk, truth_state FROM memories WHERE team_id = $1 AND incident_id = $2 FOR UPDATE",
                team_id, incident_id,
            )  # fmt: skip
            if row is None:
                raise MemoryNotFound(incident_id, team_id)
            from_state = TruthState(row["truth_state"])
            why_not = refusal(from_state, to_state)
            if why_not is None and to_state is TruthState.SUPERSEDED:
                why_not = await self._successor_problem(conn, team_id, incident_id, successor_id)
            if why_not is None and to_state is TruthState.VERIFICATION_CONFIRMED and not verification_note:
                why_not = "verification_confirmed needs a verification note saying how the fix was verified"
            if why_not is not None:
                raise TruthMoveRefused(incident_id, from_state.value, to_state.value, why_not)
            confirming = to_state.reusable
            await conn.execute(
                """UPDATE memories SET truth_state = $2, superseded_by = $3, updated_at = now(),
                       verified_by = CASE WHEN $4 THEN $5 ELSE verified_by END,
                       verified_by_name = CASE WHEN $4 THEN $7 ELSE verified_by_name END,
                       verified_at = CASE WHEN $4 THEN now() ELSE verified_at END,
                       verification_note = CASE WHEN $4 THEN $6 ELSE verification_note END
                   WHERE pk = $1""",
                row["pk"], to_state.value, successor_id if to_state is TruthState.SUPERSEDED else None,
                confirming, move.actor, verification_note, move.actor_name,
            )  # fmt: skip
            await record_truth_move(conn, row["pk"], team_id, from_state, move)
            return await self._get(conn, team_id, incident_id)

    async def _successor_problem(
        self, conn: asyncpg.Connection, team_id: str, incident_id: str, successor_id: str | None
    ) -> str | None:
        if not successor_id:
            return "superseded must name the memory that replaces it"
        if successor_id == incident_id:
            return "a memory cannot supersede itself"
        state = await conn.fetchval(
            "SELECT truth_state FROM memories WHERE team_id = $1 AND incident_id = $2", team_id, successor_id
        )
        if state is None:
            return f"the successor {successor_id!r} does not exist"
        if state in (TruthState.REJECTED.value, TruthState.SUPERSEDED.value):
            return f"the successor {successor_id!r} is itself {state}"
        return None

    async def superseded_by(self, team_id: str, incident_id: str) -> list[str]:
        async with self._acquire() as conn:
            return await superseded_by(conn, team_id, [incident_id])

    async def purge(
        self, team_id: str, incident_id: str, *, purged_by: str,
        superseded: SupersededHandling = SupersededHandling.REFUSE,
    ) -> PurgeOutcome:  # fmt: skip
        async with self._acquire() as conn, conn.transaction():
            await self._pk(conn, team_id, incident_id, lock=True)
            return await purge_memory(
                conn, team_id, incident_id, purged_by=purged_by, superseded=superseded, uncount=self._uncount
            )

    async def _uncount(self, conn: asyncpg.Connection, team_id: str, terms: list[str], length: int) -> None:
        await self._count_document(conn, team_id, terms, length, -1)

    async def record_feedback(self, team_id: str, incident_id: str, user_id: str, kind: FeedbackKind) -> None:
        async with self._acquire() as conn, conn.transaction():
            pk = await self._pk(conn, team_id, incident_id)
            await conn.execute(
                """INSERT INTO memory_feedback (memory_pk, team_id, user_id, kind) VALUES ($1, $2, $3, $4)
                   ON CONFLICT (memory_pk, user_id) DO UPDATE SET kind = EXCLUDED.kind, at = now()""",
                pk, team_id, user_id, FeedbackKind(kind).value,
            )  # fmt: skip

    # ---- reading -------------------------------------------------------------------------

    async def get(self, team_id: str, incident_id: str) -> MemoryRecord:
        async with self._acquire() as conn:
            return await self._get(conn, team_id, incident_id)

    async def list(
        self,
        team_id: str,
        *,
        service: str | None = None,
        truth_states: list[TruthState] | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> MemoryPage:
        states = [s.value for s in truth_states] if truth_states else None
        where = """team_id = $1 AND ($2::text IS NULL OR lower(service) = lower($2))
                   AND ($3::text[] IS NULL OR truth_state = ANY($3))"""
        async with self._acquire() as conn:
            total = await conn.fetchval(f"SELECT count(*) FROM memories WHERE {where}", team_id, service, states)
            rows = await conn.fetch(
                f"""SELECT {RECORD_COLUMNS} FROM memories WHERE {where}
                    ORDER BY created_at DESC, pk DESC LIMIT $4 OFFSET $5""",
                team_id, service, states, max(1, min(limit, 500)), max(0, offset),
            )  # fmt: skip
            return MemoryPage(memories=await read_records(conn, rows), total=total)

    async def retag(self, team_id: str) -> int:
        changed = 0
        last_pk = 0
        while True:
            async with self._acquire() as conn, conn.transaction():
                rows = await conn.fetch(
                    """SELECT pk, retained_content, error_signature, concepts FROM memories
                       WHERE team_id = $1 AND pk > $2 ORDER BY pk LIMIT 500""",
                    team_id, last_pk,
                )  # fmt: skip
                if not rows:
                    return changed
                updates = []
                for row in rows:
                    features = memory_features(MemoryDraft.model_validate(row["retained_content"]), self._vocabulary)
                    if (features.signature, sorted(features.concepts)) != (
                        row["error_signature"],
                        sorted(row["concepts"]),
                    ):
                        updates.append((row["pk"], features.signature, list(features.concepts)))
                if updates:
                    await conn.executemany(
                        "UPDATE memories SET error_signature = $2, concepts = $3 WHERE pk = $1", updates
                    )
                changed += len(updates)
                last_pk = rows[-1]["pk"]

    async def reindex_terms(self, *, batch: int = 500) -> int:
        """Re-derive the terms of memories indexed by an older tokenizer (bot/memory/reindex.py)."""
        return await reindex_terms(self._pool, self._vocabulary, batch=batch)

    async def teams(self) -> dict[str, int]:
        async with self._acquire() as conn:
            rows = await conn.fetch("SELECT team_id, count(*) AS n FROM memories GROUP BY team_id ORDER BY team_id")
        return {r["team_id"]: r["n"] for r in rows}

    async def ping(self) -> bool:
        try:
            async with self._pool.acquire(timeout=2) as conn:
                return await conn.fetchval("SELECT 1") == 1
        except Exception:  # noqa: BLE001 - any failure means "does not answer"
            return False

    # ---- the recall pipeline's candidate step ---------------------------------------------

    async def candidates(
        self,
        query: RecallQuery,
        terms: QueryTerms,
        *,
        meaning: QueryMeaning | None = None,
    ) -> list[Candidate]:
        async with self._acquire() as conn:
            if meaning is not None and not await self._vectors_ready(conn):
                meaning = None
            # the nearest vectors are scanned on a second connection while this one reads the lexical side
            near = asyncio.ensure_future(self._nearest(query, meaning)) if meaning is not None else None
            try:
                found = await search_candidates(conn, query, terms, RECORD_COLUMNS, meaning=meaning, near_pks=near)
            finally:
                if near is not None and not near.done():
                    near.cancel()
                    await asyncio.gather(near, return_exceptions=True)
            return to_candidates(found, await read_records(conn, found.rows), terms)

    async def _nearest(self, query: RecallQuery, meaning: QueryMeaning) -> list[int]:
        async with self._acquire() as conn:
            return await nearest(conn, query, meaning)

    # ---- semantic recall's vectors (pgvector; see migrations/0009) ---------------------------

    async def _vectors_ready(self, conn: asyncpg.Connection) -> bool:
        # asked once: the tables appear only by a migration or `embed`, which opens a new store
        if self._vectors is None:
            self._vectors = await vectors.vectors_ready(conn)
        return self._vectors

    async def vectors_ready(self, *, create_from: Path | None = None) -> bool:
        """Whether this database can hold vectors; with `create_from` (the migrations folder),
        first create the vector tables if the extension appeared after the migrations ran."""
        async with self._acquire() as conn:
            if create_from is not None:
                self._vectors = await vectors.ensure_vector_tables(conn, create_from)
            return await self._vectors_ready(conn)

    async def unembedded(
        self, model: str, *, dims: int | None = None, include_private: bool = False, after_pk: int = 0, limit: int = 64
    ) -> list[tuple[int, MemoryRecord]]:
        """Memories past `after_pk` (in pk order) without a vector of `model` (and `dims`), with their pks."""
        async with self._acquire() as conn:
            rows = await vectors.pending_rows(
                conn, RECORD_COLUMNS, model, dims, include_private=include_private, after_pk=after_pk, limit=limit
            )
            return list(zip((r["pk"] for r in rows), await read_records(conn, rows), strict=True))

    async def vector_counts(
        self, model: str, *, dims: int | None = None, include_private: bool = False
    ) -> tuple[int, int, int]:
        """(memories embedded by `model` (with `dims`), by another model or size, not at all)."""
        async with self._acquire() as conn:
            return await vectors.count_vectors(conn, model, dims, include_private=include_private)

    async def save_vectors(self, model: str, items: Sequence[vectors.MemoryVectors]) -> None:
        async with self._acquire() as conn:
            await vectors.save_vectors(conn, model, items)

    # ---- helpers -------------------------------------------------------------------------

    def _acquire(self):  # noqa: ANN202 - asyncpg's pool context manager
        return acquire(self._pool)

    async def _pk(self, conn: asyncpg.Connection, team_id: str, incident_id: str, *, lock: bool = False) -> int:
        pk = await conn.fetchval(
            f"SELECT pk FROM memories WHERE team_id = $1 AND incident_id = $2{' FOR UPDATE' if lock else ''}",
            team_id, incident_id,
        )  # fmt: skip
        if pk is None:
            raise MemoryNotFound(incident_id, team_id)
        return pk

    async def _get(self, conn: asyncpg.Connection, team_id: str, incident_id: str) -> MemoryRecord:
        row = await conn.fetchrow(
            f"SELECT {RECORD_COLUMNS} FROM memories WHERE team_id = $1 AND incident_id = $2", team_id, incident_id
        )
        if row is None:
            raise MemoryNotFound(incident_id, team_id)
        return (await read_records(conn, [row]))[0]


class _OneTransaction(PostgresMemoryStore):
    """PostgresMemoryStore.atomic's view: every call on its one connection, inside its transaction."""

    def __init__(self, store: PostgresMemoryStore, conn: asyncpg.Connection) -> None:
        self.__dict__.update(vars(store))
        self._conn = conn

    def _acquire(self):  # noqa: ANN202 - as the store's
        return nullcontext(self._conn)

    def _derive_soon(self) -> None:  # after the commit, by the store that opened the transaction
        pass
