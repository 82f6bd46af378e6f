"""Recall quality on the project's own incident corpus (eval/incidents), as a responder sees it:
the right past incident in the top five, rejected memories never shown, superseded ones only as
a pointer to what replaced them, disagreeing memories flagged as a conflict."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cli import main
from bot.config import PROJECT_ROOT
from bot.memory.pool import create_pool
from bot.memory.postgres import PostgresMemoryStore
from bot.models import MemoryDraft, RecallQuery, TruthState
from bot.recall.conflicts import find_conflicts
from bot.recall.floor import DEFAULT_FLOOR
from bot.replay import load_cases, load_memories, replay_on
from bot.replay_report import CaseResult, ReplayReport
from bot.services.recall import RecallService
from tests.conftest import Clones


async def recall(store, query: RecallQuery):  # noqa: ANN001, ANN201 - list[RecallMatch]
    """Recall as the bot runs it: the store's candidates ranked by the pure pipeline."""
    return await RecallService(store).recall(query)


CORPUS = PROJECT_ROOT / "eval" / "incidents"
TOP = 5


@pytest.fixture(scope="module")
async def report(clones: Clones) -> AsyncIterator[ReplayReport]:
    """The corpus replayed once, on a database of its own, for the module's tests: they only read what it found."""
    dsn = await clones.take()
    pool = await create_pool(dsn)
    try:
        store = PostgresMemoryStore(pool)
        yield await replay_on(store, pool, load_memories(CORPUS), load_cases(CORPUS), progress=False, keep_matches=True)
    finally:
        await pool.close()
        clones.give_back(dsn)


def _of_kind(report: ReplayReport, *kinds: str) -> list[CaseResult]:
    found = [r for r in report.results if r.case.flags.get("kind") in kinds]
    assert found, f"the corpus has no {kinds} case"
    return found


def test_the_corpus_is_big_enough_and_covers_every_kind() -> None:
    memories, cases = load_memories(CORPUS), load_cases(CORPUS)
    assert len(memories) >= 40 and len(cases) >= 40
    kinds = {c.flags["kind"] for c in cases}
    assert {"paraphrase", "same_error_other_ids", "same_mechanism_other_service", "verified_vs_unverified",
            "rejected", "superseded", "conflict"} <= kinds  # fmt: skip
    states = {m.truth_state for m in memories}
    assert {TruthState.REJECTED, TruthState.SUPERSEDED, TruthState.UNCONFIRMED_HYPOTHESIS} <= states


async def test_every_paraphrase_finds_its_incident_in_the_top_five(report: ReplayReport) -> None:
    missed = [(r.case.id, r.ranked[:TOP]) for r in _of_kind(report, "paraphrase") if not (r.rank and r.rank <= TOP)]
    assert missed == []


async def test_same_error_with_other_ids_and_same_mechanism_elsewhere_are_found(report: ReplayReport) -> None:
    results = _of_kind(report, "same_error_other_ids", "same_mechanism_other_service")
    missed = [(r.case.id, r.ranked[:TOP]) for r in results if not (r.rank and r.rank <= TOP)]
    assert missed == []
    same_error = _of_kind(report, "same_error_other_ids")
    assert all("same error signature" in r.matches[0].reasons for r in same_error)


async def test_rejected_memories_never_come_back(report: ReplayReport) -> None:
    rejected = {m.incident_id for m in load_memories(CORPUS) if m.truth_state is TruthState.REJECTED}
    shown = {m.memory.incident_id for r in report.results for m in r.matches}
    assert rejected and not rejected & shown
    # the rejected guess's case still gets the confirmed explanation first
    assert all(r.rank == 1 for r in _of_kind(report, "rejected"))


async def test_superseded_memories_appear_only_as_a_pointer_to_their_successor(report: ReplayReport) -> None:
    pointers = 0
    for result in report.results:
        top = result.matches[:TOP]
        for match in top:
            if match.memory.truth_state is TruthState.SUPERSEDED:
                pointers += 1
                assert match.successor_id == match.memory.superseded_by
                assert match.successor_id in [m.memory.incident_id for m in top]
            else:
                assert match.successor_id is None
    assert pointers > 0
    assert all(r.rank == 1 for r in _of_kind(report, "superseded"))  # the successor leads


async def test_a_verified_fix_outranks_an_unverified_guess_with_the_same_error(report: ReplayReport) -> None:
    (result,) = _of_kind(report, "verified_vs_unverified")
    ranked = list(result.ranked)
    assert ranked.index("m01") < ranked.index("m25")
    assert "not verified" in result.matches[ranked.index("m25")].reasons


async def test_memories_of_one_service_with_different_root_causes_are_flagged(report: ReplayReport) -> None:
    (result,) = _of_kind(report, "conflict")
    conflicts = find_conflicts(result.matches[:TOP])
    assert sorted(conflicts.get("checkout", [])) == ["m30", "m31"]


async def test_a_query_sharing_no_word_finds_the_same_mechanism(store: PostgresMemoryStore) -> None:
    await store.retain(MemoryDraft(incident_id="A", team_id="T", title="Connection slots exhausted on orders-db",
                                   service="orders", truth_state="human_confirmed"))  # fmt: skip
    await store.retain(MemoryDraft(incident_id="B", team_id="T", title="Nightly export skipped", service="orders"))
    matches = await recall(store, RecallQuery(team_id="T", title="pool checkout timed out"))
    assert [m.memory.incident_id for m in matches] == ["A"]
    assert "same mechanism: connection pool exhaustion" in matches[0].reasons
    assert matches[0].score > 0 and matches[0].score_components["concepts"] == 1.0


def test_replay_command_prints_the_figures_as_json(database_url: str, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["replay", str(CORPUS), "--json", "--no-progress"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {"recall_at_1", "recall_at_5", "mrr_at_10", "cases", "latency_ms_p50", "latency_ms_p95"}
    assert figures["cases"] == len(load_cases(CORPUS)) and figures["recall_at_5"] >= 0.9


def test_target_absent_replay_counts_false_alarms_along_the_floor_curve(
    database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["replay", str(CORPUS), "--json", "--no-progress", "--target-absent"]) == 0
    figures = json.loads(capsys.readouterr().out)
    # every right memory of the behaviour corpus is posted at the default floor...
    assert figures["floor"] == DEFAULT_FLOOR and figures["present_pass_rate"] == figures["recall_at_5"] == 1.0
    # ...and without them something still is for some cases, less often than with no floor at all
    curve = {p["floor"]: p for p in figures["floor_curve"]}
    assert 0 < figures["absent_false_alarm_rate"] < curve[0.0]["absent_false_alarm_rate"] == 1.0
    assert curve[1.0]["absent_false_alarm_rate"] <= figures["absent_false_alarm_rate"]
    rates = [p["present_pass_rate"] for p in figures["floor_curve"]]
    assert rates == sorted(rates, reverse=True)  # a higher floor never posts more
    # the three answers along the judgement's curve: a higher strong_from never posts more false threads
    threads = [p["strong_absent_strong"] for p in figures["tier_curve"]]
    assert threads == sorted(threads, reverse=True) and len(threads) == len(figures["judgement_curve"])


def test_replay_of_a_folder_without_a_corpus_says_what_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(tmp_path)]) == 1
    assert "needs memories.jsonl and cases.jsonl" in capsys.readouterr().err


def test_replay_with_an_embeddings_url_but_no_model_says_so_in_one_line(
    database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("EMBEDDINGS_URL", "http://127.0.0.1:9/v1")
    monkeypatch.delenv("EMBEDDINGS_MODEL", raising=False)
    assert main(["replay", str(CORPUS), "--json", "--no-progress"]) == 1
    said = capsys.readouterr()
    assert "EMBEDDINGS_MODEL is not" in said.out + said.err  # --json: the error is JSON on stdout
    assert "Traceback" not in said.out + said.err


def test_recall_command_prints_reasons_components_and_conflicts(
    database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", database_url)
    memories = [json.loads(line) for line in (CORPUS / "memories.jsonl").read_text().splitlines()]
    chosen = [m for m in memories if m["id"] in ("m30", "m31")]
    (tmp_path / "m.jsonl").write_text("\n".join(json.dumps(m) for m in chosen))
    assert main(["retain", str(tmp_path / "m.jsonl")]) == 0
    capsys.readouterr()
    assert main(["recall", "checkout", "slow:", "payments", "deadline", "exceeded"]) == 0
    out = capsys.readouterr().out
    assert "why: matched terms: " in out and "lexical " in out and "recency " in out
    assert "conflict: checkout memories name different root causes" in out


async def test_purged_memories_leave_no_postings_behind(store: PostgresMemoryStore, database_url: str) -> None:
    import asyncpg

    from bot.memory.postings import derive_postings

    await store.retain(MemoryDraft(incident_id="P", team_id="T", title="Kafka consumer lag on order-events"))
    await store.close()
    conn = await asyncpg.connect(database_url)
    try:
        await derive_postings(conn)
        assert await conn.fetchval("SELECT count(*) FROM recall_postings WHERE memory_pk IS NOT NULL") > 0
        await store.purge("T", "P", purged_by="cli:test")
        assert await conn.fetchval("SELECT count(*) FROM recall_postings") == 0
    finally:
        await conn.close()
    assert await recall(store, RecallQuery(team_id="T", title="consumer lag")) == []
