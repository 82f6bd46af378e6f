"""Optional semantic recall: the embeddings adapter over HTTP, vectors in PostgreSQL (pgvector),
fusion with its own reason, and lexical recall whenever the endpoint or the extension is missing.

The endpoint is tests/fakes/embeddings_api.py, a deterministic embedder served on the loopback
(not a model); the vectors live in a database with pgvector (the embedded PostgreSQL when the
configured server lacks the extension).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import asyncpg
import pytest

from bot.app import open_services
from bot.config import PROJECT_ROOT, Settings
from bot.embeddings.openai_http import OpenAIEmbeddings, endpoint_url
from bot.embeddings.port import EmbeddingsUnavailable
from bot.memory.pool import create_pool
from bot.memory.postgres import PostgresMemoryStore
from bot.models import IncidentRecord, MemoryDraft, RecallQuery, Source, TruthState
from bot.observability import Metrics
from bot.services.meaning import SemanticRecall
from bot.services.recall import RecallService
from tests.fakes.embeddings_api import FakeEmbeddingsApi

TEAM = "T1"
MIGRATIONS = PROJECT_ROOT / "migrations"

POOL = MemoryDraft(
    incident_id="INC-POOL", team_id=TEAM, source=Source.SEED, truth_state=TruthState.HUMAN_CONFIRMED,
    title="Orders API errors", service="orders",
    symptoms="Requests failed for twenty minutes. Connection slots saturated on the primary.",
    root_cause="a batch job held its transactions open", resolution="cap the batch job's transactions",
)  # fmt: skip
DISK = MemoryDraft(
    incident_id="INC-DISK", team_id=TEAM, source=Source.SEED, truth_state=TruthState.HUMAN_CONFIRMED,
    title="Search indexing stopped", service="search",
    symptoms="The indexer stopped writing. Volume full on the data node.", root_cause="old snapshots never pruned",
)  # fmt: skip
DNS = MemoryDraft(
    incident_id="INC-DNS", team_id=TEAM, source=Source.SEED, truth_state=TruthState.HUMAN_CONFIRMED,
    title="Checkout errors after resolver change", service="checkout",
    symptoms="Checkout errors for ten minutes after the resolver config was pushed.",
)  # fmt: skip
# shares no word (nor an incident-vocabulary mechanism) with POOL, but means what it says (the
# fake's groups: sessions ~ connection slots, starved ~ saturated)
QUERY = RecallQuery(team_id=TEAM, title="sessions starved", limit=5)


@pytest.fixture
async def store(vector_database_url: str) -> AsyncIterator[PostgresMemoryStore]:
    pool = await create_pool(vector_database_url)
    store = PostgresMemoryStore(pool)
    for draft in (POOL, DISK, DNS):
        await store.retain(draft)
    try:
        yield store
    finally:
        await store.close()
        await pool.close()


_opened: list[SemanticRecall] = []


@pytest.fixture(autouse=True)
async def _close_semantic() -> AsyncIterator[None]:
    yield
    while _opened:
        await _opened.pop().aclose()


async def semantic_on(
    store: PostgresMemoryStore, api: FakeEmbeddingsApi, model: str = "fake-a", **kw
) -> SemanticRecall:  # noqa: ANN003
    semantic = SemanticRecall(OpenAIEmbeddings(api.url, model, api_key="sk-test"), store, **kw)
    _opened.append(semantic)
    assert await semantic.start()
    return semantic


# ---- the adapter ---------------------------------------------------------------------------


def test_the_url_may_be_the_api_base_or_the_endpoint() -> None:
    assert endpoint_url("http://h:1/v1") == endpoint_url("http://h:1/v1/embeddings/") == "http://h:1/v1/embeddings"


async def test_the_adapter_sends_model_inputs_and_key_and_orders_vectors_by_index(
    embeddings_api: FakeEmbeddingsApi,
) -> None:
    embedder = OpenAIEmbeddings(embeddings_api.url, "fake-a", api_key="sk-test")
    try:
        vectors = await embedder.embed(["disk full", "pool exhausted", "disk full"])
    finally:
        await embedder.aclose()
    assert embeddings_api.requests == [{"model": "fake-a", "input": ["disk full", "pool exhausted", "disk full"]}]
    assert embeddings_api.headers[0]["Authorization"] == "Bearer sk-test"
    assert vectors[0] == vectors[2] != vectors[1]  # the fake answers in reverse order
    assert "sk-test" not in repr(embedder)


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        ({"fail_with": 500}, "refused"),
        ({"fail_with": 401}, "refused"),
        ({"delay": 1.0}, "timeout"),
        ({"answer": {"data": []}}, "bad_answer"),
        ({"answer": {"data": [{"index": 0, "embedding": ["x"]}]}}, "bad_answer"),
        ({"answer": {"data": [{"index": 0, "embedding": [0.0, 0.0]}]}}, "bad_answer"),
        ({"answer": ["not", "an", "object"]}, "bad_answer"),
    ],
)
async def test_whatever_goes_wrong_comes_out_as_embeddings_unavailable(
    embeddings_api: FakeEmbeddingsApi, setup: dict, reason: str
) -> None:
    for key, value in setup.items():
        setattr(embeddings_api, key, value)
    embedder = OpenAIEmbeddings(embeddings_api.url, "fake-a")
    try:
        with pytest.raises(EmbeddingsUnavailable) as caught:
            await embedder.embed(["disk full"], timeout=0.3)
    finally:
        await embedder.aclose()
    assert caught.value.reason == reason


async def test_an_endpoint_nobody_listens_on_is_down(embeddings_api: FakeEmbeddingsApi) -> None:
    url = embeddings_api.url
    await embeddings_api.stop()
    embedder = OpenAIEmbeddings(url, "fake-a")
    try:
        with pytest.raises(EmbeddingsUnavailable) as caught:
            await embedder.embed(["disk full"])
    finally:
        await embedder.aclose()
    assert caught.value.reason == "down"


# ---- recall with vectors -----------------------------------------------------------------------


async def test_a_memory_sharing_no_word_comes_back_by_meaning_with_its_closest_sentence(
    store: PostgresMemoryStore, embeddings_api: FakeEmbeddingsApi
) -> None:
    lexical = await RecallService(store).recall(QUERY)
    assert "INC-POOL" not in [m.memory.incident_id for m in lexical]

    semantic = await semantic_on(store, embeddings_api)
    assert await semantic.embed_pending() == 3
    matches = await RecallService(store, semantic=semantic).recall(QUERY)
    assert matches[0].memory.incident_id == "INC-POOL"
    assert "similar meaning: “Connection slots saturated on the primary.”" in matches[0].reasons
    assert matches[0].score_components["semantic"] == 1.0
    # the judgement reads how far the quoted sentence stands closer than the others' closest (meaning_sentence_lead)
    leads = [m.evidence["meaning_sentence_lead"] for m in matches]
    assert leads[0] > 0 and all(lead < 0 for lead in leads[1:])
    # the query was embedded as one text: title, symptoms, error
    assert embeddings_api.requests[-1]["input"] == ["sessions starved"]


async def test_with_the_endpoint_down_recall_answers_lexically_and_says_so(
    store: PostgresMemoryStore, embeddings_api: FakeEmbeddingsApi, caplog: pytest.LogCaptureFixture
) -> None:
    metrics = Metrics()
    semantic = await semantic_on(store, embeddings_api, metrics=metrics)
    await semantic.embed_pending()
    query = RecallQuery(team_id=TEAM, title="checkout errors", limit=5)
    lexical = await RecallService(store).recall(query)
    embeddings_api.fail_with = 503
    with caplog.at_level(logging.WARNING, logger="bot.services.meaning"):
        fallen_back = await RecallService(store, semantic=semantic).recall(query)
    assert [(m.memory.incident_id, m.score, m.reasons) for m in fallen_back] == [
        (m.memory.incident_id, m.score, m.reasons) for m in lexical
    ]
    assert "recall is lexical only" in caplog.text and "503" in caplog.text
    # the next recalls leave the endpoint alone for a while: no waiting on a dead endpoint
    asked = len(embeddings_api.requests)
    await RecallService(store, semantic=semantic).recall(query)
    assert len(embeddings_api.requests) == asked
    assert metrics.recall_semantic_fallbacks.labels(reason="refused")._value.get() == 1
    assert metrics.recall_semantic_fallbacks.labels(reason="cooling_down")._value.get() == 1


async def test_a_slow_endpoint_costs_recall_at_most_its_timeout(
    store: PostgresMemoryStore, embeddings_api: FakeEmbeddingsApi
) -> None:
    metrics = Metrics()
    semantic = await semantic_on(store, embeddings_api, query_timeout=0.2, metrics=metrics)
    await semantic.embed_pending()
    embeddings_api.delay = 5.0
    # the endpoint answers after 5 s: the recall came back lexical because the 0.2 s timeout fired
    # (counted), not because it waited (no wall-clock check: speed is bench/recall_semantic.py's)
    matches = await RecallService(store, semantic=semantic).recall(RecallQuery(team_id=TEAM, title="checkout errors"))
    assert metrics.recall_semantic_fallbacks.labels(reason="timeout")._value.get() == 1
    assert matches and matches[0].memory.incident_id == "INC-DNS"
    assert all("semantic" not in m.score_components for m in matches)


async def test_a_memory_retained_later_is_embedded_by_the_next_pass_alone_and_then_found(
    store: PostgresMemoryStore, embeddings_api: FakeEmbeddingsApi
) -> None:
    semantic = await semantic_on(store, embeddings_api)
    await semantic.embed_pending()
    late = DISK.model_copy(
        update={"incident_id": "INC-DISK-2", "title": "Uploads rejected", "symptoms": "Quota reached on the bucket."}
    )
    await store.retain(late)
    assert await semantic.counts() == (3, 0, 1)
    asked = len(embeddings_api.requests)
    assert await semantic.embed_pending() == 1
    assert embeddings_api.requests[asked]["input"][0].startswith("Uploads rejected")
    assert await semantic.counts() == (4, 0, 0)
    matches = await RecallService(store, semantic=semantic).recall(RecallQuery(team_id=TEAM, title="disk space"))
    assert {"INC-DISK", "INC-DISK-2"} <= {m.memory.incident_id for m in matches[:2]}


@pytest.mark.parametrize("include_private", [False, True])
async def test_an_incident_in_a_private_channel_sends_its_text_only_when_the_team_allows_it(
    store: PostgresMemoryStore, embeddings_api: FakeEmbeddingsApi, include_private: bool
) -> None:
    semantic = await semantic_on(store, embeddings_api, include_private=include_private)
    await semantic.embed_pending()
    asked = len(embeddings_api.requests)
    incident = IncidentRecord(
        incident_id="INC-NOW", team=TEAM, channel="C9", is_private=True, title="sessions starved",
        started_at=datetime.now(UTC),
    )  # fmt: skip
    result = await RecallService(store, semantic=semantic).for_incident(incident)
    found = [m.memory.incident_id for m in result.matches + result.under_floor]
    if include_private:
        assert embeddings_api.requests[asked:] == [{"model": "fake-a", "input": ["sessions starved"]}]
        assert found[0] == "INC-POOL"  # by meaning
    else:
        assert embeddings_api.requests[asked:] == []  # nothing left the workspace; recall is lexical
        assert "INC-POOL" not in found


async def test_a_model_change_is_detected_and_everything_is_re_embedded(
    store: PostgresMemoryStore, embeddings_api: FakeEmbeddingsApi
) -> None:
    first = await semantic_on(store, embeddings_api, model="fake-a")
    await first.embed_pending()
    second = await semantic_on(store, embeddings_api, model="fake-b")
    assert await second.counts() == (0, 3, 0)
    # vectors of another model are never compared: until re-embedded, recall is lexical
    before = await RecallService(store, semantic=second).recall(QUERY)
    assert "INC-POOL" not in [m.memory.incident_id for m in before]
    assert await second.embed_pending() == 3
    assert await second.counts() == (3, 0, 0)
    assert {r["model"] for r in embeddings_api.requests[-2:]} == {"fake-b"}
    after = await RecallService(store, semantic=second).recall(QUERY)
    assert after[0].memory.incident_id == "INC-POOL"


async def test_the_same_model_served_at_another_dimension_is_re_embedded(
    store: PostgresMemoryStore, embeddings_api: FakeEmbeddingsApi
) -> None:
    first = await semantic_on(store, embeddings_api)
    assert await first.embed_pending() == 3
    embeddings_api.dimensions = 32  # same model name, smaller vectors (a new release, a truncation setting)
    second = await semantic_on(store, embeddings_api)  # a restart
    assert await second.embed_pending() == 3
    assert await second.counts() == (3, 0, 0)
    assert await second.embed_pending() == 0  # nothing left stale
    matches = await RecallService(store, semantic=second).recall(QUERY)
    assert matches[0].memory.incident_id == "INC-POOL"  # found by meaning again, at the new size


async def test_embedding_is_resumable_after_the_endpoint_fails_midway(
    store: PostgresMemoryStore, embeddings_api: FakeEmbeddingsApi
) -> None:
    semantic = await semantic_on(store, embeddings_api)
    embeddings_api.fail_after = 1  # the pass's first call embeds one memory (none stored yet: no size probe)
    with pytest.raises(EmbeddingsUnavailable):
        await semantic.embed_pending(batch=1)
    assert await semantic.counts() == (1, 0, 2)  # what was saved stays saved
    embeddings_api.fail_after = None
    embedded_before = set(embeddings_api.requests[0]["input"])  # the one memory answered
    assert await semantic.embed_pending(batch=1) == 2
    assert await semantic.counts() == (3, 0, 0)
    # the memory embedded before the failure was not sent again
    sent_again = [t for r in embeddings_api.requests[2:] for t in r["input"] if t in embedded_before]
    assert sent_again == []


async def test_a_memory_whose_opening_says_the_query_reads_close_though_its_body_says_other_things(
    store: PostgresMemoryStore, embeddings_api: FakeEmbeddingsApi, vector_database_url: str
) -> None:
    """A first report says symptoms in two lines; a postmortem's whole vector is its body's. The
    opening (title, symptoms, error) is embedded apart and read against the query (meaning_head);
    a vector saved before openings were embedded (an upgrade) is redone by the next pass."""
    body = " ".join(f"step{i} rotated credentials replayed ledger" for i in range(30))
    await store.retain(POOL.model_copy(update={"incident_id": "INC-LONG", "title": "Billing API errors",
                                               "resolution": body, "lesson": body}))  # fmt: skip
    semantic = await semantic_on(store, embeddings_api)
    assert await semantic.embed_pending() == 4
    found = {m.memory.incident_id: m for m in await RecallService(store, semantic=semantic).recall(QUERY)}
    long, short = found["INC-LONG"], found["INC-POOL"]
    # the whole text drowns the symptoms in the body; the opening says what the query says
    assert long.score_components["similarity"] < 0.5 < 0.8 < long.evidence["meaning_head"]
    assert long.evidence["meaning_head"] == pytest.approx(short.evidence["meaning_head"], abs=0.1)
    assert found["INC-DISK"].evidence["meaning_head"] < 0.2
    conn = await asyncpg.connect(vector_database_url)
    try:
        await conn.execute("UPDATE memory_vectors SET opening = NULL")  # as saved before migration 0019
    finally:
        await conn.close()
    assert await semantic.counts() == (0, 4, 0)
    before = {m.memory.incident_id: m for m in await RecallService(store, semantic=semantic).recall(QUERY)}
    assert before["INC-LONG"].evidence["meaning_head"] == 0.0  # no opening yet: nothing read, nothing made up
    assert await semantic.embed_pending() == 4
    assert await semantic.counts() == (4, 0, 0)
    after = {m.memory.incident_id: m for m in await RecallService(store, semantic=semantic).recall(QUERY)}
    assert after["INC-LONG"].evidence["meaning_head"] == long.evidence["meaning_head"]


async def test_a_purged_memory_takes_its_vectors_along(
    store: PostgresMemoryStore, embeddings_api: FakeEmbeddingsApi
) -> None:
    semantic = await semantic_on(store, embeddings_api)
    await semantic.embed_pending()
    await store.purge(TEAM, "INC-POOL", purged_by="U1")
    assert await semantic.counts() == (2, 0, 0)
    matches = await RecallService(store, semantic=semantic).recall(QUERY)
    assert "INC-POOL" not in [m.memory.incident_id for m in matches]


async def test_filters_hold_for_memories_found_by_meaning(
    store: PostgresMemoryStore, embeddings_api: FakeEmbeddingsApi
) -> None:
    semantic = await semantic_on(store, embeddings_api)
    await semantic.embed_pending()
    query = QUERY.model_copy(update={"filter_services": ["search"]})
    matches = await RecallService(store, semantic=semantic).recall(query)
    assert {m.memory.service for m in matches} <= {"search"}


async def test_with_the_variables_unset_the_app_starts_without_semantic_recall_and_sends_nothing(
    vector_database_url: str, embeddings_api: FakeEmbeddingsApi
) -> None:
    # a database with pgvector and an endpoint listening: only the variables turn it on
    async with open_services(Settings(database_url=vector_database_url)) as services:
        assert services.semantic is None and not services.recall.keeps_private_text
        await services.memory.retain(POOL)
        result = await services.recall.for_text(TEAM, None, "connection slots saturated")
    assert [m.memory.incident_id for m in result.matches] == ["INC-POOL"]
    assert all("similar meaning" not in r for m in result.matches for r in m.reasons)
    assert embeddings_api.requests == []


# ---- without pgvector ------------------------------------------------------------------------


async def test_without_pgvector_migrations_apply_start_says_so_and_recall_is_lexical(
    database_url: str, embeddings_api: FakeEmbeddingsApi, caplog: pytest.LogCaptureFixture
) -> None:
    conn = await asyncpg.connect(database_url)
    try:
        available = await conn.fetchval("SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')")
    finally:
        await conn.close()
    if available:
        pytest.skip("the configured server has pgvector: this checks a server without it")
    pool = await create_pool(database_url)
    store = PostgresMemoryStore(pool)
    try:
        await store.retain(POOL)
        semantic = SemanticRecall(OpenAIEmbeddings(embeddings_api.url, "fake-a"), store)
        with caplog.at_level(logging.WARNING, logger="bot.services.meaning"):
            assert await semantic.start(MIGRATIONS) is False
        assert "no pgvector extension" in caplog.text
        matches = await RecallService(store, semantic=semantic).recall(
            RecallQuery(team_id=TEAM, title="orders api errors")
        )
        assert [m.memory.incident_id for m in matches] == ["INC-POOL"]
        assert embeddings_api.requests == []  # nothing is embedded where nothing can be stored
        await semantic.aclose()
    finally:
        await store.close()
        await pool.close()


# ---- the pure parts ----------------------------------------------------------------------------


def test_without_a_vector_fusion_scores_and_explains_exactly_as_before() -> None:
    from bot.recall.fusion import fuse
    from bot.recall.signals import Signals

    plain = Signals(
        lexical=0.8, coverage=0.4, title_overlap=0.3, title_echo=0.2, signature=0.0, concepts=0.5,
        same_service=1.0, truth=0.9, recency=0.4, feedback=0.5,
    )  # fmt: skip
    score, components = fuse(plain)
    assert "semantic" not in components and "similarity" not in components
    import dataclasses

    with_meaning = dataclasses.replace(plain, semantic=0.0, similarity=0.1)
    assert fuse(with_meaning)[0] == score  # the farthest candidate in meaning gains nothing
    closest = dataclasses.replace(plain, semantic=1.0, similarity=0.7)
    assert fuse(closest)[0] > score and fuse(closest)[1]["semantic"] == 1.0
    # the floor: closeness in meaning is evidence of its own, none for a merely related text
    from bot.recall.floor import judge

    assert judge(with_meaning) == judge(plain) < judge(closest)


def test_a_memory_is_quoted_sentence_by_sentence_its_stack_trace_by_its_first_line() -> None:
    from bot.recall.meaning import memory_text, quoted, sentences

    draft = POOL.model_copy(update={
        "error_message": "java.sql.SQLTransientConnectionException: pool timed out\n\tat com.zaxxer.Pool.get(Pool.java:1)",
    })  # fmt: skip
    said = sentences(draft)
    assert said[0] == "Orders API errors"
    assert "Connection slots saturated on the primary." in said
    assert "java.sql.SQLTransientConnectionException: pool timed out" in said
    assert not any("com.zaxxer" in s for s in said)
    assert memory_text(draft).startswith("Orders API errors\nRequests failed")
    assert quoted("word " * 100).endswith("…") and len(quoted("word " * 100)) <= 140
