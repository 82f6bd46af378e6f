"""Terms that matter in incidents, and stored terms that follow the tokenizer.

Status, exit and error codes are terms; ids, timestamps and their fragments are not; words are
stemmed by Snowball. When the tokenizer changes (TERMS_VERSION), memories stored by the old
one are re-derived when the store opens, statistics and postings included.
"""

from __future__ import annotations

import pytest

from bot.memory.postgres import PostgresMemoryStore
from bot.memory.postings import derive_postings
from bot.models import MemoryDraft, RecallQuery
from bot.recall.document import TERMS_VERSION
from bot.recall.tokens import surface_forms, tokenize, word_pairs
from bot.services.recall import RecallService


def test_phrases_are_words_in_a_row_within_a_clause() -> None:
    pairs = word_pairs("Cluster launches disrupted in NYC1. Builds on mybinder.org fail at 12:00:59Z with 502s")
    # stop words and timestamps between two words leave them a phrase; a compound word is one word
    assert ("launch", "disrupt") in pairs and ("disrupt", "nyc1") in pairs
    assert ("mybinder.org", "fail") in pairs and ("fail", "502") in pairs
    assert ("nyc1", "build") not in pairs  # a sentence ends between them
    assert word_pairs("retry worked\nnext line") == [("retri", "work"), ("next", "line")]
    assert word_pairs("") == [] and word_pairs("the of a") == []


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("HTTP 502 from the gateway", "502"),
        ("Mobile API 502s", "502"),
        ("Last State: Terminated Reason: OOMKilled Exit Code: 137", "exit:137"),
        ("Last State: Terminated Reason: OOMKilled Exit Code: 137", "137"),
        ("ORA-00060: deadlock detected while waiting for resource", "ora-00060"),
        ("E11000 duplicate key error collection: users", "e11000"),
        ("write failed: errno 28 (No space left on device)", "errno:28"),
        ("worker killed by signal 9", "signal:9"),
    ],
)
def test_codes_that_name_incidents_are_terms(text: str, term: str) -> None:
    assert term in tokenize(text)


@pytest.mark.parametrize(
    "text",
    [
        "at 2024-03-01T12:00:59Z the job ran",
        "started 12:00:59Z, retried at 04:05",
        "request 123e4567-e89b-12d3-a456-426614174000 from 10.0.0.12:8443",
        "commit a1b2c3d4e5f6 deployed, took 500ms at build 20240301",
        "at com.acme.Checkout.pay(Checkout.java:208)",
    ],
)
def test_ids_timestamps_and_their_fragments_are_not(text: str) -> None:
    terms = tokenize(text)
    assert not [t for t in terms if any(ch.isdigit() for ch in t)], terms


def test_words_are_stemmed_and_shown_as_written() -> None:
    assert tokenize("connections retried") == tokenize("connection retries")
    assert tokenize("Kubernetes") == tokenize("kubernetes")
    assert surface_forms("Kubernetes pods evicted")[tokenize("Kubernetes")[0]] == "Kubernetes"


def draft(incident_id: str, **fields: object) -> MemoryDraft:
    return MemoryDraft.model_validate(
        {
            "incident_id": incident_id,
            "team_id": "T1",
            "title": "Storefront 502 Bad Gateway after ingress upgrade",
            "service": "edge",
            "root_cause": "HTTP/2 towards pods that spoke HTTP/1.1",
            **fields,
        }  # fmt: skip
    )


async def _as_if_an_old_tokenizer_stored_them(store: PostgresMemoryStore, conn) -> None:  # noqa: ANN001
    """Stored terms without the status code (the old tokenizer dropped numbers), their
    statistics and postings derived from them, and the bank marked as at version 1."""
    rows = await conn.fetch("SELECT pk, doc_terms FROM memories ORDER BY pk")
    await conn.execute("DELETE FROM term_stats; DELETE FROM team_stats; DELETE FROM recall_postings")
    await conn.execute("UPDATE recall_postings_state SET max_pk = 0")
    for row in rows:
        old = {t: n for t, n in row["doc_terms"].items() if t != "502"} | {"stale": 1}
        await conn.execute(
            """UPDATE memories SET doc_terms = $2, doc_len = $3, search = array_to_tsvector($4::text[]),
                   terms_version = 1 WHERE pk = $1""",
            row["pk"], old, sum(old.values()), sorted(old),
        )  # fmt: skip
    await conn.execute(
        """INSERT INTO term_stats (team_id, term, df)
           SELECT m.team_id, d.key, count(*) FROM memories m, jsonb_each(m.doc_terms) d GROUP BY 1, 2;
           INSERT INTO team_stats (team_id, doc_count, total_len) SELECT team_id, count(*), sum(doc_len) FROM memories GROUP BY 1;
           UPDATE recall_terms_state SET version = 1"""
    )
    await derive_postings(conn)


async def _statistics(conn) -> tuple:  # noqa: ANN001
    return (
        sorted(tuple(r) for r in await conn.fetch("SELECT team_id, term, df FROM term_stats WHERE df <> 0")),
        sorted(tuple(r) for r in await conn.fetch("SELECT team_id, doc_count, total_len FROM team_stats")),
        # impacts depend on the average length when derived: which postings exist is what must match
        sorted(tuple(r) for r in await conn.fetch("SELECT term, memory_pk FROM recall_postings")),
    )


async def test_memories_stored_by_an_older_tokenizer_are_rederived_when_the_store_opens(
    store: PostgresMemoryStore,
) -> None:
    await store.retain(draft("INC-1"))
    await store.retain(draft("INC-2", title="Checkout API 502s during deploy", service="checkout"))
    await store.close()
    async with store._pool.acquire() as conn:
        fresh = await _statistics(conn)
        await _as_if_an_old_tokenizer_stored_them(store, conn)
        assert await _statistics(conn) != fresh
    assert await RecallService(store).recall(RecallQuery(team_id="T1", title="502")) == []  # the old terms knew no 502

    assert await store.reindex_terms() == 2
    async with store._pool.acquire() as conn:
        assert await _statistics(conn) == fresh  # as if retained under the new tokenizer
        assert await conn.fetchval("SELECT version FROM recall_terms_state") == TERMS_VERSION
        assert await conn.fetchval("SELECT count(*) FROM memories WHERE terms_version < $1", TERMS_VERSION) == 0
    found = await RecallService(store).recall(RecallQuery(team_id="T1", title="502"))
    assert {m.memory.incident_id for m in found} == {"INC-1", "INC-2"}
    assert await store.reindex_terms() == 0  # once is enough
