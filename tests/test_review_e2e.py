"""Review in Slack, end to end: App Home per person (awaiting outcomes, memories to review,
recent memories, recall search), Confirm and Reject from App Home and from the recall card, and
a private channel's memory never shown to someone outside it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.config import Settings
from bot.models import MemoryDraft, TruthState
from bot.sandbox import app_home_opened_event
from bot.sandbox.local_bot import LocalBot, local_bot
from bot.services.review import SCANNED
from bot.slack import ids


def memory(incident_id: str, title: str, **fields: Any) -> MemoryDraft:
    base = dict(
        incident_id=incident_id, team_id="T0SANDBOX", title=title, service="payments",
        root_cause="connection leak in the refund worker", resolution="release connections in finally",
    )  # fmt: skip
    return MemoryDraft(**(base | fields))


@pytest.fixture
async def bot(database_url: str) -> AsyncIterator[LocalBot]:
    # maya reviews memories; omar is neither a reviewer nor an admin
    async with local_bot(Settings(database_url=database_url, memory_reviewers="U1")) as running:
        sandbox = running.sandbox
        sandbox.add_user("U1", "maya")
        sandbox.add_user("U2", "omar")
        sandbox.add_channel("C1", "inc-payments-500s", members=("U1", "U2"))
        sandbox.add_channel("C2", "inc-secret-breach", is_private=True, members=("U2",))
        store = running.runtime.services.memory
        await store.retain(memory("INC-OPEN-Q", "Payments pool exhausted at peak (imported)"))
        await store.retain(memory("INC-PRIV", "Secret breach: leaked token", is_private=True, channel_id="C2"))
        await store.retain(
            memory(
                "INC-DONE", "Checkout latency after deploy", truth_state=TruthState.HUMAN_CONFIRMED, verified_by="maya"
            )
        )
        yield running


async def home_of(bot: LocalBot, user: str) -> dict[str, Any]:
    published = len([c for c in bot.sandbox.calls("views.publish") if c.params.get("user_id") == user])
    assert (await bot.slack.event(app_home_opened_event(user))).status == 200
    await bot.sandbox.wait_for(
        lambda c: c.method == "views.publish" and c.params.get("user_id") == user and c.ok, count=published + 1
    )
    return bot.sandbox.home(user)


def text(view: dict[str, Any]) -> str:
    return json.dumps(view["blocks"], ensure_ascii=False)


async def test_app_home_lists_what_awaits_review_and_never_a_private_memory_to_an_outsider(bot: LocalBot) -> None:
    assert (await bot.slack.command("/incident", "declare", user_id="U1", channel_id="C1")).status == 200
    await bot.sandbox.wait_for("views.open")
    await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers={"title": "Refunds failing"})
    maya = text(await home_of(bot, "U1"))
    assert "Awaiting an outcome" in maya and "Refunds failing" in maya and ids.NUDGE_SAVE in maya
    assert "INC-OPEN-Q" in maya and "Confirm" in maya and "INC-DONE" in maya
    assert "INC-PRIV" not in maya and "Secret breach" not in maya
    assert "INC-PRIV" in text(await home_of(bot, "U2"))  # omar is in the private channel


async def test_the_recall_box_searches_and_leaves_private_memories_out(bot: LocalBot) -> None:
    home = await home_of(bot, "U1")
    response = await bot.slack.block_action(
        ids.HOME_SEARCH, user_id="U1", view=home, value="payments pool exhausted refund leak"
    )
    assert response.status == 200
    await bot.sandbox.wait_for(
        lambda c: c.method == "views.publish" and "Recalled for" in json.dumps(c.params["view"], ensure_ascii=False)
    )
    shown = text(bot.sandbox.home("U1"))
    assert "Recalled for “payments pool exhausted refund leak”" in shown and "found_1" in shown
    assert "Secret breach" not in shown


async def confirm_from(bot: LocalBot, user: str, container: dict[str, Any], incident_id: str, note: str, **where: Any):  # noqa: ANN201
    opened = len(bot.sandbox.calls("views.open"))
    response = await bot.slack.block_action(
        ids.MEMORY_CONFIRM, user_id=user, value=incident_id, **{**where, **container}
    )
    assert response.status == 200
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    return await bot.slack.view_submission(bot.sandbox.last_view(), user_id=user, answers={"note": note})


async def test_a_reviewer_confirms_and_rejects_from_app_home_and_the_tab_follows(bot: LocalBot) -> None:
    await bot.runtime.services.memory.retain(memory("INC-WRONG", "Checkout down: blamed on DNS"))
    first_home = await home_of(bot, "U1")
    done = await confirm_from(bot, "U1", {"view": first_home}, "INC-OPEN-Q", "I was on call; the postmortem agrees")
    assert done.status == 200 and done.body == ""
    confirmed = await bot.runtime.services.memory.get("T0SANDBOX", "INC-OPEN-Q")
    assert confirmed.truth_state is TruthState.HUMAN_CONFIRMED
    last = confirmed.transitions[-1]
    assert (last.actor, last.actor_name, last.reason) == ("U1", "maya", "I was on call; the postmortem agrees")
    await bot.sandbox.wait_for(lambda c: c.method == "views.publish" and c.ok, count=2)  # the tab follows

    home = bot.sandbox.home("U1")
    opened = len(bot.sandbox.calls("views.open"))
    await bot.slack.block_action(ids.MEMORY_REJECT, user_id="U1", view=home, value="INC-WRONG")
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    rejected = await bot.slack.view_submission(
        bot.sandbox.last_view(), user_id="U1", answers={"reason": "it was the pool, not DNS"}
    )
    assert rejected.status == 200 and rejected.body == ""
    assert (await bot.runtime.services.memory.get("T0SANDBOX", "INC-WRONG")).truth_state is TruthState.REJECTED
    await bot.runtime.settle()
    review = [b for b in bot.sandbox.home("U1")["blocks"] if str(b.get("block_id", "")).startswith("review_")]
    assert "INC-WRONG" not in json.dumps(review) and "INC-OPEN-Q" not in json.dumps(review)

    # a stale tab (another reviewer was faster): confirming again is refused by the truth machine,
    # in the modal, with the note kept
    again = await confirm_from(bot, "U1", {"view": first_home}, "INC-OPEN-Q", "once more")
    assert again.json["response_action"] == "errors" and "human_confirmed" in again.json["errors"]["note"]


async def test_confirm_on_the_recall_card(bot: LocalBot) -> None:
    assert (await bot.slack.command("/incident", "declare", user_id="U1", channel_id="C1")).status == 200
    await bot.sandbox.wait_for("views.open")
    await bot.slack.view_submission(
        bot.sandbox.last_view(), user_id="U1",
        answers={"title": "Payments pool exhausted again at peak", "service": "payments", "symptoms": "refund worker connections"},
    )  # fmt: skip
    card = await bot.sandbox.wait_for_message(
        "C1", lambda m: m.thread_ts not in (None, m.ts) and "INC-OPEN-Q" in json.dumps(m.blocks or [])
    )
    assert ids.MEMORY_CONFIRM in json.dumps(card.blocks)
    confirmed_card = [m for m in bot.sandbox.messages("C1") if "INC-DONE" in json.dumps(m.blocks or [])]
    assert all(ids.MEMORY_CONFIRM not in json.dumps(m.blocks) for m in confirmed_card)  # nothing to confirm there
    # omar may not: the modal says who can, and so does a note in the channel, by name
    refused = await confirm_from(bot, "U2", {"message": card}, "INC-OPEN-Q", "matches the incident review")
    assert refused.json["response_action"] == "errors"
    assert (
        refused.json["errors"]["note"].startswith("Only ") and "can confirm a memory" in refused.json["errors"]["note"]
    )
    await bot.runtime.settle()
    assert any("<@U1>" in json.dumps(e.blocks) for e in bot.sandbox.ephemerals("C1", "U2"))
    assert (
        await bot.runtime.services.memory.get("T0SANDBOX", "INC-OPEN-Q")
    ).truth_state is TruthState.UNCONFIRMED_HYPOTHESIS
    # maya (a reviewer) may
    done = await confirm_from(bot, "U1", {"message": card}, "INC-OPEN-Q", "matches the incident review")
    assert done.status == 200 and done.body == ""
    assert (await bot.runtime.services.memory.get("T0SANDBOX", "INC-OPEN-Q")).truth_state is TruthState.HUMAN_CONFIRMED
    await bot.runtime.settle()
    assert any("is confirmed" in e.text for e in bot.sandbox.ephemerals("C1", "U1"))


async def test_someone_the_policy_refuses_is_told_who_can_from_app_home_too(bot: LocalBot) -> None:
    home = await home_of(bot, "U2")
    refused = await confirm_from(bot, "U2", {"view": home}, "INC-OPEN-Q", "looks right to me")
    assert refused.json == {
        "response_action": "errors",
        "errors": {"note": "Only a memory reviewer or a workspace admin can confirm a memory."},
    }
    opened = len(bot.sandbox.calls("views.open"))
    await bot.slack.block_action(ids.MEMORY_REJECT, user_id="U2", view=home, value="INC-OPEN-Q")
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    rejected = await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U2", answers={"reason": "not sure"})
    assert rejected.json["errors"]["reason"] == "Only a memory reviewer or a workspace admin can reject a memory."
    assert (
        await bot.runtime.services.memory.get("T0SANDBOX", "INC-OPEN-Q")
    ).truth_state is TruthState.UNCONFIRMED_HYPOTHESIS


async def test_a_private_memory_cannot_be_confirmed_by_someone_outside_its_channel(bot: LocalBot) -> None:
    # a crafted click: maya's home never showed it
    response = await confirm_from(bot, "U1", {"view": await home_of(bot, "U1")}, "INC-PRIV", "looks right")
    assert response.json["response_action"] == "update"
    assert "no memory 'INC-PRIV'" in json.dumps(response.json["view"])
    assert (
        await bot.runtime.services.memory.get("T0SANDBOX", "INC-PRIV")
    ).truth_state is TruthState.UNCONFIRMED_HYPOTHESIS


async def test_app_home_stays_within_block_kit_limits_with_a_long_backlog(bot: LocalBot) -> None:
    for n in range(40):
        await bot.runtime.services.memory.retain(
            memory(f"INC-BACKLOG-{n:02d}", f"Imported postmortem {n} " + "x" * 400)
        )
    home = await home_of(bot, "U1")  # the sandbox refuses a Home view over Slack's limits
    assert len(home["blocks"]) <= 100
    assert "More are waiting" in text(home)


async def test_recent_memories_still_show_after_an_import_of_more_unconfirmed_ones_than_are_scanned(
    bot: LocalBot,
) -> None:
    for n in range(SCANNED + 5):  # newer than INC-DONE, all unconfirmed
        await bot.runtime.services.memory.retain(memory(f"INC-IMPORTED-{n:03d}", f"Imported postmortem {n}"))
    home = text(await home_of(bot, "U1"))
    assert "INC-DONE" in home  # the confirmed memory is still among the recent ones
