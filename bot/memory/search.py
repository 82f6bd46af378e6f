"""The recall pipeline's candidate step in PostgreSQL: which memories compete, with their BM25.

Three sources, then one exact scoring:
- the impact-ordered postings (migrations/0004): the query's heaviest terms, each read to a
  depth, summed into an approximate score; the best RESCORE memories go on;
- memories retained since the postings were last derived, through the GIN index;
- memories with the query's error signature or naming one of its mechanisms (concepts), or whose
  incident fired one of the query's alerts, so that a memory sharing no word with it comes back;
and a superseded memory brings its successor along. All are scored by exact BM25 (whole query
plus twice its title) in one pass over each memory's own term counts.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import asyncpg

from bot.memory.vectors import semantic_candidates, similarities
from bot.models import MemoryRecord, RecallQuery, TruthState
from bot.recall.candidates import BM25_B, BM25_K1, JUDGED_BANK_SIZE, TITLE_QUERY_BONUS, Candidate, bm25_idf
from bot.recall.document import QueryTerms
from bot.recall.meaning import QueryMeaning

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
# Depths grow with the bank (measured on synthetic memories: at 1M, 2000/300 kept the source of
# a query in the top 10 for 0.84 of queries at p95 53 ms, 5000/1000 for 0.91 at p95 ~100 ms).
POSTINGS_TERMS = 48
DEPTH_RARE, DEPTH_COMMON, RARE_DF_SHARE = 2000, 300, 0.02
DEPTH_RARE_SHARE, DEPTH_COMMON_SHARE = 0.005, 0.001
RESCORE = 120


def postings_depth(df: int, doc_count: int) -> int:
    """How far to read a term's postings: its whole list if short, deeper for rarer terms."""
    if df <= RARE_DF_SHARE * doc_count:
        return min(df, max(DEPTH_RARE, int(DEPTH_RARE_SHARE * doc_count)))
    return min(df, max(DEPTH_COMMON, int(DEPTH_COMMON_SHARE * doc_count)))


def _alert_names(names: Sequence[str]) -> list[str]:
    """jsonb containment patterns, one per alert name, as JSON text (a list of lists would be
    sent as a two-dimensional array of objects)."""
    return [json.dumps([{"name": n}]) for n in names]


def _tsquery(terms: Sequence[str]) -> str:
    """A tsquery literal OR-ing the terms verbatim. Cast with ::tsquery, never to_tsquery(): that
    re-parses 'foo-bar' into the phrase 'foo' <-> 'bar', which no stored term list can match."""
    return " | ".join("'" + t.replace("\\", "\\\\").replace("'", "''") + "'" for t in terms)


@dataclass(frozen=True, slots=True)
class Found:
    """The candidate rows (`columns` plus score, matched terms, signals and votes), the
    incident_ids among them that came along as successors of superseded memories, and, when the
    query was embedded, each row's similarity in meaning, closest sentence, its opening's
    similarity and the closest sentence's (by pk)."""

    rows: list[asyncpg.Record]
    successors: frozenset[str] = frozenset()
    query_idf: dict[str, float] = field(default_factory=dict)
    """idf of every query term for judging relevance (Candidate.query_idf)."""
    meaning: dict[int, tuple[float, str | None, float | None, float | None]] | None = None
    rarest_idf: float = 0.0
    """idf of a term no memory holds, on the same scale (Candidate.rarest_idf)."""


async def search_candidates(
    conn: asyncpg.Connection,
    query: RecallQuery,
    terms: QueryTerms,
    columns: str,
    *,
    pool_size: int = CANDIDATE_POOL,
    meaning: QueryMeaning | None = None,
    near_pks: Awaitable[list[int]] | None = None,
) -> Found:
    """Memories sharing the query's rarest terms, its error signature or its concepts, or (with
    `meaning`, the query's vector) closest to it in meaning, scored by BM25 in the database; a
    superseded memory brings its successor along."""
    stats_row = await conn.fetchrow("SELECT doc_count, total_len FROM team_stats WHERE team_id = $1", query.team_id)
    if stats_row is None or stats_row["doc_count"] <= 0:
        return Found([])
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
    # for judging relevance: every query term, one no memory holds as the rarest
    query_idf = {t: bm25_idf(max(doc_count, JUDGED_BANK_SIZE), df.get(t, 0)) for t in terms.all_terms}
    # the title names the problem: its terms always pick candidates, with the rarest others
    rarest = sorted(known, key=lambda t: (t not in title, df[t]))[: CANDIDATE_TERMS + len(title)]
    filters, args = _recall_filters(query, first_arg=7)
    head = (query.team_id, known, weights, avgdl, BM25_K1, BM25_B, *args)
    extra = len(head) + 1
    rows: list[asyncpg.Record] = []
    pks: list[int] = []
    if known:
        mark = await conn.fetchval("SELECT max_pk FROM recall_postings_state") or 0
        if mark:
            heavy = sorted(zip(known, weights, strict=False), key=lambda tw: -tw[1])[:POSTINGS_TERMS]
            depths = [postings_depth(df[t], doc_count) for t, _ in heavy]
            pks = await _postings_candidates(conn, query, heavy, depths)
        if rarest:
            # memories retained since the last derivation: through the GIN index
            pks += await _fresh_candidates(conn, query.team_id, mark, rarest)
    # the memories closest in meaning (`nearest`, found meanwhile on another connection) compete
    # whatever their words, scored with the others
    near = await near_pks if near_pks is not None else []
    if pks or near:
        # the best `pool_size` by BM25, and every memory near in meaning (listed first)
        rows += await conn.fetch(
            _scored_select(columns, f"(m.pk = ANY(${extra}::bigint[]) OR m.pk = ANY(${extra + 2}::bigint[]))", filters,
                           f"""ORDER BY m.pk = ANY(${extra + 2}::bigint[]) DESC, s.score DESC NULLS LAST, m.pk DESC
                               LIMIT ${extra + 1}"""),
            *head, pks, pool_size + len(near), near,
        )  # fmt: skip
        # the lexical pool is the best `pool_size` of all by BM25; near ones not in it join it
        lexical, nearby = set(pks), set(near)
        best = sorted((r for r in rows if r["pk"] in lexical), key=lambda r: (-(r["score"] or 0.0), -r["pk"]))[
            :pool_size
        ]
        kept = {r["pk"] for r in best}
        rows = best + [r for r in rows if r["pk"] in nearby and r["pk"] not in kept]
    if terms.signature or terms.concepts:
        rows += await conn.fetch(
            _scored_select(
                columns,
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
    if query.alerts:
        # a memory whose incident fired one of these alerts competes whatever its words (the
        # labels are compared in bot/recall/alerts.py; the name picks through the GIN index)
        names = sorted({a.name for a in query.alerts})
        rows += await conn.fetch(
            _scored_select(
                columns,
                f"""m.pk IN (SELECT m.pk FROM memories m WHERE m.team_id = $1 AND m.alerts @> ANY(${extra}::jsonb[])
                             {filters} ORDER BY m.pk DESC LIMIT ${extra + 1})""", "", ""),
            *head, _alert_names(names), SIGNAL_CANDIDATES,
        )  # fmt: skip
    rows = list({r["pk"]: r for r in rows}.values())
    present = {r["incident_id"] for r in rows}
    successors = {r["superseded_by"] for r in rows if r["superseded_by"]} - present
    if successors:
        # the replacement is what a responder should read; it competes with what led to it
        found = await conn.fetch(
            _scored_select(columns, f"m.incident_id = ANY(${extra}::text[])", filters, ""), *head, list(successors)
        )
        rows += found
    similar = await similarities(conn, [r["pk"] for r in rows], meaning) if meaning is not None and rows else None
    return Found(rows, frozenset(successors), query_idf, similar, bm25_idf(max(doc_count, JUDGED_BANK_SIZE), 0))


async def nearest(conn: asyncpg.Connection, query: RecallQuery, meaning: QueryMeaning) -> list[int]:
    """The memories closest in meaning to the query, under recall's filters."""
    filters, args = _recall_filters(query, first_arg=6)
    return await semantic_candidates(conn, query, meaning, filters, args)


async def recurring(
    conn: asyncpg.Connection, query: RecallQuery, service: str, names: list[str], since: datetime
) -> list[str]:
    """Confirmed or verified memories of `service` whose incident fired an alert of one of these
    names and happened since `since`, newest first, under recall's filters (visibility)."""
    confirmed = query.model_copy(
        update={"truth_states": [TruthState.HUMAN_CONFIRMED, TruthState.VERIFICATION_CONFIRMED]}
    )
    filters, args = _recall_filters(confirmed, first_arg=5)
    rows = await conn.fetch(
        f"""SELECT m.incident_id FROM memories m,
                   LATERAL (SELECT coalesce(m.occurred_at, m.resolved_at,
                                            CASE WHEN m.source <> 'seed' THEN m.created_at END) AS at) h
            WHERE m.team_id = $1 AND lower(m.service) = lower($2) AND m.alerts @> ANY($3::jsonb[])
              AND h.at >= $4 {filters}
            ORDER BY h.at DESC, m.incident_id LIMIT 100""",
        query.team_id, service, _alert_names(names), since, *args,
    )  # fmt: skip
    return [r["incident_id"] for r in rows]


def to_candidates(found: Found, memories: Sequence[MemoryRecord], terms: QueryTerms) -> list[Candidate]:
    """The found rows as the pipeline's candidates; `memories` are the rows' records, in order."""
    rows, successors = found.rows, found.successors
    by_id = {r["incident_id"]: float(r["score"] or 0.0) for r in rows}
    out = []
    for record, row in zip(memories, rows, strict=True):
        lexical = float(row["score"] or 0.0)
        if record.incident_id in successors:
            lexical = max(
                [lexical] + [by_id[r["incident_id"]] for r in rows if r["superseded_by"] == record.incident_id]
            )
        out.append(
            Candidate(
                memory=record,
                lexical=lexical,
                matched_terms=tuple(row["matched"] or ()),
                helpful_votes=row["helpful"],
                not_relevant_votes=row["not_relevant"],
                same_signature=bool(terms.signature) and row["error_signature"] == terms.signature,
                shared_concepts=tuple(c for c in terms.concepts if c in set(row["concepts"] or ())),
                query_idf=found.query_idf,
                rarest_idf=found.rarest_idf,
                **_meaning_of(found, row["pk"]),
            )
        )
    return out


def _meaning_of(found: Found, pk: int) -> dict[str, object]:
    """A candidate's semantic fields; none when the query or the memory has no vector of the
    query's model (a memory retained a moment ago is embedded in the background soon)."""
    if found.meaning is None or pk not in found.meaning:
        return {}
    similarity, closest, opening, sentence = found.meaning[pk]
    return {
        "semantic": similarity, "closest_sentence": closest, "opening_semantic": opening, "sentence_semantic": sentence,
    }  # fmt: skip


async def _postings_candidates(
    conn: asyncpg.Connection, query: RecallQuery, heavy: list[tuple[str, float]], depths: list[int]
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


async def _fresh_candidates(conn: asyncpg.Connection, team_id: str, mark: int, rarest: list[str]) -> list[int]:
    """Memories retained since postings were last derived that share a candidate term."""
    rows = await conn.fetch(
        f"SELECT pk FROM memories m WHERE m.team_id = $1 AND m.pk > $2 AND m.search @@ $3::tsquery LIMIT {RESCORE}",
        team_id, mark, _tsquery(rarest),
    )  # fmt: skip
    return [r["pk"] for r in rows]


def _scored_select(columns: str, where: str, filters: str, tail: str) -> str:
    """Memories matching `where` and the recall filters, each with its BM25 score for the query
    ($2 terms, $3 weights, $4 avgdl, $5 k1, $6 b) and its feedback counts."""
    return f"""WITH q AS (SELECT * FROM unnest($2::text[], $3::float8[]) AS q(term, w))
        SELECT {columns}, m.error_signature, m.concepts, s.score, s.matched,
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
    # bot.policy.visible_in: private memories only at home; an isolated channel sees only its own
    home = f"m.channel_id = {arg(query.channel_id)}::text"
    clauses.append(home if query.isolated else f"(NOT m.is_private OR {home})")
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
    if query.exclude_ids:
        clauses.append(f"m.incident_id <> ALL({arg(list(query.exclude_ids))}::text[])")
    return "".join(f" AND {c}" for c in clauses), args
