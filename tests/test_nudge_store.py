"""Nudges are stored rows: asked once per incident, claimed by one instance at a time, never
lost by a restart; drafts and marks are kept for the modal. Real PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot.drafting.models import Mark, MarkKind
from bot.drafting.rules import OfflineDrafter
from bot.memory.drafts import PostgresDraftStore
from bot.memory.incidents import PostgresIncidentStore
from bot.memory.nudges import PostgresNudgeStore
from bot.memory.pool import create_pool
from bot.memory.postgres import PostgresMemoryStore
from bot.models import DraftingTrace, FieldOrigin, Incident, Resolution
from bot.policy import Actor, Reviewers
from bot.services.access import Access
from bot.services.drafting import DraftingService
from bot.services.nudges import NudgeService
from bot.services.resolution import ResolutionService


async def test_all_clear_twice_from_two_instances_makes_one_ask_sent_once(database_url: str) -> None:
    pools = [await create_pool(database_url) for _ in range(2)]
    try:
        incidents = PostgresIncidentStore(pools[0])
        incident, _ = await incidents.open_incident("T1", "C1", Incident(title="Checkout down"), declared_by="U1")
        services = [NudgeService(PostgresNudgeStore(p), quiet_hours=4) for p in pools]
        heard = await asyncio.gather(*(s.heard(incident, "all clear, errors at zero") for s in services))
        assert sorted(heard) == [False, True]
        claimed = await asyncio.gather(*(s.claim_due() for s in services))
        assert sorted(len(c) for c in claimed) == [0, 1]
        due = next(c for c in claimed if c)[0]
        assert (due.step, due.reason) == ("ask", "said_fixed")
        assert NudgeService.destination(due).channel == "C1"
        await services[0].sent(due, NudgeService.destination(due), "123.456")
        assert await services[1].claim_due() == []
        rows = await services[0].nudges(incident)
        assert [(r["step"], r["sent_to"]) for r in rows] == [("ask", "C1"), ("reminder", None)]
        assert (rows[1]["due_at"] - rows[0]["sent_at"]).total_seconds() == 24 * 3600
    finally:
        for pool in pools:
            await pool.close()


async def test_a_claim_lost_in_a_crash_is_sent_after_its_lease(database_url: str) -> None:
    pool = await create_pool(database_url)
    try:
        incidents = PostgresIncidentStore(pool)
        incident, _ = await incidents.open_incident("T1", "C1", Incident(title="Checkout down"), declared_by="U1")
        crashed = NudgeService(PostgresNudgeStore(pool), quiet_hours=4, lease_s=0.2)
        assert await crashed.heard(incident, "Resolved!")
        assert len(await crashed.claim_due()) == 1  # … and the instance dies before posting
        restarted = NudgeService(PostgresNudgeStore(pool), quiet_hours=4)
        assert await restarted.claim_due() == []  # still leased
        await asyncio.sleep(0.3)
        assert [d.reason for d in await restarted.claim_due()] == ["said_fixed"]
    finally:
        await pool.close()


async def test_quiet_channels_are_asked_and_resolved_incidents_never(database_url: str) -> None:
    pool = await create_pool(database_url)
    try:
        incidents = PostgresIncidentStore(pool)
        quiet, _ = await incidents.open_incident("T1", "C1", Incident(title="quiet one"))
        busy, _ = await incidents.open_incident("T1", "C2", Incident(title="busy one"))
        done, _ = await incidents.open_incident("T1", "C3", Incident(title="resolved one"))
        await pool.execute("UPDATE incidents SET started_at = now() - interval '5 hours'")
        await incidents.append_message("T1", "C2", "9.0", "maya", "still digging", datetime.now(UTC))
        await incidents.mark_resolved("T1", done.incident_id)
        nudges = NudgeService(PostgresNudgeStore(pool), quiet_hours=4)
        assert [(d.incident.incident_id, d.reason) for d in await nudges.claim_due()] == [(quiet.incident_id, "quiet")]
        # said over after the incident was resolved: no ask
        assert await nudges.heard(done, "all clear") is False
    finally:
        await pool.close()


async def test_an_archived_channel_asks_its_declarer_directly_and_a_detected_one_nobody(database_url: str) -> None:
    pool = await create_pool(database_url)
    try:
        incidents = PostgresIncidentStore(pool)
        await incidents.open_incident("T1", "C1", Incident(title="declared"), declared_by="U1")
        await incidents.open_incident("T1", "C2", Incident(title="detected"))
        nudges = NudgeService(PostgresNudgeStore(pool), quiet_hours=4)
        assert (await nudges.archived("T1", "C1")) is not None
        assert (await nudges.archived("T1", "C2")) is not None
        assert await nudges.archived("T1", "C9") is None
        due = {d.incident.channel: NudgeService.destination(d) for d in await nudges.claim_due()}
        assert due["C1"] is not None and (due["C1"].channel, due["C1"].direct) == ("U1", True)
        assert due["C2"] is None
    finally:
        await pool.close()


async def test_drafted_then_accepted_is_kept_with_the_memory_and_is_not_content(database_url: str) -> None:
    pool = await create_pool(database_url)
    try:
        incidents = PostgresIncidentStore(pool)
        memory = PostgresMemoryStore(pool)
        incident, _ = await incidents.open_incident("T1", "C1", Incident(title="Checkout 500s"), declared_by="U1")
        now = datetime.now(UTC)
        await incidents.append_message(
            "T1", "C1", "100.1", "maya", "restarted payments pods, errors back after 25 minutes", now
        )
        await incidents.append_message("T1", "C1", "100.2", "maya", "rolled back the config", now)
        drafts = PostgresDraftStore(pool)
        drafting = DraftingService(OfflineDrafter(), incidents, drafts)
        mark = Mark(message_ts="100.2", author="maya", text="rolled back the config", kind=MarkKind.FIX, marked_by="U1")
        assert await drafting.mark("T1", "C1", mark) is not None
        saved = await drafting.draft(incident)
        assert saved.draft_id is not None and saved.draft.resolution.text == "Rolled back the config"
        attempt = saved.draft.failed_attempts[0]
        resolution = Resolution(root_cause="config drift", resolution="Rolled back the config",
                                failed_attempts=[{"action": attempt.action, "why_it_failed": attempt.why_it_failed}])  # fmt: skip
        trace = await drafting.trace("T1", saved.draft_id, resolution)
        assert trace is not None and trace.fields["failed_attempts[1]"] is FieldOrigin.DRAFTED
        resolving = ResolutionService(memory, access=Access(memory, incidents, Reviewers()))
        outcome = await resolving.resolve(incident, resolution, by=Actor(id="U1", name="maya"), drafting=trace)
        stored = await memory.get("T1", incident.incident_id)
        assert stored.drafting == trace and outcome.memory.drafting == trace
        assert stored.drafting.fields["root_cause"] is FieldOrigin.TYPED
        # the same outcome again, with another trace, is the same content: no conflict
        again = await resolving.resolve(
            incident, resolution, by=Actor(id="U1", name="maya"), drafting=DraftingTrace(drafter="offline")
        )
        assert again.status.value == "unchanged"
        assert await drafting.trace("T2", saved.draft_id, resolution) is None  # another team's draft id
    finally:
        await pool.close()
