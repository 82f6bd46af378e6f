"""The memory store contract: every adapter of `MemoryStore` must pass all of this.

To add an adapter, add a factory to ADAPTERS; nothing else here should change.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from itertools import product

import pytest

from bot.errors import MemoryConflict, MemoryError_, MemoryNotFound, PurgeRefused, TruthMoveRefused
from bot.memory.incidents import IncidentStore, PostgresIncidentStore
from bot.memory.pool import create_pool
from bot.memory.port import FeedbackKind, MemoryStore, RetainStatus, SupersededHandling
from bot.memory.postgres import PostgresMemoryStore
from bot.models import Incident, IncidentStatus, MemoryDraft, RecallQuery, TruthState
from bot.recall.truth import ALLOWED_MOVES
from bot.services.recall import RecallService


async def recall(store, query: RecallQuery):  # noqa: ANN001, ANN201 - list[RecallMatch]
    """Recall as the bot runs it: the store's candidates ranked by the pure pipeline."""
    return await RecallService(store).recall(query)


@dataclass
class Adapter:
    memory: MemoryStore
    incidents: IncidentStore
    close: Callable[[], Awaitable[None]]
    fail_incident_updates: Callable[[], Awaitable[None]]
    """From now on, every write to an incident fails (to prove a unit of work is one)."""


async def _postgres(database_url: str) -> Adapter:
    pool = await create_pool(database_url)

    async def fail_incident_updates() -> None:
        # a real failure inside PostgreSQL, raised by the UPDATE itself
        await pool.execute(
            """CREATE FUNCTION refuse_incident_update() RETURNS trigger LANGUAGE plpgsql AS
               $$ BEGIN RAISE EXCEPTION 'incident updates are refused (test)'; END $$;
               CREATE TRIGGER refuse_incident_update BEFORE UPDATE ON incidents
               FOR EACH ROW EXECUTE FUNCTION refuse_incident_update();"""
        )

    return Adapter(PostgresMemoryStore(pool), PostgresIncidentStore(pool), pool.close, fail_incident_updates)


ADAPTERS = {"postgres": _postgres}


@pytest.fixture(params=sorted(ADAPTERS))
async def adapter(request: pytest.FixtureRequest, database_url: str) -> AsyncIterator[Adapter]:
    stores = await ADAPTERS[request.param](database_url)
    try:
        yield stores
    finally:
        await stores.close()


@pytest.fixture
def memory_store(adapter: Adapter) -> MemoryStore:
    return adapter.memory


def draft(incident_id: str = "INC-1", team_id: str = "T1", **overrides: object) -> MemoryDraft:
    fields: dict[str, object] = {
        "incident_id": incident_id,
        "team_id": team_id,
        "title": "Checkout API 5xx: database connection pool exhausted",
        "service": "payments",
        "symptoms": "checkout requests time out at peak",
        "root_cause": "refund worker leaked connections on provider errors",
        "resolution": "release the connection in a finally block",
        "failed_attempts": [
            {"action": "restart pods", "why_it_failed": "bought 25 minutes, then the pool filled again"}
        ],
        "lesson": "find the leak before adding capacity",
    }
    fields.update(overrides)
    return MemoryDraft.model_validate(fields)


# ---- retain ---------------------------------------------------------------------------------


async def test_retain_then_get_returns_everything_that_was_retained(memory_store: MemoryStore) -> None:
    outcome = await memory_store.retain(draft(truth_state="human_confirmed", verified_by="maya"))
    assert outcome.status is RetainStatus.CREATED
    got = await memory_store.get("T1", "INC-1")
    assert got.title == "Checkout API 5xx: database connection pool exhausted"
    assert got.failed_attempts[0].why_it_failed.startswith("bought 25 minutes")
    assert got.truth_state is TruthState.HUMAN_CONFIRMED and got.verified_by == "maya"
    assert got.verified_at is not None


async def test_retaining_identical_content_again_is_a_no_op(memory_store: MemoryStore) -> None:
    first = await memory_store.retain(draft())
    again = await memory_store.retain(draft())
    assert again.status is RetainStatus.UNCHANGED
    assert again.memory.created_at == first.memory.created_at
    assert (await memory_store.list("T1")).total == 1


async def test_different_content_for_the_same_incident_is_a_conflict_naming_fields(memory_store: MemoryStore) -> None:
    await memory_store.retain(draft())
    with pytest.raises(MemoryConflict) as caught:
        await memory_store.retain(draft(root_cause="the database was slow", lesson="other lesson"))
    assert caught.value.fields == ["lesson", "root_cause"]
    stored = await memory_store.get("T1", "INC-1")
    assert stored.root_cause == "refund worker leaked connections on provider errors"  # not overwritten


async def test_retain_is_idempotent_after_the_memory_moved_on(memory_store: MemoryStore) -> None:
    """Re-importing the same postmortem after it was confirmed is not a conflict."""
    await memory_store.retain(draft())
    await memory_store.transition("T1", "INC-1", TruthState.HUMAN_CONFIRMED, actor="maya")
    await memory_store.add_correction("T1", "INC-1", "sam", "it was the replica")
    again = await memory_store.retain(draft())
    assert again.status is RetainStatus.UNCHANGED
    assert again.memory.truth_state is TruthState.HUMAN_CONFIRMED


async def test_two_concurrent_retains_of_one_incident_make_one_row_and_no_error(memory_store: MemoryStore) -> None:
    results = await asyncio.gather(*(memory_store.retain(draft()) for _ in range(8)))
    assert sorted(r.status.value for r in results) == ["created"] + ["unchanged"] * 7
    assert (await memory_store.list("T1")).total == 1


async def test_concurrent_conflicting_retains_store_exactly_one_version(memory_store: MemoryStore) -> None:
    results = await asyncio.gather(
        memory_store.retain(draft(lesson="A")), memory_store.retain(draft(lesson="B")), return_exceptions=True
    )
    conflicts = [r for r in results if isinstance(r, MemoryConflict)]
    assert len(conflicts) == 1 and conflicts[0].fields == ["lesson"]
    assert (await memory_store.get("T1", "INC-1")).lesson in ("A", "B")


# ---- truth moves -------------------------------------------------------------------------------


def _moves() -> list[tuple[TruthState, TruthState, bool]]:
    return [(a, b, b in ALLOWED_MOVES[a]) for a, b in product(TruthState, TruthState)]


async def _memory_in_state(store: MemoryStore, state: TruthState) -> None:
    """Bring INC-1 to `state` through allowed moves only (successor INC-2 exists)."""
    await store.retain(draft())
    await store.retain(draft("INC-2", title="Pool exhausted again, root cause found"))
    if state is TruthState.UNCONFIRMED_HYPOTHESIS:
        return
    await store.transition(
        "T1", "INC-1", state, actor="maya", reason="setup",
        successor_id="INC-2" if state is TruthState.SUPERSEDED else None,
        verification_note="error rate flat for a week" if state is TruthState.VERIFICATION_CONFIRMED else None,
    )  # fmt: skip


@pytest.mark.parametrize(("from_state", "to_state", "allowed"), _moves(), ids=lambda v: str(v))
async def test_every_truth_move_is_allowed_or_refused_as_designed(
    memory_store: MemoryStore, from_state: TruthState, to_state: TruthState, allowed: bool
) -> None:
    await _memory_in_state(memory_store, from_state)
    move = memory_store.transition(
        "T1", "INC-1", to_state, actor="sam", reason="checked the graphs",
        successor_id="INC-2" if to_state is TruthState.SUPERSEDED else None,
        verification_note="verified in staging" if to_state is TruthState.VERIFICATION_CONFIRMED else None,
    )  # fmt: skip
    if allowed:
        moved = await move
        assert moved.truth_state is to_state
        last = moved.transitions[-1]
        assert (last.from_state, last.to_state, last.actor, last.reason) == (
            from_state,
            to_state,
            "sam",
            "checked the graphs",
        )
    else:
        with pytest.raises(TruthMoveRefused):
            await move
        assert (await memory_store.get("T1", "INC-1")).truth_state is from_state


async def test_supersede_requires_an_existing_successor(memory_store: MemoryStore) -> None:
    await memory_store.retain(draft())
    for successor in (None, "INC-1", "INC-404"):
        with pytest.raises(TruthMoveRefused):
            await memory_store.transition("T1", "INC-1", TruthState.SUPERSEDED, actor="sam", successor_id=successor)
    await memory_store.retain(draft("INC-2"))
    moved = await memory_store.transition("T1", "INC-1", TruthState.SUPERSEDED, actor="sam", successor_id="INC-2")
    assert moved.superseded_by == "INC-2"
    assert moved.transitions[-1].successor_id == "INC-2"


async def test_verification_confirmed_needs_a_note_and_records_it(memory_store: MemoryStore) -> None:
    await memory_store.retain(draft())
    with pytest.raises(TruthMoveRefused, match="verification note"):
        await memory_store.transition("T1", "INC-1", TruthState.VERIFICATION_CONFIRMED, actor="sam")
    moved = await memory_store.transition(
        "T1", "INC-1", TruthState.VERIFICATION_CONFIRMED, actor="sam", verification_note="no errors for 7 days"
    )
    assert (moved.verified_by, moved.verification_note) == ("sam", "no errors for 7 days")


# ---- resolution: one unit of work ---------------------------------------------------------------


async def test_resolving_retains_the_memory_and_closes_the_incident_together(adapter: Adapter) -> None:
    incident, _ = await adapter.incidents.open_incident("T1", "C1", Incident(title="Checkout pool exhausted"))
    resolved = draft(incident.incident_id, truth_state="human_confirmed", verified_by="maya")
    outcome = await adapter.memory.resolve_incident(resolved)
    assert outcome.status is RetainStatus.CREATED and outcome.memory.verified_by == "maya"
    closed = await adapter.incidents.get("T1", incident.incident_id)
    assert closed is not None and closed.status is IncidentStatus.RESOLVED and closed.resolved_at is not None
    # the same resolution again (a double submit) changes nothing and keeps the incident closed
    again = await adapter.memory.resolve_incident(resolved)
    assert again.status is RetainStatus.UNCHANGED
    assert (await adapter.incidents.get("T1", incident.incident_id)).resolved_at == closed.resolved_at


async def test_a_conflicting_resolution_leaves_the_incident_open(adapter: Adapter) -> None:
    incident, _ = await adapter.incidents.open_incident("T1", "C1", Incident(title="Checkout pool exhausted"))
    await adapter.memory.retain(draft(incident.incident_id))
    with pytest.raises(MemoryConflict):
        await adapter.memory.resolve_incident(draft(incident.incident_id, root_cause="a different cause"))
    assert (await adapter.incidents.get("T1", incident.incident_id)).status is IncidentStatus.OPEN


async def test_a_failure_closing_the_incident_leaves_no_memory_either(adapter: Adapter) -> None:
    incident, _ = await adapter.incidents.open_incident("T1", "C1", Incident(title="Checkout pool exhausted"))
    await adapter.fail_incident_updates()
    with pytest.raises(MemoryError_):
        await adapter.memory.resolve_incident(
            draft(incident.incident_id, truth_state="human_confirmed", verified_by="maya")
        )
    with pytest.raises(MemoryNotFound):
        await adapter.memory.get("T1", incident.incident_id)
    assert (await adapter.incidents.get("T1", incident.incident_id)).status is IncidentStatus.OPEN
    # nor does any trace of it reach recall (its terms were counted in the same transaction)
    assert await recall(adapter.memory, RecallQuery(team_id="T1", title="database connection pool exhausted")) == []
    assert await adapter.memory.teams() == {}


# ---- corrections, purge, teams -------------------------------------------------------------------


async def test_corrections_attach_without_rewriting_the_original(memory_store: MemoryStore) -> None:
    await memory_store.retain(draft())
    await memory_store.add_correction("T1", "INC-1", "sam", "the leak was in the refund worker's retry path")
    corrected = await memory_store.add_correction("T1", "INC-1", "lee", "fix shipped in v2.3.1")
    assert [(c.author, c.text) for c in corrected.corrections] == [
        ("sam", "the leak was in the refund worker's retry path"),
        ("lee", "fix shipped in v2.3.1"),
    ]
    assert corrected.root_cause == "refund worker leaked connections on provider errors"
    with pytest.raises(MemoryNotFound):
        await memory_store.add_correction("T1", "INC-404", "sam", "x")


async def test_purge_deletes_the_memory_and_its_history(memory_store: MemoryStore) -> None:
    await memory_store.retain(draft())
    await memory_store.add_correction("T1", "INC-1", "sam", "note")
    await memory_store.transition("T1", "INC-1", TruthState.REJECTED, actor="sam", reason="wrong")
    await memory_store.purge("T1", "INC-1", purged_by="cli:ops")
    with pytest.raises(MemoryNotFound):
        await memory_store.get("T1", "INC-1")
    assert await recall(memory_store, RecallQuery(team_id="T1", title="connection pool exhausted")) == []
    # the same incident id can be retained afresh, with no old corrections attached
    again = await memory_store.retain(draft(lesson="new"))
    assert again.status is RetainStatus.CREATED and again.memory.corrections == []
    with pytest.raises(MemoryNotFound):
        await memory_store.purge("T1", "INC-404", purged_by="cli:ops")


async def _chain(memory_store: MemoryStore) -> None:
    """INC-1 (human_confirmed) superseded by INC-2 (unconfirmed), superseded by INC-3."""
    for i in (1, 2, 3):
        await memory_store.retain(draft(f"INC-{i}", lesson=f"lesson {i}"))
    await memory_store.transition("T1", "INC-1", TruthState.HUMAN_CONFIRMED, actor="U1", actor_name="maya")
    await memory_store.transition("T1", "INC-1", TruthState.SUPERSEDED, actor="U1", successor_id="INC-2")
    await memory_store.transition("T1", "INC-2", TruthState.SUPERSEDED, actor="U1", successor_id="INC-3")


async def test_a_memory_that_supersedes_others_is_not_purged_unless_told_what_becomes_of_them(
    memory_store: MemoryStore,
) -> None:
    await _chain(memory_store)
    assert await memory_store.superseded_by("T1", "INC-2") == ["INC-1"]
    with pytest.raises(PurgeRefused) as refused:
        await memory_store.purge("T1", "INC-2", purged_by="cli:ops")
    assert refused.value.superseded == ["INC-1"] and "INC-1" in str(refused.value)
    assert (await memory_store.get("T1", "INC-2")).superseded_by == "INC-3"  # nothing was purged

    outcome = await memory_store.purge("T1", "INC-2", purged_by="cli:ops", superseded=SupersededHandling.RESTORE)
    assert (outcome.purged, outcome.restored) == (["INC-2"], ["INC-1"])
    restored = await memory_store.get("T1", "INC-1")
    assert (restored.truth_state, restored.superseded_by) == (TruthState.HUMAN_CONFIRMED, None)
    last = restored.transitions[-1]
    assert (last.from_state, last.to_state, last.actor) == (
        TruthState.SUPERSEDED,
        TruthState.HUMAN_CONFIRMED,
        "cli:ops",
    )
    assert "INC-2" in last.reason
    assert restored.verified_by == "U1"  # the confirmation it had is its own again
    with pytest.raises(MemoryNotFound):
        await memory_store.get("T1", "INC-2")
    assert (await memory_store.get("T1", "INC-3")).truth_state is TruthState.UNCONFIRMED_HYPOTHESIS


async def test_purging_with_what_it_superseded_purges_down_the_chain(memory_store: MemoryStore) -> None:
    await _chain(memory_store)
    outcome = await memory_store.purge("T1", "INC-3", purged_by="cli:ops", superseded=SupersededHandling.PURGE)
    assert outcome.purged == ["INC-3", "INC-2", "INC-1"] and outcome.restored == []
    for i in (1, 2, 3):
        with pytest.raises(MemoryNotFound):
            await memory_store.get("T1", f"INC-{i}")


async def test_the_audit_keeps_the_user_id_with_the_name_beside_it(memory_store: MemoryStore) -> None:
    await memory_store.retain(draft())
    await memory_store.add_correction("T1", "INC-1", "U7", "it was the replica", author_name="sam")
    moved = await memory_store.transition("T1", "INC-1", TruthState.HUMAN_CONFIRMED, actor="U1", actor_name="maya")
    assert [(c.author, c.author_name, c.shown_author) for c in moved.corrections] == [("U7", "sam", "sam (U7)")]
    assert (moved.transitions[-1].actor, moved.transitions[-1].actor_name) == ("U1", "maya")
    assert (moved.verified_by, moved.verified_by_name, moved.shown_verifier) == ("U1", "maya", "maya (U1)")


async def test_teams_never_see_each_other(memory_store: MemoryStore) -> None:
    await memory_store.retain(draft(team_id="T1"))
    await memory_store.retain(draft(team_id="T2", lesson="team two's own lesson"))  # same id, other team: no conflict
    assert (await memory_store.get("T2", "INC-1")).lesson == "team two's own lesson"
    assert (await memory_store.list("T3")).total == 0
    with pytest.raises(MemoryNotFound):
        await memory_store.get("T3", "INC-1")
    matches = await recall(memory_store, RecallQuery(team_id="T2", title="database connection pool exhausted"))
    assert [m.memory.team_id for m in matches] == ["T2"]


async def test_retag_under_an_unchanged_vocabulary_changes_nothing(memory_store: MemoryStore) -> None:
    await memory_store.retain(draft(error_message="pool checkout timed out after 30.0s"))
    before = await memory_store.get("T1", "INC-1")
    assert await memory_store.retag("T1") == 0
    assert await memory_store.get("T1", "INC-1") == before


async def test_teams_counts_memories_per_team(memory_store: MemoryStore) -> None:
    assert await memory_store.teams() == {}
    await memory_store.retain(draft("INC-1", team_id="T1"))
    await memory_store.retain(draft("INC-2", team_id="T1"))
    await memory_store.retain(draft("INC-1", team_id="T2"))
    assert await memory_store.teams() == {"T1": 2, "T2": 1}


async def test_list_filters_and_paginates(memory_store: MemoryStore) -> None:
    for i in range(5):
        await memory_store.retain(draft(f"INC-{i}", service="payments" if i % 2 else "search"))
    await memory_store.transition("T1", "INC-1", TruthState.HUMAN_CONFIRMED, actor="maya")
    page = await memory_store.list("T1", service="PAYMENTS", limit=1)
    assert page.total == 2 and len(page.memories) == 1
    second = await memory_store.list("T1", service="payments", limit=1, offset=1)
    assert {page.memories[0].incident_id, second.memories[0].incident_id} == {"INC-1", "INC-3"}
    confirmed = await memory_store.list("T1", truth_states=[TruthState.HUMAN_CONFIRMED])
    assert [m.incident_id for m in confirmed.memories] == ["INC-1"]


# ---- recall --------------------------------------------------------------------------------------


async def test_recall_finds_a_memory_with_reasons_and_components(memory_store: MemoryStore) -> None:
    await memory_store.retain(draft(truth_state="human_confirmed", verified_by="maya"))
    await memory_store.retain(draft("INC-9", title="TLS certificate expired on the gateway", service="auth",
                                    symptoms="logins fail", root_cause="renewal job broken", failed_attempts=[]))  # fmt: skip
    matches = await recall(
        memory_store, RecallQuery(team_id="T1", title="checkout errors: connection pool timeouts", service="payments")
    )
    assert matches[0].memory.incident_id == "INC-1"
    top = matches[0]
    assert top.score > 0 and "lexical" in top.score_components
    assert any(r.startswith("matched terms:") and "pool" in r for r in top.reasons)
    assert "same service: payments" in top.reasons
    assert any(r.startswith("confirmed by maya") for r in top.reasons)


async def test_recall_filters_reusable_only_and_hides_rejected(memory_store: MemoryStore) -> None:
    await memory_store.retain(draft("INC-1"))
    await memory_store.retain(draft("INC-2", truth_state="human_confirmed"))
    await memory_store.retain(draft("INC-3"))
    await memory_store.transition("T1", "INC-3", TruthState.REJECTED, actor="sam", reason="wrong diagnosis")
    query = RecallQuery(team_id="T1", title="connection pool exhausted")
    assert {m.memory.incident_id for m in await recall(memory_store, query)} == {"INC-1", "INC-2"}
    reusable = await recall(memory_store, query.model_copy(update={"reusable_only": True}))
    assert [m.memory.incident_id for m in reusable] == ["INC-2"]
    services = await recall(memory_store, query.model_copy(update={"filter_services": ["search"]}))
    assert services == []


async def test_private_channel_memories_are_recalled_only_in_that_channel(memory_store: MemoryStore) -> None:
    await memory_store.retain(draft("INC-P", is_private=True, channel_id="CPRIV"))
    query = RecallQuery(team_id="T1", title="connection pool exhausted")
    assert await recall(memory_store, query) == []
    assert await recall(memory_store, query.model_copy(update={"channel_id": "COTHER"})) == []
    inside = await recall(memory_store, query.model_copy(update={"channel_id": "CPRIV"}))
    assert [m.memory.incident_id for m in inside] == ["INC-P"]


async def test_feedback_is_one_vote_per_user_and_moves_the_ranking(memory_store: MemoryStore) -> None:
    await memory_store.retain(draft("INC-A"))
    await memory_store.retain(draft("INC-B"))
    query = RecallQuery(team_id="T1", title="connection pool exhausted")
    for user in ("U1", "U2"):
        await memory_store.record_feedback("T1", "INC-B", user, FeedbackKind.HELPFUL)
    await memory_store.record_feedback("T1", "INC-A", "U1", FeedbackKind.HELPFUL)
    await memory_store.record_feedback("T1", "INC-A", "U1", FeedbackKind.NOT_RELEVANT)  # changed their mind
    matches = await recall(memory_store, query)
    assert [m.memory.incident_id for m in matches] == ["INC-B", "INC-A"]
    assert "feedback: 2 helpful, 0 not relevant" in matches[0].reasons
    assert "feedback: 0 helpful, 1 not relevant" in matches[1].reasons


async def test_ping_says_whether_the_database_answers(database_url: str) -> None:
    for name, open_adapter in ADAPTERS.items():
        stores = await open_adapter(database_url)
        assert await stores.memory.ping() is True, name
        await stores.close()  # the database is gone for this store
        assert await stores.memory.ping() is False, name
