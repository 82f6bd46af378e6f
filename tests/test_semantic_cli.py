"""`incident-memory embed` and `recall` with semantic recall, as a person runs them. The CLI runs
in a thread (it has its own event loop) while the fake embeddings endpoint serves on the tests'."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

import pytest

from bot.cli import main
from tests.fakes.embeddings_api import FakeEmbeddingsApi

MEMORIES = [
    {"incident_id": "INC-POOL", "title": "Orders API errors", "service": "orders",
     "symptoms": "Requests failed for twenty minutes. Connection slots saturated on the primary.",
     "truth_state": "human_confirmed", "verified_by": "maya"},
    {"incident_id": "INC-DISK", "title": "Search indexing stopped", "service": "search",
     "symptoms": "The indexer stopped writing. Volume full on the data node.", "truth_state": "human_confirmed", "verified_by": "li"},
]  # fmt: skip


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path):  # noqa: ANN201
    async def run(*argv: str) -> tuple[int, str, str]:
        code = await asyncio.to_thread(main, list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    path = tmp_path / "memories.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in MEMORIES))
    run.memories = str(path)  # type: ignore[attr-defined]
    return run


async def test_embed_backfills_once_re_embeds_after_a_model_change_and_recall_uses_it(
    cli,
    vector_database_url: str,
    embeddings_api: FakeEmbeddingsApi,
    monkeypatch: pytest.MonkeyPatch,  # noqa: ANN001
) -> None:
    monkeypatch.setenv("DATABASE_URL", vector_database_url)
    assert (await cli("retain", cli.memories))[0] == 0
    monkeypatch.setenv("EMBEDDINGS_URL", embeddings_api.url)
    monkeypatch.setenv("EMBEDDINGS_MODEL", "fake-a")
    code, out, _ = await cli("embed", "--json", "--no-progress")
    assert code == 0 and json.loads(out) == {
        "model": "fake-a",
        "embedded": 2,
        "re_embedded_from_other_model": 0,
        "already_current": 0,
    }
    code, out, _ = await cli("embed", "--no-progress")
    assert code == 0 and out.startswith("embedded 0 memories with fake-a") and "2 of 2 now have vectors" in out

    monkeypatch.setenv("EMBEDDINGS_MODEL", "fake-b")
    code, out, _ = await cli("embed", "--json", "--no-progress")
    assert code == 0 and json.loads(out)["embedded"] == 2 and json.loads(out)["re_embedded_from_other_model"] == 2

    code, out, _ = await cli("recall", "sessions", "starved")
    assert code == 0 and out.startswith("1. INC-POOL")
    assert "why: similar meaning: “Connection slots saturated on the primary.”" in out


async def test_embed_stopped_by_the_endpoint_says_how_to_resume(
    cli,
    vector_database_url: str,
    embeddings_api: FakeEmbeddingsApi,
    monkeypatch: pytest.MonkeyPatch,  # noqa: ANN001
) -> None:
    monkeypatch.setenv("DATABASE_URL", vector_database_url)
    assert (await cli("retain", cli.memories))[0] == 0
    monkeypatch.setenv("EMBEDDINGS_URL", embeddings_api.url)
    monkeypatch.setenv("EMBEDDINGS_MODEL", "fake-a")
    embeddings_api.fail_with = 503
    code, _, err = await cli("embed", "--no-progress")
    assert code == 1 and "HTTP 503" in err and "run again to resume" in err
    # recall still answers, lexically
    code, out, _ = await cli("recall", "search", "indexing", "stopped")
    assert code == 0 and out.startswith("1. INC-DISK")


async def test_embed_without_the_variables_or_without_pgvector_says_why(
    cli,
    database_url: str,
    embeddings_api: FakeEmbeddingsApi,
    monkeypatch: pytest.MonkeyPatch,  # noqa: ANN001
) -> None:
    monkeypatch.setenv("DATABASE_URL", database_url)
    code, _, err = await cli("embed")
    assert code == 1 and "EMBEDDINGS_URL is not set" in err
    monkeypatch.setenv("EMBEDDINGS_URL", embeddings_api.url)
    code, _, err = await cli("embed")
    assert code == 1 and "EMBEDDINGS_MODEL is not" in err
    monkeypatch.setenv("EMBEDDINGS_MODEL", "fake-a")
    code, _, err = await cli("embed")
    import asyncpg

    conn = await asyncpg.connect(database_url)
    try:
        has_vector = await conn.fetchval("SELECT to_regclass('memory_vectors') IS NOT NULL")
    finally:
        await conn.close()
    if not has_vector:
        assert code == 1 and "no pgvector" in err


def reading_the_sentences(monkeypatch: pytest.MonkeyPatch) -> None:
    """Recall judged by the shipped models, the semantic one also reading the closest sentence's lead."""
    from bot.recall import judgement, pipeline

    shipped = judgement.load_judgement()
    semantic = dataclasses.replace(
        shipped.semantic, coefficients={**shipped.semantic.coefficients, "meaning_sentence_lead": 1.0}
    )
    monkeypatch.setattr(pipeline, "load_judgement", lambda: dataclasses.replace(shipped, semantic=semantic))


@pytest.mark.parametrize("model_reads_sentences", [False, True])
async def test_replay_embeds_the_memories_sentences_only_when_its_judgement_reads_them(
    vector_database_url: str,
    embeddings_api: FakeEmbeddingsApi,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    model_reads_sentences: bool,
) -> None:
    """The whole text (ranking) and the opening (meaning_head) are always embedded, each query too.
    The sentences (the card's quote, which no replay shows) are asked of the endpoint only when the
    judgement reads meaning_sentence_lead: no shipped model does, and they were about half a first
    replay's model time."""
    from bot.recall.meaning import memory_text, opening_text, query_text, sentences
    from bot.replay import load_cases, load_memories

    if model_reads_sentences:
        reading_the_sentences(monkeypatch)
    (tmp_path / "memories.jsonl").write_text("\n".join(json.dumps(m) for m in MEMORIES))
    (tmp_path / "cases.jsonl").write_text(json.dumps(
        {"id": "c1", "relevant": ["INC-POOL"], "incident": {"title": "sessions starved", "service": "orders"}}
    ))  # fmt: skip
    monkeypatch.setenv("DATABASE_URL", vector_database_url)
    monkeypatch.setenv("EMBEDDINGS_URL", embeddings_api.url)
    monkeypatch.setenv("EMBEDDINGS_MODEL", "fake-a")
    code = await asyncio.to_thread(main, ["replay", str(tmp_path), "--json", "--no-progress"])
    assert code == 0
    memories = load_memories(tmp_path)
    said = [s for m in memories for s in sentences(m)]
    expected = [memory_text(m) for m in memories] + [opening_text(m) for m in memories]
    expected += [query_text(c.query) for c in load_cases(tmp_path)]
    assert len(said) == 6 and not set(said) & set(expected)  # each memory's title and two symptoms, told apart
    sent = embeddings_api.texts
    assert sorted(sent) == sorted(expected + (said if model_reads_sentences else []))
    assert sum(t in said for t in sent) == (len(said) if model_reads_sentences else 0)
