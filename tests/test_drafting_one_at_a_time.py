"""One draft per incident at a time across processes (issue 25): `serve` may run several worker
processes (JOB_WORKERS) and a deployment several machines, each with its own DraftingService.
Here two services, each on a pool of its own as two processes would be, share one real
PostgreSQL; the drafter is held at a gate so the second request arrives while the first drafts.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.drafting.models import Mark, ResolutionDraft
from bot.drafting.rules import OfflineDrafter
from bot.memory.drafts import DraftingLease, PostgresDraftStore
from bot.memory.incidents import PostgresIncidentStore
from bot.memory.pool import create_pool
from bot.models import Incident, IncidentRecord, TimelineEntry
from bot.services.drafting import JOINED, DraftingService


class HeldDrafter:
    """The offline drafter, held until released; counts the drafts it was asked for."""

    def __init__(self, *, fail: bool = False) -> None:
        self.asked, self.fail = 0, fail
        self.started, self.release = asyncio.Event(), asyncio.Event()

    async def draft(
        self, incident: IncidentRecord, timeline: list[TimelineEntry], marks: list[Mark]
    ) -> ResolutionDraft:
        self.asked += 1
        self.started.set()
        await self.release.wait()
        if self.fail:
            raise RuntimeError("the drafting process went away")
        return await OfflineDrafter().draft(incident, timeline, marks)

    async def aclose(self) -> None:
        return None


class WatchedDraftStore(PostgresDraftStore):
    """The real store; `waiting` is set once it has been told another process is drafting."""

    def __init__(self, pool) -> None:  # noqa: ANN001 - asyncpg.Pool
        super().__init__(pool)
        self.waiting = asyncio.Event()

    async def claim_drafting(self, team_id: str, incident_id: str, holder: str, lease_s: float) -> DraftingLease | None:
        other = await super().claim_drafting(team_id, incident_id, holder, lease_s)
        if other is not None:
            self.waiting.set()
        return other


class Process:
    """What one worker process has: its own pool, stores and drafting service."""

    def __init__(self, pool, drafter: HeldDrafter) -> None:  # noqa: ANN001 - asyncpg.Pool
        self.pool, self.drafter = pool, drafter
        self.incidents = PostgresIncidentStore(pool)
        self.drafts = WatchedDraftStore(pool)
        self.drafting = DraftingService(drafter, self.incidents, self.drafts)


@pytest.fixture
async def two_processes(database_url: str) -> AsyncIterator[tuple[Process, Process, IncidentRecord]]:
    pools = [await create_pool(database_url), await create_pool(database_url)]
    first, second = Process(pools[0], HeldDrafter()), Process(pools[1], HeldDrafter())
    incident, _ = await first.incidents.open_incident("T1", "C1", Incident(title="Checkout 500s"), declared_by="U1")
    now = datetime.now(UTC)
    await first.incidents.append_message("T1", "C1", "100.1", "maya", "restarted payments pods, errors back", now)
    await first.incidents.append_message("T1", "C1", "100.2", "maya", "rolled back the config, errors gone", now)
    try:
        yield first, second, incident
    finally:
        for pool in pools:
            await pool.close()


async def test_a_second_process_asking_while_the_first_drafts_gets_its_draft_and_says_so(
    two_processes: tuple[Process, Process, IncidentRecord],
) -> None:
    first, second, incident = two_processes
    mine = asyncio.create_task(first.drafting.draft(incident))
    await first.drafter.started.wait()
    theirs = asyncio.create_task(second.drafting.draft(incident))
    # the second process asked while the first drafts (30 s: a failure, not a hang, if it never asks)
    await asyncio.wait_for(second.drafts.waiting.wait(), 30)
    second.drafter.release.set()  # nothing would hold the second process, were it to draft
    first.drafter.release.set()
    made, joined = await mine, await theirs
    assert (first.drafter.asked, second.drafter.asked) == (1, 0)  # one draft, one model call at most
    assert joined.draft_id == made.draft_id is not None
    assert JOINED not in made.draft.notes and JOINED in joined.draft.notes
    assert joined.draft.resolution == made.draft.resolution

    # once it is done, the next request drafts again (one at a time, not once ever)
    again = await second.drafting.draft(incident)
    assert second.drafter.asked == 1 and again.draft_id != made.draft_id and JOINED not in again.draft.notes


async def test_when_the_drafting_process_fails_the_waiting_one_drafts_itself(
    two_processes: tuple[Process, Process, IncidentRecord],
) -> None:
    first, second, incident = two_processes
    first.drafter.fail = True
    mine = asyncio.create_task(first.drafting.draft(incident))
    await first.drafter.started.wait()
    theirs = asyncio.create_task(second.drafting.draft(incident))
    await asyncio.wait_for(second.drafts.waiting.wait(), 30)
    first.drafter.release.set()
    second.drafter.release.set()
    with pytest.raises(RuntimeError):
        await mine
    drafted = await theirs
    assert second.drafter.asked == 1 and drafted.draft_id is not None and JOINED not in drafted.draft.notes


async def test_a_lease_left_by_a_process_that_died_expires(database_url: str) -> None:
    pool = await create_pool(database_url)
    try:
        process = Process(pool, HeldDrafter())
        incident, _ = await process.incidents.open_incident("T1", "C1", Incident(title="Checkout"), declared_by="U1")
        store = PostgresDraftStore(pool)
        # a process took the lease and was killed: no one finishes it
        assert await store.claim_drafting("T1", incident.incident_id, "gone", lease_s=0.5) is None
        held = await store.claim_drafting("T1", incident.incident_id, "another", lease_s=0.5)
        assert held is not None and held.holder == "gone" and held.running
        process.drafter.release.set()
        drafted = await process.drafting.draft(incident)  # waits out the lease, then drafts
        assert process.drafter.asked == 1 and drafted.draft_id is not None
    finally:
        await pool.close()
