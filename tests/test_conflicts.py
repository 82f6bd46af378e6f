"""find_conflicts: memories of one service that disagree on the root cause are a conflict."""

from __future__ import annotations

from datetime import datetime, timezone

from bot.recall.conflicts import find_conflicts
from bot.models import MemoryRecord, RecallMatch, TruthState

NOW = datetime(2025, 6, 1, tzinfo=timezone.utc)


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
