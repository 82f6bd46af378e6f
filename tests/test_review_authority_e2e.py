"""Authority end to end, over signed HTTP into the real app (Slack = the sandbox): who may
reject a memory, who may resolve as verified, and what a refusal says."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.config import Settings
from bot.errors import MemoryNotFound
from bot.memory.files import draft_from_json
from bot.sandbox.local_bot import LocalBot, local_bot
from bot.slack import ids
from tests.test_slack_e2e import RESOLUTION, SEED, settle

# ---- authority -------------------------------------------------------------------------------------


@pytest.fixture
async def team_bot(database_url: str) -> AsyncIterator[LocalBot]:
    settings = Settings(database_url=database_url, memory_reviewers="U3, S0REVIEW")
    async with local_bot(settings) as running:
        sandbox = running.sandbox
        for user_id, name in (("U1", "alice"), ("U2", "bob"), ("U3", "carol"), ("U4", "dan")):
            sandbox.add_user(user_id, name)
        sandbox.add_usergroup("S0REVIEW", ["U4"])
        sandbox.add_channel("C1", "inc-checkout-timeouts", members=("U1", "U2"))
        guess = {**SEED, "incident_id": "INC-GUESS", "truth_state": "unconfirmed_hypothesis", "verified_by": None}
        for draft in ({**guess}, {**guess, "incident_id": "INC-GUESS-2"}):
            await running.runtime.services.memory.retain(draft_from_json(draft, team_id=sandbox.team_id))
        yield running


async def reject_as(bot: LocalBot, user_id: str, incident_id: str) -> Any:
    opened = len(bot.sandbox.calls("views.open"))
    await bot.slack.block_action(ids.MEMORY_REJECT, user_id=user_id, channel_id="C1", value=incident_id)
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    answer = await bot.slack.view_submission(
        bot.sandbox.last_view(), user_id=user_id, answers={"reason": "not the cause"}
    )
    return await settle(bot, answer)


async def test_only_reviewers_by_id_or_user_group_reject_and_the_refusal_says_who_can(team_bot: LocalBot) -> None:
    bot = team_bot
    refused = await reject_as(bot, "U2", "INC-GUESS")
    assert refused["errors"]["reason"] == "Only a memory reviewer or a workspace admin can reject a memory."
    note = await bot.sandbox.wait_for(
        lambda c: c.method == "chat.postEphemeral" and "can reject" in json.dumps(c.params)
    )
    assert "<@U3>" in json.dumps(note.params) and "<!subteam^S0REVIEW>" in json.dumps(note.params)
    assert (
        await bot.runtime.services.memory.get(bot.sandbox.team_id, "INC-GUESS")
    ).truth_state.value == "unconfirmed_hypothesis"

    assert await reject_as(bot, "U3", "INC-GUESS") == ""  # a reviewer by id
    assert await reject_as(bot, "U4", "INC-GUESS-2") == ""  # a reviewer through the user group
    for incident_id, actor, name in (("INC-GUESS", "U3", "carol"), ("INC-GUESS-2", "U4", "dan")):
        memory = await bot.runtime.services.memory.get(bot.sandbox.team_id, incident_id)
        assert memory.truth_state.value == "rejected"
        assert (memory.transitions[-1].actor, memory.transitions[-1].actor_name) == (actor, name)


async def declare_in_c1(bot: LocalBot, user_id: str) -> None:
    await bot.slack.command("/incident", "declare", user_id=user_id, channel_id="C1")
    await bot.sandbox.wait_for("views.open")
    answer = await bot.slack.view_submission(
        bot.sandbox.last_view(), user_id=user_id, answers={"title": "Checkout timeouts"}
    )
    assert await settle(bot, answer) == ""


async def resolve_as(bot: LocalBot, user_id: str, answers: dict[str, Any]) -> Any:
    opened = len(bot.sandbox.calls("views.open"))
    await bot.slack.command("/incident", "resolve", user_id=user_id, channel_id="C1")
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    answer = await bot.slack.view_submission(bot.sandbox.last_view(), user_id=user_id, answers=answers)
    return await settle(bot, answer)


async def test_resolving_as_verified_is_for_the_declarer_reviewers_and_admins(team_bot: LocalBot) -> None:
    bot = team_bot
    await declare_in_c1(bot, "U1")
    incident = await bot.runtime.services.incidents.open_in(bot.sandbox.team_id, "C1")
    verified = {**RESOLUTION, "verified": ["verified"], "verification_note": "trust me"}

    refused = await resolve_as(bot, "U2", verified)  # bob did not declare it, reviews nothing, is no admin
    assert refused["response_action"] == "errors"
    assert refused["errors"]["verified"].startswith(
        "Only the incident's declarer, a memory reviewer or a workspace admin"
    )
    note = await bot.sandbox.wait_for(
        lambda c: c.method == "chat.postEphemeral" and "mark a fix as verified" in json.dumps(c.params)
    )
    assert "<@U1>" in json.dumps(note.params)
    with pytest.raises(MemoryNotFound):
        await bot.runtime.services.memory.get(bot.sandbox.team_id, incident.incident_id)
    assert (await bot.runtime.services.incidents.open_in(bot.sandbox.team_id, "C1")) is not None

    # anyone in the channel may resolve with what a human confirmed; the audit has their id and their name
    assert await resolve_as(bot, "U2", RESOLUTION) == ""
    memory = await bot.runtime.services.memory.get(bot.sandbox.team_id, incident.incident_id)
    assert (memory.truth_state.value, memory.verified_by, memory.verified_by_name) == ("human_confirmed", "U2", "bob")
    assert (memory.transitions[-1].actor, memory.transitions[-1].actor_name) == ("U2", "bob")


async def test_the_declarer_may_resolve_as_verified_which_is_kept_as_self_verified(team_bot: LocalBot) -> None:
    bot = team_bot
    await declare_in_c1(bot, "U2")  # bob declares this one
    assert (
        await resolve_as(bot, "U2", {**RESOLUTION, "verified": ["verified"], "verification_note": "two quiet peaks"})
        == ""
    )
    incident = await bot.runtime.services.incidents.latest_in(bot.sandbox.team_id, "C1")
    memory = await bot.runtime.services.memory.get(bot.sandbox.team_id, incident.incident_id)
    # nobody verifies their own fix: kept as human_confirmed, with the note "self-verified"
    assert (memory.truth_state.value, memory.verified_by) == ("human_confirmed", "U2") and memory.self_verified
