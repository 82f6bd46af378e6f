"""find_conflicts: memories of one service that disagree on the root cause are a conflict."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from bot.memory.pool import create_pool
from bot.memory.postgres import PostgresMemoryStore
from bot.models import MemoryDraft, MemoryRecord, RecallMatch, TruthState
from bot.recall.concepts import load_vocabulary
from bot.recall.conflicts import find_conflicts
from bot.services.recall import RecallService

NOW = datetime(2025, 6, 1, tzinfo=UTC)


def match(incident_id: str, service: str | None, root_cause: str | None, **fields: object) -> RecallMatch:
    memory = MemoryRecord(
        incident_id=incident_id,
        team_id="T1",
        title=f"incident {incident_id}",
        service=service,
        root_cause=root_cause,
        truth_state=fields.pop("truth_state", TruthState.HUMAN_CONFIRMED),
        created_at=NOW,
        updated_at=NOW,
        **fields,  # type: ignore[arg-type]
    )
    return RecallMatch(memory=memory, score=1.0, score_components={}, reasons=[])


def test_same_service_different_root_causes_is_a_conflict() -> None:
    matches = [
        match("INC-1", "payments", "connection leak in the refund worker"),
        match("INC-2", "search", "bad index"),
        match("INC-3", "Payments", "database failover left stale DNS"),
    ]
    assert find_conflicts(matches) == {"payments": ["INC-1", "INC-3"]}


def test_same_root_cause_worded_alike_is_no_conflict() -> None:
    matches = [
        match("INC-1", "payments", "Connection leak in the refund worker."),
        match("INC-2", "payments", "connection  leak in the refund worker"),
    ]
    assert find_conflicts(matches) == {}


def test_rejected_superseded_and_causeless_memories_do_not_conflict() -> None:
    matches = [
        match("INC-1", "payments", "connection leak"),
        match("INC-2", "payments", "cosmic rays", truth_state=TruthState.REJECTED),
        match("INC-3", "payments", "old theory", truth_state=TruthState.SUPERSEDED, superseded_by="INC-1"),
        match("INC-4", "payments", None),
        match("INC-5", None, "something else"),
    ]
    assert find_conflicts(matches) == {}


def test_a_reworded_cause_is_the_same_but_another_mechanism_is_not() -> None:
    matches = [
        match("INC-1", "payments", "the refund worker leaked database connections on provider errors"),
        match("INC-2", "payments", "refund worker leaked connections on provider errors"),
    ]
    assert find_conflicts(matches) == {}
    matches.append(match("INC-3", "payments", "a slow disk on the database primary"))
    assert find_conflicts(matches) == {"payments": ["INC-1", "INC-2", "INC-3"]}


def test_the_investigators_see_the_same_conflicts_as_the_thread() -> None:
    from bot.investigation.conflicts import detect_conflicts

    matches = [
        match("INC-1", "payments", "connection leak in the refund worker"),
        match("INC-2", "payments", "Connection leak in the refund worker."),
        match("INC-3", "payments", "database failover left stale DNS"),
    ]
    [conflict] = detect_conflicts(matches)
    assert conflict.memory_ids == find_conflicts(matches)["payments"] == ["INC-1", "INC-2", "INC-3"]
    assert "INC-3: database failover" in conflict.description and "INC-2:" not in conflict.description


def test_the_flag_is_precise_on_the_corpus_pairs() -> None:
    """eval/incidents/conflict_pairs.jsonl: root causes of one service that are (not) different
    mechanisms. A behaviour check written with the vocabulary, not a quality measure."""
    import json

    from bot.config import PROJECT_ROOT
    from bot.recall.conflicts import same_cause

    lines = (PROJECT_ROOT / "eval" / "incidents" / "conflict_pairs.jsonl").read_text(encoding="utf-8").splitlines()
    pairs = [json.loads(line) for line in lines if line.strip()]
    assert sum(p["conflict"] for p in pairs) >= 12 and sum(not p["conflict"] for p in pairs) >= 12
    flagged = {p["id"] for p in pairs if not same_cause(p["a"], p["b"])}
    truth = {p["id"] for p in pairs if p["conflict"]}
    precision = len(flagged & truth) / len(flagged)
    recall = len(flagged & truth) / len(truth)
    print(f"conflict flag on {len(pairs)} pairs: precision {precision:.2f}, recall {recall:.2f}")
    assert precision >= 0.9 and recall >= 0.8, (sorted(flagged - truth), sorted(truth - flagged))


def test_a_cause_that_points_at_another_never_conflicts() -> None:
    matches = [
        match("INC-1", "mobile-api", "Load balancer idle timeout (60s) was shorter than the app keepalive (75s)."),
        match("INC-2", "mobile-api", "Same keepalive mismatch as in INC-1, on the new balancer."),
    ]
    assert find_conflicts(matches) == {}


async def test_what_recall_shows_is_judged_with_the_teams_own_concepts(database_url: str, tmp_path: Path) -> None:
    # two wordings of one mechanism only the team's concept file knows: not a conflict
    own = tmp_path / "concepts.json"
    own.write_text(json.dumps({"concepts": [{"name": "ledger drift", "phrases": ["totals disagreed", "reconciliation mismatch"]}]}))  # fmt: skip
    pool = await create_pool(database_url)
    store = PostgresMemoryStore(pool, vocabulary=load_vocabulary(own))
    try:
        for incident_id, cause in (
            ("INC-L1", "totals disagreed after the nightly close"),
            ("INC-L2", "reconciliation mismatch in the ledger export"),
        ):
            await store.retain(MemoryDraft(
                incident_id=incident_id, team_id="T1", title="Ledger totals wrong", service="ledger",
                root_cause=cause, truth_state=TruthState.HUMAN_CONFIRMED, verified_by="maya",
            ))  # fmt: skip
        result = await RecallService(store, floor=0.0).for_text("T1", None, "ledger totals wrong")
    finally:
        await store.close()
        await pool.close()
    assert {m.memory.incident_id for m in result.matches} == {"INC-L1", "INC-L2"}
    assert result.conflicts == {}
