"""The Postgres adapter of the memory store. All of the memory bank's SQL lives here."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from typing import Any

import asyncpg

from bot.memory.errors import MemoryConflict, MemoryNotFound, StoreFailed, StoreUnavailable, TruthMoveRefused
from bot.memory.postings import derive_postings, hold_retain_lock
from bot.memory.port import FeedbackKind, MemoryPage, RetainOutcome, RetainStatus
from bot.memory.recall.candidates import (
    BM25_B,
    BM25_K1,
    TITLE_QUERY_BONUS,
    Candidate,
    CorpusStats,
    bm25_idf,
)
from bot.memory.recall.concepts import Vocabulary
from bot.memory.recall.document import QueryTerms, memory_document, memory_features
from bot.memory.recall.pipeline import Recaller
from bot.memory.truth import refusal
from bot.models import (
    Correction,
    MemoryDraft,
    MemoryRecord,
    RecallMatch,
    RecallQuery,
    TruthState,
    TruthTransition,
    utcnow,
)

log = logging.getLogger(__name__)

# Columns written from a draft, in insert order (incident fields and outcome).
_DRAFT_COLUMNS = (
    "team_id", "incident_id", "title", "service", "severity", "symptoms", "error_message",
    "root_cause", "diagnosis", "resolution", "failed_attempts", "lesson", "notes", "source",
    "truth_state", "verified_by", "verified_at", "verification_note", "tags", "channel_id",
    "is_private", "occurred_at", "resolved_at", "superseded_by",
)  # fmt: skip

_RECORD_COLUMNS = ", ".join(("pk", *_DRAFT_COLUMNS, "created_at", "updated_at"))

# How many of the query's rarest terms pick candidates through the GIN index; every known
# query term then scores them. Rare terms carry the identity of a report.
CANDIDATE_TERMS = 32
CANDIDATE_POOL = 40
# Memories that share no rare term but fail the same way or name the same mechanism also
# compete: up to this many, most specific (signature, then most shared concepts) and newest first.
SIGNAL_CANDIDATES = 15
# The postings read: the query's heaviest terms, each read to a depth (deeper for rare terms,
# whose lists are short and decisive), summed into an approximate score; the best RESCORE
# memories are then scored exactly.
POSTINGS_TERMS = 48
DEPTH_RARE, DEPTH_COMMON, RARE_DF_SHARE = 2000, 300, 0.02
RESCORE = 120


async def _init_connection(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec("jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")


async def create_pool(dsn: str, *, min_size: int = 1, max_size: int = 10) -> asyncpg.Pool:
    try:
        return await asyncpg.create_pool(
            dsn, min_size=min_size, max_size=max_size, init=_init_connection, command_timeout=30
        )
    except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
        raise StoreUnavailable(f"cannot connect to the database: {exc}") from exc


def _tsquery(terms: Sequence[str]) -> str:
    """A tsquery literal OR-ing the terms verbatim. Cast with ::tsquery, never to_tsquery(): that
    re-parses 'foo-bar' into the phrase 'foo' <-> 'bar', which no stored term list can match."""
    return " | ".join("'" + t.replace("\\", "\\\\").replace("'", "''") + "'" for t in terms)


class PostgresMemoryStore:
    def __init__(self, pool: asyncpg.Pool, *, vocabulary: Vocabulary | None = None) -> None:
        self._pool = pool
        self._recaller = Recaller(self, vocabulary=vocabulary)
        self._deriving: asyncio.Task[None] | None = None

    @property
    def vocabulary(self) -> Vocabulary:
        return self._recaller.vocabulary

    # ---- writing -------------------------------------------------------------------------

    async def retain(self, draft: MemoryDraft) -> RetainOutcome:
        content = draft.content()
        document = memory_document(draft)
        features = memory_features(draft, self._recaller.vocabulary)
        terms = sorted(document.terms)  # sorted: concurrent retains lock term rows in one order
        values = [getattr(draft, c) for c in _DRAFT_COLUMNS]
        values[_DRAFT_COLUMNS.index("failed_attempts")] = [a.model_dump() for a in draft.failed_attempts]
        values[_DRAFT_COLUMNS.index("source")] = draft.source.value
        values[_DRAFT_COLUMNS.index("truth_state")] = draft.truth_state.value
        if draft.truth_state.reusable and draft.verified_at is None:
            # confirmed when it was resolved, or else as it is retained
            values[_DRAFT_COLUMNS.index("verified_at")] = draft.resolved_at or draft.occurred_at or utcnow()
        placeholders = ", ".join(f"${i}" for i in range(1, len(values) + 1))
        n = len(values)
        async with self._acquire() as conn, conn.transaction():
            await hold_retain_lock(conn)
            pk = await conn.fetchval(
                f"""INSERT INTO memories ({", ".join(_DRAFT_COLUMNS)}, retained_content,
                        doc_terms, doc_len, search, error_signature, concepts)
                    VALUES ({placeholders}, ${n + 1}, ${n + 2}, ${n + 3}, array_to_tsvector(${n + 4}::text[]),
                            ${n + 5}, ${n + 6})
                    ON CONFLICT (team_id, incident_id) DO NOTHING
                    RETURNING pk""",
                *values, content, dict(document.terms), document.length, terms,
                features.signature, list(features.concepts),
            )  # fmt: skip
            if pk is None:
                existing = await conn.fetchval(
                    "SELECT retained_content FROM memories WHERE team_id = $1 AND incident_id = $2",
                    draft.team_id, draft.incident_id,
                )  # fmt: skip
                differing = sorted(k for k in content.keys() | existing.keys() if content.get(k) != existing.get(k))
                if differing:
                    raise MemoryConflict(draft.incident_id, differing)
                return RetainOutcome(status=RetainStatus.UNCHANGED, memory=await self._get(conn, draft.team_id, draft.incident_id))
            if draft.truth_state is not TruthState.UNCONFIRMED_HYPOTHESIS:
                # the state it was retained in is its first recorded move
                await conn.execute(
                    """INSERT INTO truth_transitions (memory_pk, team_id, from_state, to_state, actor, reason, successor_id)
                       VALUES ($1, $2, 'unconfirmed_hypothesis', $3, $4, 'retained', $5)""",
                    pk, draft.team_id, draft.truth_state.value,
                    draft.verified_by or draft.source.value, draft.superseded_by,
                )  # fmt: skip
            await self._count_document(conn, draft.team_id, terms, document.length, +1)
            outcome = RetainOutcome(status=RetainStatus.CREATED, memory=await self._get(conn, draft.team_id, draft.incident_id))
        self._derive_soon()
        return outcome

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

    async def add_correction(self, team_id: str, incident_id: str, author: str, text: str) -> MemoryRecord:
        correction = Correction(author=author, text=text)
        async with self._acquire() as conn, conn.transaction():
            pk = await self._pk(conn, team_id, incident_id, lock=True)
            await conn.execute(
                "INSERT INTO memory_corrections (memory_pk, team_id, author, text, created_at) VALUES ($1, $2, $3, $4, $5)",
                pk, team_id, correction.author, correction.text, correction.created_at,
            )  # fmt: skip
            await conn.execute("UPDATE memories SET updated_at = now() WHERE pk = $1", pk)
            return await self._get(conn, team_id, incident_id)

    async def transition(
        self,
        team_id: str,
        incident_id: str,
        to_state: TruthState,
        *,
        actor: str,
        reason: str = "",
        successor_id: str | None = None,
        verification_note: str | None = None,
    ) -> MemoryRecord:
        move = TruthTransition(
            from_state=TruthState.UNCONFIRMED_HYPOTHESIS, to_state=to_state, actor=actor,
            reason=reason, successor_id=successor_id,
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
                       verified_at = CASE WHEN $4 THEN now() ELSE verified_at END,
                       verification_note = CASE WHEN $4 THEN $6 ELSE verification_note END
                   WHERE pk = $1""",
                row["pk"], to_state.value, successor_id if to_state is TruthState.SUPERSEDED else None,
                confirming, move.actor, verification_note,
            )  # fmt: skip
            await conn.execute(
                """INSERT INTO truth_transitions (memory_pk, team_id, from_state, to_state, actor, reason, successor_id, at)
                   VALUES ($1, $2, $3, $4, $5, $6, $7, $8)""",
                row["pk"], team_id, from_state.value, to_state.value, move.actor, move.reason,
                move.successor_id, move.at,
            )  # fmt: skip
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

    async def purge(self, team_id: str, incident_id: str) -> None:
        async with self._acquire() as conn, conn.transaction():
            row = await conn.fetchrow(
                "DELETE FROM memories WHERE team_id = $1 AND incident_id = $2 RETURNING pk, doc_terms, doc_len",
                team_id, incident_id,
            )  # fmt: skip
            if row is None:
                raise MemoryNotFound(incident_id, team_id)
            await self._count_document(conn, team_id, sorted(row["doc_terms"]), row["doc_len"], -1)
            # deleted for good: its terms leave the postings too
            await conn.execute(
                "DELETE FROM recall_postings WHERE team_id = $1 AND term = ANY($2::text[]) AND memory_pk = $3",
                team_id, list(row["doc_terms"]), row["pk"],
            )  # fmt: skip

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
                f"""SELECT {_RECORD_COLUMNS} FROM memories WHERE {where}
                    ORDER BY created_at DESC, pk DESC LIMIT $4 OFFSET $5""",
                team_id, service, states, max(1, min(limit, 500)), max(0, offset),
            )  # fmt: skip
            return MemoryPage(memories=await self._records(conn, rows), total=total)

    async def ping(self) -> bool:
        try:
            async with self._pool.acquire(timeout=2) as conn:
                return await conn.fetchval("SELECT 1") == 1
        except Exception:  # noqa: BLE001 - any failure means "does not answer"
            return False

    async def recall(self, query: RecallQuery) -> list[RecallMatch]:
        return await self._recaller.recall(query)

    # ---- the recall pipeline's candidate step ---------------------------------------------

    async def corpus_stats(self, team_id: str) -> CorpusStats:
        async with self._acquire() as conn:
            row = await conn.fetchrow("SELECT doc_count, total_len FROM team_stats WHERE team_id = $1", team_id)
        if row is None or row["doc_count"] <= 0:
            return CorpusStats(doc_count=0, avg_doc_len=1.0)
        return CorpusStats(doc_count=row["doc_count"], avg_doc_len=max(1.0, row["total_len"] / row["doc_count"]))

    async def candidates(self, query: RecallQuery, terms: QueryTerms, *, pool_size: int = CANDIDATE_POOL) -> list[Candidate]:
        """Memories sharing the query's rarest terms, its error signature or its concepts, scored
        by BM25 in the database; a superseded memory brings its successor along."""
        async with self._acquire() as conn:
            stats_row = await conn.fetchrow("SELECT doc_count, total_len FROM team_stats WHERE team_id = $1", query.team_id)
            if stats_row is None or stats_row["doc_count"] <= 0:
                return []
            doc_count = stats_row["doc_count"]
            avgdl = max(1.0, stats_row["total_len"] / doc_count)
            df_rows = await conn.fetch(
                "SELECT term, df FROM term_stats WHERE team_id = $1 AND term = ANY($2::text[]) AND df > 0",
                query.team_id, list(terms.all_terms),
            )  # fmt: skip
            df = {r["term"]: r["df"] for r in df_rows}
            title = set(terms.title_terms)
            known = [t for t in terms.all_terms if t in df]
            weights = [bm25_idf(doc_count, df[t]) * (1.0 + (TITLE_QUERY_BONUS if t in title else 0.0)) for t in known]
            # the title names the problem: its terms always pick candidates, with the rarest others
            rarest = sorted(known, key=lambda t: (t not in title, df[t]))[: CANDIDATE_TERMS + len(title)]
            filters, args = _recall_filters(query, first_arg=7)
            head = (query.team_id, known, weights, avgdl, BM25_K1, BM25_B, *args)
            extra = len(head) + 1
            rows: list[asyncpg.Record] = []
            if known:
                mark = await conn.fetchval("SELECT max_pk FROM recall_postings_state") or 0
                pks: list[int] = []
                if mark:
                    heavy = sorted(zip(known, weights), key=lambda tw: -tw[1])[:POSTINGS_TERMS]
                    depths = [min(df[t], DEPTH_RARE if df[t] <= RARE_DF_SHARE * doc_count else DEPTH_COMMON) for t, _ in heavy]
                    pks = await self._postings_candidates(conn, query, heavy, depths)
                if rarest:
                    # memories retained since the last derivation: through the GIN index
                    pks += await self._fresh_candidates(conn, query.team_id, mark, rarest)
                if pks:
                    rows += await conn.fetch(
                        _scored_select(f"m.pk = ANY(${extra}::bigint[])", filters,
                                       f"ORDER BY s.score DESC NULLS LAST, m.pk DESC LIMIT ${extra + 1}"),
                        *head, pks, pool_size,
                    )  # fmt: skip
            if terms.signature or terms.concepts:
                rows += await conn.fetch(
                    _scored_select(
                        # two cheap picks: any memories with the signature (through its index), the
                        # newest naming a shared mechanism; ordering by overlap would sort every
                        # memory naming a common mechanism
                        f"""m.pk IN ((SELECT m.pk FROM memories m WHERE m.team_id = $1 AND m.error_signature = ${extra} {filters}
                                      LIMIT ${extra + 2})
                                     UNION
                                     (SELECT m.pk FROM memories m WHERE m.team_id = $1 AND m.concepts && ${extra + 1}::text[] {filters}
                                      ORDER BY m.pk DESC LIMIT ${extra + 2}))""", "", ""),
                    *head, terms.signature, list(terms.concepts), SIGNAL_CANDIDATES,
                )  # fmt: skip
            rows = list({r["pk"]: r for r in rows}.values())
            present = {r["incident_id"] for r in rows}
            successors = {r["superseded_by"] for r in rows if r["superseded_by"]} - present
            if successors:
                # the replacement is what a responder should read; it competes with what led to it
                found = await conn.fetch(
                    _scored_select(f"m.incident_id = ANY(${extra}::text[])", filters, ""), *head, list(successors)
                )
                rows += found
            records = await self._records(conn, rows)
        by_id = {r["incident_id"]: float(r["score"] or 0.0) for r in rows}
        query_concepts = set(terms.concepts)
        out = []
        for record, row in zip(records, rows, strict=True):
            lexical = float(row["score"] or 0.0)
            if record.incident_id in successors:
                lexical = max([lexical] + [by_id[r["incident_id"]] for r in rows if r["superseded_by"] == record.incident_id])
            out.append(
                Candidate(
                    memory=record,
                    lexical=lexical,
                    matched_terms=tuple(row["matched"] or ()),
                    helpful_votes=row["helpful"],
                    not_relevant_votes=row["not_relevant"],
                    same_signature=bool(terms.signature) and row["error_signature"] == terms.signature,
                    shared_concepts=tuple(c for c in terms.concepts if c in set(row["concepts"] or ()) and c in query_concepts),
                )
            )
        return out

    async def _postings_candidates(
        self, conn: asyncpg.Connection, query: RecallQuery, heavy: list[tuple[str, float]], depths: list[int]
    ) -> list[int]:
        """The RESCORE memories with the best approximate score from the postings' first rows."""
        rows = await conn.fetch(
            """SELECT p.memory_pk, sum(q.w * p.impact) AS approx
               FROM unnest($2::text[], $3::float8[], $4::int[]) AS q(term, w, depth)
               CROSS JOIN LATERAL (
                   SELECT memory_pk, impact FROM recall_postings p
                   WHERE p.team_id = $1 AND p.term = q.term
                     AND ($5::timestamptz IS NULL OR p.occurred_at IS NULL OR p.occurred_at <= $5)
                   ORDER BY p.impact DESC LIMIT q.depth
               ) p
               GROUP BY p.memory_pk ORDER BY approx DESC LIMIT $6""",
            query.team_id, [t for t, _ in heavy], [w for _, w in heavy], depths, query.occurred_before, RESCORE,
        )  # fmt: skip
        return [r["memory_pk"] for r in rows]

    async def _fresh_candidates(self, conn: asyncpg.Connection, team_id: str, mark: int, rarest: list[str]) -> list[int]:
        """Memories retained since postings were last derived that share a candidate term."""
        rows = await conn.fetch(
            f"SELECT pk FROM memories m WHERE m.team_id = $1 AND m.pk > $2 AND m.search @@ $3::tsquery LIMIT {RESCORE}",
            team_id, mark, _tsquery(rarest),
        )  # fmt: skip
        return [r["pk"] for r in rows]

    # ---- helpers -------------------------------------------------------------------------

    def _acquire(self):  # noqa: ANN202 - asyncpg's pool context manager
        return _Acquire(self._pool)

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
            f"SELECT {_RECORD_COLUMNS} FROM memories WHERE team_id = $1 AND incident_id = $2", team_id, incident_id
        )
        if row is None:
            raise MemoryNotFound(incident_id, team_id)
        return (await self._records(conn, [row]))[0]

    async def _records(self, conn: asyncpg.Connection, rows: Sequence[asyncpg.Record]) -> list[MemoryRecord]:
        if not rows:
            return []
        pks = [r["pk"] for r in rows]
        corrections: dict[int, list[Correction]] = {pk: [] for pk in pks}
        transitions: dict[int, list[TruthTransition]] = {pk: [] for pk in pks}
        for c in await conn.fetch(
            "SELECT memory_pk, author, text, created_at FROM memory_corrections WHERE memory_pk = ANY($1) ORDER BY created_at, id",
            pks,
        ):
            corrections[c["memory_pk"]].append(Correction(author=c["author"], text=c["text"], created_at=c["created_at"]))
        for t in await conn.fetch(
            """SELECT memory_pk, from_state, to_state, actor, reason, successor_id, at
               FROM truth_transitions WHERE memory_pk = ANY($1) ORDER BY at, id""",
            pks,
        ):
            transitions[t["memory_pk"]].append(
                TruthTransition(
                    from_state=t["from_state"], to_state=t["to_state"], actor=t["actor"],
                    reason=t["reason"], successor_id=t["successor_id"], at=t["at"],
                )  # fmt: skip
            )
        return [_record(r, corrections[r["pk"]], transitions[r["pk"]]) for r in rows]


def _record(row: asyncpg.Record, corrections: list[Correction], transitions: list[TruthTransition]) -> MemoryRecord:
    fields: dict[str, Any] = {c: row[c] for c in _DRAFT_COLUMNS}
    fields["tags"] = list(fields["tags"] or [])
    return MemoryRecord.model_validate(
        {**fields, "corrections": corrections, "transitions": transitions,
         "created_at": row["created_at"], "updated_at": row["updated_at"]}
    )  # fmt: skip


def _scored_select(where: str, filters: str, tail: str) -> str:
    """Memories matching `where` and the recall filters, each with its BM25 score for the query
    ($2 terms, $3 weights, $4 avgdl, $5 k1, $6 b) and its feedback counts."""
    return f"""WITH q AS (SELECT * FROM unnest($2::text[], $3::float8[]) AS q(term, w))
        SELECT {_RECORD_COLUMNS}, m.error_signature, m.concepts, s.score, s.matched,
               (SELECT count(*) FILTER (WHERE kind = 'helpful') FROM memory_feedback f WHERE f.memory_pk = m.pk) AS helpful,
               (SELECT count(*) FILTER (WHERE kind = 'not_relevant') FROM memory_feedback f WHERE f.memory_pk = m.pk) AS not_relevant
        FROM memories m
        CROSS JOIN LATERAL (
            SELECT sum(q.w * x.tf * ($5::float8 + 1) / (x.tf + $5::float8 * (1 - $6::float8 + $6::float8 * m.doc_len / $4::float8))) AS score,
                   array_agg(q.term ORDER BY q.w DESC) AS matched
            -- one pass over the memory's own terms (one detoast), joined to the query's
            FROM (SELECT d.key AS term, d.value::float8 AS tf FROM jsonb_each_text(m.doc_terms) d) x
            JOIN q ON q.term = x.term
        ) s
        WHERE m.team_id = $1 AND {where} {filters}
        {tail}"""


def _recall_filters(query: RecallQuery, *, first_arg: int) -> tuple[str, list[Any]]:
    """SQL conditions for recall's hard filters (truth, visibility, service, time...)."""
    clauses: list[str] = []
    args: list[Any] = []

    def arg(value: Any) -> str:
        args.append(value)
        return f"${first_arg + len(args) - 1}"

    if query.truth_states:
        states = [s.value for s in query.truth_states]
    elif query.reusable_only:
        states = [TruthState.HUMAN_CONFIRMED.value, TruthState.VERIFICATION_CONFIRMED.value]
    else:
        # rejected memories never come back unless asked for; superseded ones come back only
        # to point at their successor
        states = [s.value for s in TruthState if s is not TruthState.REJECTED]
    if query.reusable_only:
        states = [s for s in states if TruthState(s).reusable]
    clauses.append(f"m.truth_state = ANY({arg(states)}::text[])")
    clauses.append(f"(NOT m.is_private OR m.channel_id = {arg(query.channel_id)}::text)")
    if query.filter_services:
        clauses.append(f"lower(m.service) = ANY({arg([s.lower() for s in query.filter_services])}::text[])")
    if query.filter_severities:
        clauses.append(f"lower(m.severity) = ANY({arg([s.lower() for s in query.filter_severities])}::text[])")
    if query.filter_tags:
        clauses.append(f"m.tags && {arg(list(query.filter_tags))}::text[]")
    if query.occurred_after is not None:
        clauses.append(f"(m.occurred_at IS NULL OR m.occurred_at >= {arg(query.occurred_after)}::timestamptz)")
    if query.occurred_before is not None:
        clauses.append(f"(m.occurred_at IS NULL OR m.occurred_at <= {arg(query.occurred_before)}::timestamptz)")
    return "".join(f" AND {c}" for c in clauses), args


class _Acquire:
    """Pool acquisition that turns a dead database into StoreUnavailable."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._cm: Any = None

    async def __aenter__(self) -> asyncpg.Connection:
        self._cm = self._pool.acquire(timeout=10)
        try:
            return await self._cm.__aenter__()
        except (OSError, asyncpg.PostgresConnectionError, asyncpg.InterfaceError, TimeoutError) as exc:
            raise StoreUnavailable(f"the database does not answer: {exc}") from exc

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        await self._cm.__aexit__(exc_type, exc, tb)
        # callers see the memory bank's errors, never a driver's: a refused write or a lost
        # connection becomes StoreFailed/StoreUnavailable, with the database's own words
        if isinstance(exc, (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, OSError)):
            raise StoreUnavailable(f"the database does not answer: {exc}") from exc
        if isinstance(exc, asyncpg.PostgresError):
            raise StoreFailed(f"the database refused the change: {exc}") from exc

