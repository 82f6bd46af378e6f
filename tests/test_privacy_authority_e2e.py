"""Privacy and authority end to end, over signed HTTP into the real app (Slack = the sandbox).

The sweep drives every surface the app registers, from public channels, at a memory and an
incident kept from a private channel: none may show, change or act on them. A surface added
without a sweep step fails the sweep. The authority rules (who may reject, resolve as verified,
and what a refusal says) are in test_review_authority_e2e.py.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from bot.config import Settings
from bot.memory.files import draft_from_json
from bot.models import Incident
from bot.sandbox import app_home_opened_event, channel_archive_event, member_joined_channel_event
from bot.sandbox.calls import Call
from bot.sandbox.local_bot import LocalBot, local_bot
from bot.services.incidents import ChannelInfo
from bot.slack import ids
from tests.test_slack_e2e import RESOLUTION, SEED, settle

PRIVATE, PUBLIC, GENERAL = "CPRIV", "CPUB", "CGEN"
SECRET = "quokkaledger"  # in the private memory and incident only; must never leave PRIVATE
PRIVATE_MEMORY = {
    **SEED,
    "incident_id": "INC-PRIV",
    "title": f"Payments database connection pool exhausted at peak ({SECRET})",
    "root_cause": f"the {SECRET} batch held every connection",
    "truth_state": "unconfirmed_hypothesis",
    "verified_by": None,
    "channel_id": PRIVATE,
    "is_private": True,
}
QUERY = "payments database connection pool exhausted at peak"


@pytest.fixture
async def bot(database_url: str) -> AsyncIterator[LocalBot]:
    async with local_bot(Settings(database_url=database_url)) as running:
        sandbox = running.sandbox
        sandbox.add_user("U1", "alice", is_admin=True)  # an admin: what stops her here is privacy alone
        sandbox.add_channel(PRIVATE, "inc-ledger-private", is_private=True)
        sandbox.add_channel(PUBLIC, "inc-payments-pool")
        sandbox.add_channel(GENERAL, "general")
        team = sandbox.team_id
        await running.runtime.services.memory.retain(draft_from_json(PRIVATE_MEMORY, team_id=team))
        await running.runtime.services.incidents.declare(
            team, ChannelInfo(PRIVATE, "inc-ledger-private", is_private=True),
            Incident(title=f"Ledger pool exhausted again ({SECRET})", service="payments"), declared_by="U1",
        )  # fmt: skip
        yield running


class RecordingApp:
    """Stands in for Bolt's app at registration: records every surface the handlers register."""

    def __init__(self) -> None:
        self.surfaces: set[tuple[str, str]] = set()

    def _record(self, kind: str, key: Any) -> Callable[[Any], Any]:
        self.surfaces.add((kind, str(key)))
        return lambda listener: listener

    def middleware(self, middleware: Any) -> None:  # the context middleware: not a surface
        pass

    def error(self, handler: Any) -> None:  # the one error handler: not a surface
        pass

    def command(self, name: str, **_options: Any) -> Callable[[Any], Any]:
        return self._record("command", name)

    def event(self, name: str, **_options: Any) -> Callable[[Any], Any]:
        return self._record("event", name)

    def action(self, action_id: str, **_options: Any) -> Callable[[Any], Any]:
        return self._record("action", action_id)

    def view(self, callback_id: str, **_options: Any) -> Callable[[Any], Any]:
        return self._record("view", callback_id)

    def shortcut(self, callback_id: str, **_options: Any) -> Callable[[Any], Any]:
        return self._record("shortcut", callback_id)


def registered_surfaces(bot: LocalBot) -> set[tuple[str, str]]:
    from bot.handlers import register_all

    app = RecordingApp()
    register_all(app, bot.runtime.services)  # type: ignore[arg-type]
    return app.surfaces


def leaks(bot: LocalBot) -> list[str]:
    """Every Slack call outside the private channel that carries the private content."""
    return [
        f"{call.method} {json.dumps(call.params)[:200]}"
        for call in bot.sandbox.calls()
        if SECRET in json.dumps(call.params) and call.params.get("channel") != PRIVATE
    ]


async def drained(bot: LocalBot) -> None:
    await bot.runtime.settle()


# ---- one step per registered surface, each from a public channel --------------------------------


async def command_incident(bot: LocalBot) -> None:
    await bot.slack.command("/incident", "show INC-PRIV", user_id="U1", channel_id=GENERAL)
    await drained(bot)
    said = await bot.sandbox.wait_for(lambda c: c.method == "response_url" and "INC-PRIV" in json.dumps(c.params))
    assert "No memory `INC-PRIV` here" in json.dumps(said.params)


async def command_recall(bot: LocalBot) -> None:
    before = len(bot.sandbox.calls("response_url"))
    await bot.slack.command("/recall", QUERY, user_id="U1", channel_id=GENERAL)
    await bot.sandbox.wait_for("response_url", count=before + 1)
    await drained(bot)
    answers = bot.sandbox.calls("response_url")[before:]
    assert answers and all("INC-PRIV" not in json.dumps(a.params) for a in answers)


async def event_message(bot: LocalBot) -> None:
    # a public incident channel's first message opens its incident and recalls: not the private memory
    await bot.slack.say(PUBLIC, QUERY, user="U1")
    await drained(bot)
    parent = await bot.sandbox.wait_for_message(PUBLIC, lambda m: "looks like this" in m.text)
    assert "INC-PRIV" not in json.dumps([m.as_slack() for m in bot.sandbox.thread(PUBLIC, parent.ts)])


async def event_member_joined(bot: LocalBot) -> None:
    bot.sandbox.add_channel("CPUB2", "inc-payments-pool-again", topic=QUERY)
    await bot.slack.event(member_joined_channel_event("CPUB2", user=bot.sandbox.bot_user_id))
    await drained(bot)
    assert bot.sandbox.messages("CPUB2") and "INC-PRIV" not in json.dumps(
        [m.as_slack() for m in bot.sandbox.messages("CPUB2")]
    )


async def view_declare(bot: LocalBot) -> None:
    bot.sandbox.add_channel("CPUB3", "inc-declared-here")
    opened = len(bot.sandbox.calls("views.open"))
    await bot.slack.command("/incident", "declare", user_id="U1", channel_id="CPUB3")
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    answer = await bot.slack.view_submission(
        bot.sandbox.last_view(), user_id="U1", answers={"title": QUERY, "service": "payments"}
    )
    assert await settle(bot, answer) == ""
    await drained(bot)
    assert bot.sandbox.messages("CPUB3") and "INC-PRIV" not in json.dumps(
        [m.as_slack() for m in bot.sandbox.messages("CPUB3")]
    )


async def command_investigate(bot: LocalBot) -> None:
    # the investigation of a public incident recalls (and so shows the model) no private memory
    await bot.slack.command("/investigate", user_id="U1", channel_id=PUBLIC)
    await drained(bot)
    posted = [
        c
        for c in bot.sandbox.calls()
        if c.method in ("chat.postMessage", "chat.update") and c.params.get("channel") == PUBLIC
    ]
    assert any("nvestigat" in json.dumps(c.params) for c in posted)
    assert "INC-PRIV" not in json.dumps([c.params for c in posted])


async def action_incident_investigate(bot: LocalBot) -> None:
    private_incident = await bot.runtime.services.incidents.open_in(bot.sandbox.team_id, PRIVATE)
    before = len(bot.sandbox.messages(PRIVATE))
    await bot.slack.block_action(
        ids.INCIDENT_INVESTIGATE, user_id="U1", channel_id=GENERAL, value=private_incident.incident_id
    )
    await drained(bot)
    assert len(bot.sandbox.messages(PRIVATE)) == before  # nothing run or posted for an outsider's click
    await bot.sandbox.wait_for(
        lambda c: c.method == "response_url" and "No incident in this channel" in json.dumps(c.params)
    )


async def action_incident_resolve(bot: LocalBot) -> None:
    before = len(bot.sandbox.calls("views.open"))
    await bot.slack.block_action(ids.INCIDENT_RESOLVE, user_id="U1", channel_id=GENERAL, value="INC-ANY")
    await drained(bot)
    # it resolves the channel it is clicked in: #general has no incident, so no modal opens
    assert len(bot.sandbox.calls("views.open")) == before


async def view_resolution(bot: LocalBot) -> None:
    opened = len(bot.sandbox.calls("views.open"))
    await bot.slack.command("/incident", "resolve", user_id="U1", channel_id=PUBLIC)
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    answer = await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers=RESOLUTION)
    assert await settle(bot, answer) == ""
    await drained(bot)
    private_incident = await bot.runtime.services.incidents.open_in(bot.sandbox.team_id, PRIVATE)
    assert private_incident is not None  # still open: only the public channel's incident was resolved


async def _click_old_button(bot: LocalBot, action_id: str) -> None:
    # a button with the private memory's id, clicked in a public channel (an old or crafted message)
    await bot.slack.block_action(action_id, user_id="U1", channel_id=GENERAL, value="INC-PRIV")
    await drained(bot)


def _not_found_here(call: Call) -> bool:
    return call.method == "chat.postEphemeral" and "No memory `INC-PRIV` here" in json.dumps(call.params)


async def _click_old_button_and_hear_not_found(bot: LocalBot, action_id: str) -> None:
    told = len([c for c in bot.sandbox.calls() if _not_found_here(c)])
    await _click_old_button(bot, action_id)
    await bot.sandbox.wait_for(_not_found_here, count=told + 1)


async def action_memory_helpful(bot: LocalBot) -> None:
    await _click_old_button_and_hear_not_found(bot, ids.MEMORY_HELPFUL)


async def action_memory_not_relevant(bot: LocalBot) -> None:
    await _click_old_button_and_hear_not_found(bot, ids.MEMORY_NOT_RELEVANT)


async def view_correction(bot: LocalBot) -> None:
    opened = len(bot.sandbox.calls("views.open"))
    await _click_old_button(bot, ids.MEMORY_ADD_CORRECTION)  # the modal opens at once (no read)...
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    answer = await bot.slack.view_submission(
        bot.sandbox.last_view(), user_id="U1", answers={"text": "it was the ledger"}
    )
    shown = json.dumps(await settle(bot, answer))  # ...and its submission finds no such memory here
    assert "Nothing was saved" in shown and "no memory 'INC-PRIV'" in shown and "it was the ledger" in shown


async def action_memory_add_correction(bot: LocalBot) -> None:
    await view_correction(bot)


async def view_reject(bot: LocalBot) -> None:
    opened = len(bot.sandbox.calls("views.open"))
    await _click_old_button(bot, ids.MEMORY_REJECT)
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    answer = await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers={"reason": "wrong"})
    assert "no memory 'INC-PRIV'" in json.dumps(await settle(bot, answer))


async def action_memory_reject(bot: LocalBot) -> None:
    await view_reject(bot)


async def action_open_form(bot: LocalBot) -> None:
    # a form Slack could not open in time is kept under a random key, offered only to its user;
    # a guessed key opens nothing
    before = len(bot.sandbox.calls("views.open"))
    await bot.slack.block_action(ids.OPEN_FORM, user_id="U1", channel_id=GENERAL, value="form:" + "0" * 32)
    await drained(bot)
    await bot.sandbox.wait_for(lambda c: c.method == "response_url" and "no longer kept" in json.dumps(c.params))
    assert len(bot.sandbox.calls("views.open")) == before


async def event_app_home_opened(bot: LocalBot) -> None:
    # alice is not in the private channel: her App Home lists neither its memory nor its incident
    published = len(bot.sandbox.calls("views.publish"))
    await bot.slack.event(app_home_opened_event("U1"))
    await bot.sandbox.wait_for("views.publish", count=published + 1)
    shown = json.dumps(bot.sandbox.home("U1"))
    assert "INC-PRIV" not in shown and "To review" in shown


async def action_home_search(bot: LocalBot) -> None:
    published = len(bot.sandbox.calls("views.publish"))
    await bot.slack.block_action(ids.HOME_SEARCH, user_id="U1", view=bot.sandbox.home("U1"), value=QUERY)
    await bot.sandbox.wait_for("views.publish", count=published + 1)
    assert "Recalled for" in json.dumps(bot.sandbox.home("U1"), ensure_ascii=False)


async def view_confirm(bot: LocalBot) -> None:
    opened = len(bot.sandbox.calls("views.open"))
    await _click_old_button(bot, ids.MEMORY_CONFIRM)
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    answer = await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers={"note": "right"})
    assert "no memory 'INC-PRIV'" in json.dumps(await settle(bot, answer))


async def action_memory_confirm(bot: LocalBot) -> None:
    await view_confirm(bot)


async def action_nudge_save(bot: LocalBot) -> None:
    # "Save what we learned" naming the private incident, clicked by someone outside its channel
    private_incident = await bot.runtime.services.incidents.open_in(bot.sandbox.team_id, PRIVATE)
    before = len(bot.sandbox.calls("views.open"))
    await bot.slack.block_action(ids.NUDGE_SAVE, user_id="U1", channel_id=GENERAL, value=private_incident.incident_id)
    await drained(bot)
    assert len(bot.sandbox.calls("views.open")) == before
    await bot.sandbox.wait_for(
        lambda c: c.method == "response_url" and "could not find that incident" in json.dumps(c.params)
    )


async def event_channel_archive(bot: LocalBot) -> None:
    # the public incident's channel archived: its declarer is asked, with nothing of the private one
    bot.sandbox.add_channel("CPUB4", "inc-archived-here")
    await bot.runtime.services.incidents.declare(
        bot.sandbox.team_id, ChannelInfo("CPUB4", "inc-archived-here"), Incident(title=QUERY), declared_by="U1"
    )
    await bot.slack.event(channel_archive_event("CPUB4", user="U1"))
    await drained(bot)
    assert any("inc-archived-here" in m.text for m in bot.sandbox.messages("D1"))


async def event_group_archive(bot: LocalBot) -> None:
    # the private channel archived: its declarer is asked directly, by id and channel, no title
    await bot.slack.event({**channel_archive_event(PRIVATE, user="U1"), "type": "group_archive"})
    await drained(bot)
    asked = [m for m in bot.sandbox.messages("D1") if "inc-ledger-private" in m.text]
    assert len(asked) == 1 and "an incident of a private channel" in asked[0].text


async def view_mark(bot: LocalBot) -> None:
    # a #general message marked for memory: #general has no incident; nothing reaches the private one
    message = bot.sandbox.add_message(GENERAL, f"restarted the {QUERY} pods", user="U1")
    opened = len(bot.sandbox.calls("views.open"))
    await bot.slack.message_shortcut(ids.ADD_TO_MEMORY_SHORTCUT, message, user_id="U1")
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    answer = await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers={"kind": "fix"})
    assert "no incident to add it to" in json.dumps(await settle(bot, answer))


async def shortcut_add_to_memory(bot: LocalBot) -> None:
    await view_mark(bot)


async def action_memory_why(bot: LocalBot) -> None:
    # "Why this?" shows only what its button carries, never a read of the memory: a crafted
    # button naming the private memory shows nothing of it
    before = len(bot.sandbox.calls("views.open"))
    value = json.dumps({"id": "INC-PRIV", "reasons": ["crafted"], "numbers": "0.9"})
    await bot.slack.block_action(ids.MEMORY_WHY, user_id="U1", channel_id=GENERAL, value=value)
    await drained(bot)
    opened = await bot.sandbox.wait_for("views.open", count=before + 1)
    assert SECRET not in json.dumps(opened.params)


SWEEP: dict[tuple[str, str], Callable[[LocalBot], Awaitable[None]]] = {
    ("command", "/incident"): command_incident,
    ("command", "/recall"): command_recall,
    ("event", "message"): event_message,
    ("event", "member_joined_channel"): event_member_joined,
    ("view", ids.DECLARE_MODAL): view_declare,
    ("command", "/investigate"): command_investigate,
    ("action", ids.INCIDENT_INVESTIGATE): action_incident_investigate,
    ("action", ids.INCIDENT_RESOLVE): action_incident_resolve,
    ("view", ids.RESOLUTION_MODAL): view_resolution,
    ("action", ids.MEMORY_HELPFUL): action_memory_helpful,
    ("action", ids.MEMORY_NOT_RELEVANT): action_memory_not_relevant,
    ("action", ids.MEMORY_ADD_CORRECTION): action_memory_add_correction,
    ("view", ids.CORRECTION_MODAL): view_correction,
    ("action", ids.MEMORY_REJECT): action_memory_reject,
    ("view", ids.REJECT_MODAL): view_reject,
    ("action", ids.OPEN_FORM): action_open_form,
    ("action", ids.MEMORY_WHY): action_memory_why,
    ("event", "app_home_opened"): event_app_home_opened,
    ("action", ids.HOME_SEARCH): action_home_search,
    ("action", ids.MEMORY_CONFIRM): action_memory_confirm,
    ("view", ids.CONFIRM_MODAL): view_confirm,
    ("action", ids.NUDGE_SAVE): action_nudge_save,
    ("event", "channel_archive"): event_channel_archive,
    ("event", "group_archive"): event_group_archive,
    ("shortcut", ids.ADD_TO_MEMORY_SHORTCUT): shortcut_add_to_memory,
    ("view", ids.MARK_MODAL): view_mark,
}


async def test_every_surface_keeps_a_private_channels_memory_in_that_channel(bot: LocalBot, database_url: str) -> None:
    assert registered_surfaces(bot) == set(SWEEP), "every registered surface needs a step in the privacy sweep"
    for surface, step in SWEEP.items():
        await step(bot)
        assert leaks(bot) == [], surface

    stored = await bot.runtime.services.memory.get(bot.sandbox.team_id, "INC-PRIV")
    assert stored.corrections == [] and stored.truth_state.value == "unconfirmed_hypothesis"
    import asyncpg

    conn = await asyncpg.connect(database_url)
    try:
        assert await conn.fetchval("SELECT count(*) FROM memory_feedback") == 0
    finally:
        await conn.close()

    # at home, the same memory is there: the sweep's refusals were privacy, not a broken lookup
    await bot.slack.command("/incident", "show INC-PRIV", user_id="U1", channel_id=PRIVATE)
    await drained(bot)
    await bot.sandbox.wait_for(lambda c: c.method == "response_url" and SECRET in json.dumps(c.params))
    await bot.slack.block_action(ids.MEMORY_HELPFUL, user_id="U1", channel_id=PRIVATE, value="INC-PRIV")
    await drained(bot)
    await bot.sandbox.wait_for(
        lambda c: c.method == "chat.postEphemeral" and "Noted as helpful" in json.dumps(c.params)
    )
