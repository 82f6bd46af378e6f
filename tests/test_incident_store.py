"""Incidents in progress: one open incident per channel, a timeline kept once, event ids pruned."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot.memory.incidents import PostgresIncidentStore
from bot.memory.pool import create_pool
from bot.models import Incident


async def test_racing_declarations_open_one_incident_per_channel(database_url: str) -> None:
    pool = await create_pool(database_url)
    try:
        store = PostgresIncidentStore(pool)
        results = await asyncio.gather(
            *(store.open_incident("T1", "C1", Incident(title=f"attempt {i}")) for i in range(6))
        )
        assert sorted(new for _, new in results) == [False] * 5 + [True]
        assert len({incident.incident_id for incident, _ in results}) == 1
    finally:
        await pool.close()


async def test_old_event_ids_are_pruned_and_recent_ones_kept(database_url: str) -> None:
    pool = await create_pool(database_url)
    try:
        store = PostgresIncidentStore(pool)
        assert await store.claim_event("T1", "Ev-old") and await store.claim_event("T1", "Ev-new")
        await pool.execute("UPDATE slack_events SET received_at = now() - interval '2 days' WHERE event_id = 'Ev-old'")
        assert await store.prune_events(24) == 1
        assert await store.claim_event("T1", "Ev-new") is False  # still a repeat
        assert await store.claim_event("T1", "Ev-old") is True  # forgotten: days past Slack's retries
    finally:
        await pool.close()


async def test_messages_outside_an_incident_are_not_kept_and_after_closing_are_late_notes(database_url: str) -> None:
    pool = await create_pool(database_url)
    try:
        store = PostgresIncidentStore(pool)
        now = datetime.now(UTC)
        assert await store.append_message("T1", "C1", "1.0", "alice", "hello", now) is False
        incident, _ = await store.open_incident("T1", "C1", Incident(title="Checkout down"))
        assert await store.append_message("T1", "C1", "2.0", "alice", "pool at 100/100", now) is True
        await store.mark_resolved("T1", incident.incident_id)
        assert await store.append_message("T1", "C1", "3.0", "alice", "all good now", now) is True
        timeline = await store.timeline("T1", incident.incident_id)
        assert [(e.text, e.late) for e in timeline] == [("pool at 100/100", False), ("all good now", True)]
    finally:
        await pool.close()


async def test_timelines_of_incidents_resolved_long_ago_are_pruned(database_url: str) -> None:
    pool = await create_pool(database_url)
    try:
        store = PostgresIncidentStore(pool)
        now = datetime.now(UTC)
        old, _ = await store.open_incident("T1", "C1", Incident(title="old outage"))
        await store.append_message("T1", "C1", "1.0", "alice", "old chatter", now)
        await store.mark_resolved("T1", old.incident_id)
        await pool.execute(
            "UPDATE incidents SET resolved_at = now() - interval '40 days' WHERE incident_id = $1", old.incident_id
        )
        recent, _ = await store.open_incident("T1", "C1", Incident(title="recent outage"))
        await store.append_message("T1", "C1", "2.0", "alice", "recent chatter", now)
        await store.mark_resolved("T1", recent.incident_id)
        live, _ = await store.open_incident("T1", "C2", Incident(title="still open"))
        await store.append_message("T1", "C2", "3.0", "bob", "live chatter", now)

        assert await store.prune_timelines(30) == 1
        assert await store.timeline("T1", old.incident_id) == []
        assert [e.text for e in await store.timeline("T1", recent.incident_id)] == ["recent chatter"]
        assert [e.text for e in await store.timeline("T1", live.incident_id)] == ["live chatter"]
    finally:
        await pool.close()


async def test_recall_for_an_incident_never_shows_its_own_memory_and_still_fills_the_thread(database_url: str) -> None:
    from bot.memory.postgres import PostgresMemoryStore
    from bot.models import Resolution
    from bot.policy import Actor, Reviewers
    from bot.services.access import Access
    from bot.services.recall import RecallService
    from bot.services.resolution import ResolutionService

    pool = await create_pool(database_url)
    try:
        memory, incidents = PostgresMemoryStore(pool), PostgresIncidentStore(pool)
        incident, _ = await incidents.open_incident("T1", "C1", Incident(title="Checkout database pool exhausted"))
        await ResolutionService(memory, access=Access(memory, incidents, Reviewers())).resolve(
            incident, Resolution(root_cause="pool leak", resolution="release connections"), by=Actor("U1", "alice"),
            in_channel=True,
        )  # fmt: skip
        from bot.models import MemoryDraft

        for i in range(6):
            await memory.retain(
                MemoryDraft(incident_id=f"OLD-{i}", team_id="T1", title=f"checkout database pool exhausted {i}")
            )
        result = await RecallService(memory, limit=5).for_incident(incident)
        ids = [m.memory.incident_id for m in result.matches]
        assert len(ids) == 5 and incident.incident_id not in ids
    finally:
        await pool.close()
