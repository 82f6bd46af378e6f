"""Recall that stays quiet when nothing matches, and sees what incidents are named by.

A bank of the project's own incidents (eval/incidents) and the demo's seeds, as a responder
would query it: status codes find their incidents, an office printer finds nothing, the demo's
first incident shows only the payments memories, and its follow-up flags only the memories
whose root causes are different mechanisms.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.config import PROJECT_ROOT
from bot.demo import RESOLUTION, TITLE, seed_drafts
from bot.memory.pool import create_pool
from bot.memory.postgres import PostgresMemoryStore
from bot.models import IncidentRecord, MemoryDraft, RecallQuery, TruthState
from bot.recall.floor import DEFAULT_FLOOR
from bot.replay import load_memories
from bot.services.recall import RecallService
from bot.slack import messages

TEAM = "T1"
BAD_GATEWAY = {"m32", "m45"}  # the corpus's two 502 incidents


@pytest.fixture
async def bank(database_url: str) -> AsyncIterator[PostgresMemoryStore]:
    pool = await create_pool(database_url)
    store = PostgresMemoryStore(pool)
    try:
        for draft in load_memories(PROJECT_ROOT / "eval" / "incidents", team_id=TEAM) + seed_drafts(TEAM):
            await store.retain(draft)
        await store.close()  # postings derived
        yield store
    finally:
        await pool.close()


async def shown(store: PostgresMemoryStore, text: str) -> list[str]:
    """What a responder is shown: the thread, or else the weak line naming the closest few."""
    result = await RecallService(store).for_text(TEAM, None, text)
    return [m.memory.incident_id for m in result.matches or result.weak]


async def test_a_status_code_finds_its_incidents_first(bank: PostgresMemoryStore) -> None:
    for text in ("502", "HTTP 502 from the gateway", "502s at the edge"):
        found = await shown(bank, text)
        assert set(found[:2]) == BAD_GATEWAY, (text, found)
        top = (await RecallService(bank).recall(RecallQuery(team_id=TEAM, title=text)))[0]
        assert "same status: 502" in top.reasons


async def test_exit_and_error_codes_are_terms_too(bank: PostgresMemoryStore) -> None:
    assert (await shown(bank, "indexer exit code 137"))[0] == "m03"  # its error text says exit code 137
    [top] = await RecallService(bank).recall(RecallQuery(team_id=TEAM, title="exit code 137", limit=1))
    assert top.reasons[0] == "same exit code: 137"


async def test_a_query_like_nothing_in_memory_shows_nothing(bank: PostgresMemoryStore) -> None:
    assert await shown(bank, "the office printer on floor three is out of toner") == []
    # the CLI's --all still sees what fell under the floor, with its judgement
    under = await RecallService(bank).for_text(TEAM, None, "the office printer on floor three is out of toner")
    assert under.under_floor and all(m.relevance < DEFAULT_FLOOR for m in under.under_floor)
    parent = messages.recall_parent("office printer", under.matches, under.conflicts)
    assert "Nothing in memory looks like this" in parent["text"] and len(parent["blocks"]) == 1


async def test_generic_words_are_never_a_reason(bank: PostgresMemoryStore) -> None:
    text = "Kubernetes nodes got evicted and nobody noticed; every pod left us with one error"
    for match in await RecallService(bank).recall(RecallQuery(team_id=TEAM, title=text, limit=10)):
        said = " ".join(match.reasons)
        for word in ("got", "nobody", "every", " us", "one", "left", "error", "kubernete,", "kubernet,"):
            assert word not in said, (word, match.reasons)


def incident(title: str, **fields: object) -> IncidentRecord:
    return IncidentRecord(
        incident_id="OPEN-1", team=TEAM, channel="C1", title=title, service="payments",
        started_at=datetime.now(UTC), **fields,  # type: ignore[arg-type]
    )  # fmt: skip


async def test_the_demo_threads_show_payments_only_and_flag_only_different_mechanisms(database_url: str) -> None:
    pool = await create_pool(database_url)
    try:
        store = PostgresMemoryStore(pool)
        for draft in seed_drafts(TEAM):
            await store.retain(draft)
        recall = RecallService(store)
        first = await recall.for_incident(
            incident(TITLE, severity="SEV2", symptoms="Checkout requests fail with database timeouts; p99 at 30 s.")
        )
        assert {m.memory.service for m in first.matches} == {"payments"}
        assert {m.memory.incident_id for m in first.under_floor} >= {"INC-2025-0815", "INC-2025-0603"}

        saved = {k: v for k, v in RESOLUTION.items() if k in ("root_cause", "diagnosis", "resolution", "lesson")}
        await store.retain(MemoryDraft(incident_id="INC-NEW", team_id=TEAM, title=TITLE, service="payments",
                                       truth_state=TruthState.VERIFICATION_CONFIRMED, verified_by="sam", **saved))  # fmt: skip
        second = await recall.for_incident(
            incident("Checkout latency: database connections held during provider calls")
        )
        ids = [m.memory.incident_id for m in second.matches]
        assert {"INC-NEW", "INC-2025-0412", "INC-2025-0921"} <= set(ids)
        by_id = {m.memory.incident_id: m for m in second.matches}
        # both held connections until the pool ran dry: one explanation in two wordings
        assert "INC-2025-0412" not in messages.conflicting_ids(by_id["INC-NEW"], second.conflicts)
        assert "INC-NEW" not in messages.conflicting_ids(by_id["INC-2025-0412"], second.conflicts)
        # a leak vs a batch competing for IO: two mechanisms, flagged
        assert "INC-2025-0921" in messages.conflicting_ids(by_id["INC-2025-0412"], second.conflicts)
        assert set(messages.conflicting_ids(by_id["INC-2025-0921"], second.conflicts)) == {"INC-NEW", "INC-2025-0412"}
    finally:
        await pool.close()


@pytest.mark.parametrize("setting", ["line", "silent"])
async def test_a_new_incident_like_nothing_in_memory_gets_one_line_or_nothing(database_url: str, setting: str) -> None:
    from bot.config import Settings
    from bot.sandbox.local_bot import local_bot

    async with local_bot(Settings(database_url=database_url, recall_when_nothing_found=setting)) as bot:
        bot.sandbox.add_user("U1", "alice")
        bot.sandbox.add_channel("C1", "inc-printer")
        for draft in seed_drafts(bot.sandbox.team_id):
            await bot.runtime.services.memory.retain(draft)
        await bot.slack.say("C1", "the office printer on floor three is out of toner", user="U1")  # opens the incident
        await bot.runtime.settle()
        posted = [m for m in bot.sandbox.messages("C1") if m.user != "U1"]
        if setting == "silent":
            assert posted == []
        else:
            [line] = posted  # one line, no thread
            assert line.text.startswith("Nothing in memory looks like this") and len(line.blocks) == 1
        # /recall asked explicitly always answers
        await bot.slack.command("/recall", "", user_id="U1", channel_id="C1")
        await bot.runtime.settle()
        assert any(m.text.startswith("Nothing in memory looks like this") for m in bot.sandbox.messages("C1"))
