"""The Slack bot end to end: signed requests over HTTP into the real app, Slack's Web API
replaced by the sandbox, memory in a real PostgreSQL."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.memory.files import draft_from_json
from bot.sandbox.local_bot import LocalBot, local_bot

SEED = {
    "incident_id": "INC-OLD-1",
    "title": "Payments API 5xx: database connection pool exhausted at peak",
    "service": "payments",
    "symptoms": "checkout requests failed with database timeouts at the evening peak",
    "root_cause": "refund worker leaked connections when the provider call raised",
    "resolution": "release the connection in a finally block",
    "failed_attempts": [
        {"action": "restarted the payments pods", "why_it_failed": "bought 25 minutes, then the pool filled again"}
    ],
    "truth_state": "human_confirmed",
    "verified_by": "maya",
}


@pytest.fixture
async def bot(database_url: str) -> AsyncIterator[LocalBot]:
    async with local_bot(Settings(database_url=database_url)) as running:
        running.sandbox.add_user("U1", "alice")
        running.sandbox.add_channel("C1", "inc-checkout-timeouts")
        await running.runtime.services.memory.retain(draft_from_json(SEED, team_id=running.sandbox.team_id))
        yield running


async def settle(bot: LocalBot, response) -> dict | str:  # noqa: ANN001
    """What the modal finally says: the ack itself or, when a busy machine made the save outlive
    the ack budget ("Still saving…"), the views.update that followed it."""
    body = response.body
    if (
        isinstance(body, dict)
        and body.get("response_action") == "update"
        and "Still saving" in json.dumps(body["view"])
    ):
        view_id = response.sent["view"]["id"]
        update = await bot.sandbox.wait_for(
            lambda c: c.method == "views.update" and c.params.get("view_id") == view_id, timeout=30
        )
        view = update.params["view"]
        return "" if view.get("title", {}).get("text") == "Saved" else {"response_action": "update", "view": view}
    return body


async def declare(
    bot: LocalBot, title: str = "Checkout errors return with database timeouts during peak traffic"
) -> None:
    response = await bot.slack.command("/incident", "declare", user_id="U1", channel_id="C1")
    assert response.status == 200
    await bot.sandbox.wait_for("views.open")
    modal = bot.sandbox.last_view()
    submitted = await bot.slack.view_submission(
        modal, user_id="U1", answers={"title": title, "service": "payments", "severity": "SEV2"}
    )
    assert submitted.status == 200 and await settle(bot, submitted) == ""  # the modal closes


async def test_declare_posts_a_recall_thread_with_reasons_age_and_verification(bot: LocalBot) -> None:
    await declare(bot)
    parent = await bot.sandbox.wait_for_message(
        "C1", lambda m: "past incident" in m.text and m.thread_ts in (None, m.ts)
    )
    assert parent.text.startswith("1 past incident looks like this one")
    reply = await bot.sandbox.wait_for_message("C1", lambda m: m.thread_ts == parent.ts and m.ts != parent.ts)
    shown = json.dumps(reply.blocks)
    for expected in (
        "database connection pool exhausted", "same service: payments", "matched terms",
        "restarted the payments pods", "bought 25 minutes", "maya",
    ):  # fmt: skip
        assert expected in shown, expected
    actions = [e["action_id"] for b in reply.blocks if b["type"] == "actions" for e in b["elements"]]
    assert "memory_helpful" in actions and "memory_add_correction" in actions
    # the card leaves the numbers out; "Why this?" opens them
    visible = json.dumps([b for b in reply.blocks if b["type"] != "actions"])  # a button's value is not shown
    assert "lexical" not in visible and "score" not in visible
    assert (await bot.slack.block_action("memory_why", user_id="U1", message=reply)).status == 200
    opened = await bot.sandbox.wait_for("views.open", count=2)
    detail = json.dumps(opened.params["view"])
    assert (
        "Why this came back" in detail
        and "relevance 0." in detail
        and "lexical" in detail
        and "same service: payments" in detail
    )


def thread_replies(bot: LocalBot, channel: str, parent_ts: str):  # noqa: ANN201
    return [m for m in bot.sandbox.thread(channel, parent_ts) if m.ts != parent_ts]


async def resolve(bot: LocalBot, answers: dict[str, str]):  # noqa: ANN201
    opened = len(bot.sandbox.calls("views.open"))
    assert (await bot.slack.command("/incident", "resolve", user_id="U1", channel_id="C1")).status == 200
    await bot.sandbox.wait_for("views.open", count=opened + 1)
    response = await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers=answers)
    return dataclasses.replace(response, body=await settle(bot, response))


RESOLUTION = {
    "root_cause": "the new checkout retry loop held a connection across provider calls",
    "diagnosis": "pg_stat_activity showed idle-in-transaction sessions from checkout",
    "resolution": "released the connection before calling the provider",
    "failed_1_action": "raised max_connections to 400",
    "failed_1_why": "database memory pressure rose and the pool filled anyway",
    "lesson": "look for held connections before adding capacity",
}


async def test_the_whole_loop_declare_buttons_resolve_and_recall_it_next_time(bot: LocalBot) -> None:
    await declare(bot)
    parent = await bot.sandbox.wait_for_message(
        "C1", lambda m: "past incident" in m.text and m.thread_ts in (None, m.ts)
    )
    reply = await bot.sandbox.wait_for_message("C1", lambda m: m.thread_ts == parent.ts and m.ts != parent.ts)

    # Helpful is stored as feedback and the user is thanked
    assert (await bot.slack.block_action("memory_helpful", user_id="U1", message=reply)).status == 200
    await bot.sandbox.wait_for(lambda c: c.method == "chat.postEphemeral" and "helpful" in c.params.get("text", ""))
    # Add correction opens a modal; its submission attaches the correction
    await bot.slack.block_action("memory_add_correction", user_id="U1", message=reply)
    await bot.sandbox.wait_for("views.open", count=2)
    assert (
        await bot.slack.view_submission(
            bot.sandbox.last_view(), user_id="U1", answers={"text": "it was the refund worker's retry path"}
        )
    ).status == 200
    memory = await bot.runtime.services.memory.get(bot.sandbox.team_id, "INC-OLD-1")
    assert [(c.author, c.author_name, c.text) for c in memory.corrections] == [
        ("U1", "alice", "it was the refund worker's retry path")
    ]

    # people talk in the channel: CURRENT evidence on the incident's timeline
    await bot.slack.say("C1", "p99 at 30s, pool at 100/100", user="U1")
    # resolution modal → memory retained, confirmation in the channel
    submitted = await resolve(
        bot, {**RESOLUTION, "verified": ["verified"], "verification_note": "no timeouts through two peaks"}
    )
    assert submitted.status == 200 and submitted.body == ""
    confirmation = await bot.sandbox.wait_for_message("C1", lambda m: "max_connections" in json.dumps(m.blocks or []))
    assert confirmation.thread_ts in (None, confirmation.ts)
    incident = await bot.runtime.services.incidents.latest_in(bot.sandbox.team_id, "C1")
    saved = await bot.runtime.services.memory.get(bot.sandbox.team_id, incident.incident_id)
    # the declarer verified their own fix: kept as human_confirmed, "self-verified" (bot/policy.py)
    assert saved.truth_state.value == "human_confirmed" and (saved.verified_by, saved.verified_by_name) == (
        "U1",
        "alice",
    )
    assert saved.verification_note == "self-verified: no timeouts through two peaks"
    assert saved.failed_attempts[0].why_it_failed == "database memory pressure rose and the pool filled anyway"
    timeline = await bot.runtime.services.incidents.timeline(incident)
    assert [(e.author, e.text) for e in timeline] == [("alice", "p99 at 30s, pool at 100/100")]

    # a similar new incident in another channel recalls the new memory first
    bot.sandbox.add_channel("C2", "inc-checkout-again")
    await bot.slack.command("/incident", "declare", user_id="U1", channel_id="C2")
    await bot.sandbox.wait_for("views.open", count=4)
    await bot.slack.view_submission(
        bot.sandbox.last_view(), user_id="U1",
        answers={"title": "Checkout timeouts: connections held across provider calls", "service": "payments"},
    )  # fmt: skip
    parent2 = await bot.sandbox.wait_for_message(
        "C2", lambda m: "past incident" in m.text and m.thread_ts in (None, m.ts)
    )
    first = await bot.sandbox.wait_for_message("C2", lambda m: m.thread_ts == parent2.ts and m.ts != parent2.ts)
    assert incident.incident_id in json.dumps(first.blocks)


async def test_resolving_again_is_a_no_op_and_the_declarers_different_content_is_a_revision(bot: LocalBot) -> None:
    await declare(bot)
    await resolve(bot, RESOLUTION)
    await bot.sandbox.wait_for_message("C1", lambda m: "held a connection" in json.dumps(m.blocks or []))
    again = await resolve(bot, RESOLUTION)
    assert again.body == ""
    await bot.sandbox.wait_for(
        lambda c: c.method == "chat.postEphemeral" and "nothing changed" in c.params.get("text", "")
    )

    # the declarer resolves again with other content: a revision supersedes the first, which is
    # kept (others get a correction offered instead: tests/test_closing_authority_e2e.py)
    different = await resolve(bot, {**RESOLUTION, "root_cause": "a slow disk on the primary"})
    assert different.body == ""
    incident = await bot.runtime.services.incidents.latest_in(bot.sandbox.team_id, "C1")
    stored = await bot.runtime.services.memory.get(bot.sandbox.team_id, incident.incident_id)
    assert stored.root_cause == RESOLUTION["root_cause"] and stored.superseded_by == f"{incident.incident_id}~r2"
    revision = await bot.runtime.services.memory.get(bot.sandbox.team_id, stored.superseded_by)
    assert revision.root_cause == "a slow disk on the primary"


async def test_invalid_resolution_shows_errors_inline(bot: LocalBot) -> None:
    await declare(bot)
    answer = await resolve(bot, {"root_cause": "", "resolution": "fixed it", "failed_1_action": "restart"})
    assert answer.body["response_action"] == "errors"
    assert set(answer.body["errors"]) >= {"root_cause", "failed_1_why"}


async def test_forged_or_stale_requests_get_401_and_store_nothing(bot: LocalBot) -> None:
    from bot.sandbox.signing import Signing

    for signing in (Signing.forged(), Signing.stale()):
        response = await bot.slack.command("/incident", "declare", user_id="U1", channel_id="C1", signing=signing)
        assert response.status == 401
        event = await bot.slack.say("C1", "forged message", user="U1", signing=signing)
        assert event.status == 401
    await bot.runtime.settle()
    assert bot.sandbox.calls("views.open") == []
    assert await bot.runtime.services.incidents.latest_in(bot.sandbox.team_id, "C1") is None


async def test_a_retried_or_repeated_event_is_stored_and_answered_once(bot: LocalBot) -> None:
    from bot.sandbox.signed import message_event

    bot.sandbox.add_message("C1", "checkout is failing with database timeouts", user="U1")
    ts = bot.sandbox.messages("C1")[-1].ts
    event = message_event("C1", "checkout is failing with database timeouts", user="U1", ts=ts)
    for retry in (None, 1, 2):
        assert (await bot.slack.event(event, event_id="Ev1", retry_num=retry)).status == 200
    await bot.runtime.settle()
    parents = [m for m in bot.sandbox.messages("C1") if "past incident" in m.text and m.thread_ts in (None, m.ts)]
    assert len(parents) == 1  # the inc- channel opened one incident and recalled once
    incident = await bot.runtime.services.incidents.open_in(bot.sandbox.team_id, "C1")
    timeline = await bot.runtime.services.incidents.timeline(incident)
    assert [e.text for e in timeline] == ["checkout is failing with database timeouts"]


async def test_a_rate_limited_post_arrives_exactly_once(bot: LocalBot) -> None:
    bot.sandbox.rate_limit_next("chat.postMessage", retry_after=1)
    await declare(bot)
    parent = await bot.sandbox.wait_for_message(
        "C1", lambda m: "past incident" in m.text and m.thread_ts in (None, m.ts)
    )
    await bot.runtime.settle()
    statuses = [c.status for c in bot.sandbox.calls("chat.postMessage")]
    assert statuses[0] == 429 and statuses.count(429) == 1
    assert [m.ts for m in bot.sandbox.messages("C1") if m.thread_ts in (None, m.ts)] == [parent.ts]


async def test_acks_come_back_while_slack_is_stalled_and_nothing_is_lost(bot: LocalBot) -> None:
    held = bot.sandbox.hold("conversations.info")  # the declare needs the channel's name and privacy
    await bot.slack.command("/incident", "declare", user_id="U1", channel_id="C1")
    await bot.sandbox.wait_for("views.open")
    view = bot.sandbox.last_view()
    answer = await bot.slack.view_submission(view, user_id="U1", answers={"title": "Checkout errors at peak"})
    # acknowledged while Slack still holds the call: the modal says it is saving, text kept
    assert held.waiting and answer.body["response_action"] == "update"
    assert "Still saving" in json.dumps(answer.body["view"]) and "Checkout errors at peak" in json.dumps(
        answer.body["view"]
    )
    held.release()
    await bot.sandbox.wait_for("views.update")
    await bot.sandbox.wait_for_message("C1", lambda m: "past incident" in m.text)
    incident = await bot.runtime.services.incidents.open_in(bot.sandbox.team_id, "C1")
    assert incident.title == "Checkout errors at peak"


async def test_acks_come_back_while_the_database_is_stalled(bot: LocalBot, database_url: str) -> None:
    import asyncpg

    blocker = await asyncpg.connect(database_url)
    transaction = blocker.transaction()
    await transaction.start()
    await blocker.execute("LOCK TABLE incidents IN ACCESS EXCLUSIVE MODE")
    try:
        said = await bot.slack.say("C1", "checkout is down", user="U1")
        resolved = await bot.slack.command("/incident", "resolve", user_id="U1", channel_id="C1")
        await bot.sandbox.wait_for("views.open")  # the modal opened though the lookup could not answer
        declared = await bot.slack.command("/incident", "declare", user_id="U1", channel_id="C1")
        await bot.sandbox.wait_for("views.open", count=2)
        submitted = await bot.slack.view_submission(
            bot.sandbox.last_view(), user_id="U1", answers={"title": "Checkout down"}
        )
        # every request was answered while the lock was still held
        assert (said.status, resolved.status, declared.status, submitted.status) == (200, 200, 200, 200)
        assert submitted.body["response_action"] == "update"
        assert await blocker.fetchval("SELECT count(*) FROM incidents") == 0
    finally:
        await transaction.rollback()
        await blocker.close()
    await bot.runtime.settle()
    incident = await bot.runtime.services.incidents.open_in(bot.sandbox.team_id, "C1")
    assert incident is not None


async def test_storage_failure_keeps_the_modal_open_with_every_typed_value(bot: LocalBot, database_url: str) -> None:
    import asyncpg

    await declare(bot)
    conn = await asyncpg.connect(database_url)
    try:  # the memory bank refuses writes: a broken disk, a full database...
        await conn.execute("ALTER TABLE memories ADD CONSTRAINT refuse_all CHECK (false) NOT VALID")
        answer = await resolve(bot, RESOLUTION)
    finally:
        await conn.execute("ALTER TABLE memories DROP CONSTRAINT refuse_all")
        await conn.close()
    assert answer.body["response_action"] == "update"
    kept = json.dumps(answer.body["view"])
    assert "Nothing was saved" in kept
    for value in RESOLUTION.values():
        assert value in kept


async def test_a_hostile_oversized_memory_posts_within_limits_and_pings_no_one(bot: LocalBot) -> None:
    hostile = {
        **SEED,
        "incident_id": "INC-LOUD",
        "title": "<!channel> checkout database pool exhausted <@U123> <!here>",
        "root_cause": ("<!channel> " + "x" * 2980)[:3000],
        "resolution": "<@U123> " + "y" * 2990,
        "failed_attempts": [
            {"action": f"<!here> attempt {i} " + "a" * 900, "why_it_failed": "<@U123> " + "w" * 2000}
            for i in range(100)
        ],
    }
    await bot.runtime.services.memory.retain(draft_from_json(hostile, team_id=bot.sandbox.team_id))
    await declare(bot)
    await bot.runtime.settle()
    posted = [c for c in bot.sandbox.calls("chat.postMessage")]
    assert posted and all(c.ok for c in posted)  # the sandbox enforces Slack's limits: nothing refused
    for call in posted:
        text = json.dumps(call.params)
        assert "<!channel>" not in text and "<!here>" not in text and "<@U123>" not in text
    [reply] = [c for c in posted if '"value": "INC-LOUD"' in json.dumps(c.params)]
    shown = json.dumps(reply.params)
    assert "&lt;!channel&gt; checkout database pool exhausted &lt;@U123&gt;" in shown
    assert "truncated" in shown and "/incident show INC-LOUD" in shown


async def test_joining_an_incident_channel_opens_it_from_name_topic_and_purpose_and_recalls_once(bot: LocalBot) -> None:
    from bot.sandbox import member_joined_channel_event

    bot.sandbox.add_channel(
        "C9", "inc-payments-db", topic="Checkout database pool exhausted", purpose="payments outage"
    )
    bot.sandbox.add_channel("C10", "random")
    joined = member_joined_channel_event("C9", user=bot.sandbox.bot_user_id)
    for event_id in ("EvJoin1", "EvJoin2"):  # a repeated join must not post a second thread
        assert (await bot.slack.event(joined, event_id=event_id)).status == 200
    await bot.slack.event(member_joined_channel_event("C10", user=bot.sandbox.bot_user_id), event_id="EvJoin3")
    await bot.slack.event(member_joined_channel_event("C9", user="U1"), event_id="EvJoin4")  # a person joining
    await bot.runtime.settle()
    incident = await bot.runtime.services.incidents.open_in(bot.sandbox.team_id, "C9")
    assert incident.title == "Checkout database pool exhausted" and "payments outage" in incident.symptoms
    parents = [m for m in bot.sandbox.messages("C9") if "past incident" in m.text and m.thread_ts in (None, m.ts)]
    assert len(parents) == 1 and parents[0].text.startswith("1 past incident")
    assert bot.sandbox.messages("C10") == []
    assert await bot.runtime.services.incidents.open_in(bot.sandbox.team_id, "C10") is None


async def test_recall_on_free_text_show_help_and_reject(bot: LocalBot) -> None:
    guess = {**SEED, "incident_id": "INC-GUESS", "title": "Checkout slow: maybe the batch job", "root_cause": "the nightly batch",
             "truth_state": "unconfirmed_hypothesis", "verified_by": None, "failed_attempts": []}  # fmt: skip
    await bot.runtime.services.memory.retain(draft_from_json(guess, team_id=bot.sandbox.team_id))
    bot.sandbox.add_channel("C5", "general")

    await bot.slack.command("/recall", "checkout connection pool exhausted", user_id="U1", channel_id="C5")
    first = await bot.sandbox.wait_for("response_url")
    assert first.params["text"].startswith("2 past incidents look like this one")
    await bot.sandbox.wait_for("response_url", count=3)  # the parent and one message per memory, to this user only
    assert bot.sandbox.messages("C5") == []

    help_ = await bot.slack.command("/incident", "help", user_id="U1", channel_id="C5")
    assert "/incident resolve" in json.dumps(help_.body)
    await bot.slack.command("/incident", "show INC-OLD-1", user_id="U1", channel_id="C5")
    shown = await bot.sandbox.wait_for(
        lambda c: (
            c.method == "response_url" and "INC-OLD-1" in json.dumps(c.params) and "Root cause" in json.dumps(c.params)
        )
    )
    assert "bought 25 minutes" in json.dumps(shown.params)

    # Reject is offered on the unconfirmed guess only, and asks for a reason
    replies = [c for c in bot.sandbox.calls("response_url") if '"value": "INC-GUESS"' in json.dumps(c.params)]
    assert replies and "memory_reject" in json.dumps(replies[0].params)
    await bot.slack.block_action(
        "memory_reject", user_id="U1", message={**replies[0].params, "ts": "1.000001"}, channel_id="C5"
    )
    await bot.sandbox.wait_for("views.open")
    no_reason = await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers={"reason": ""})
    assert no_reason.body["response_action"] == "errors" and "reason" in no_reason.body["errors"]
    # alice is no admin, no reviewer, and nobody declared an imported memory: refused, saying who can
    refused = await bot.slack.view_submission(
        bot.sandbox.last_view(), user_id="U1", answers={"reason": "the batch runs at 3am, not at peak"}
    )
    assert refused.body["errors"]["reason"] == "Only a workspace admin can reject a memory."
    assert (
        await bot.runtime.services.memory.get(bot.sandbox.team_id, "INC-GUESS")
    ).truth_state.value == "unconfirmed_hypothesis"
    bot.sandbox.add_user("UADMIN", "ops-admin", is_admin=True)
    await bot.slack.view_submission(
        bot.sandbox.last_view(), user_id="UADMIN", answers={"reason": "the batch runs at 3am, not at peak"}
    )
    rejected = await bot.runtime.services.memory.get(bot.sandbox.team_id, "INC-GUESS")
    assert (
        rejected.truth_state.value == "rejected"
        and rejected.transitions[-1].reason == "the batch runs at 3am, not at peak"
    )
    assert (rejected.transitions[-1].actor, rejected.transitions[-1].actor_name) == ("UADMIN", "ops-admin")
    await bot.slack.command("/recall", "checkout connection pool exhausted", user_id="U1", channel_id="C5")
    again = await bot.sandbox.wait_for("response_url", count=5)
    assert again.params["text"].startswith("1 past incident looks like this one")  # rejected never comes back


async def test_declaring_where_slack_refuses_the_channel_keeps_the_modal_and_its_text(bot: LocalBot) -> None:
    bot.sandbox.fail_next("conversations.info", error="channel_not_found")
    await bot.slack.command("/incident", "declare", user_id="U1", channel_id="C1")
    await bot.sandbox.wait_for("views.open")
    answer = await bot.slack.view_submission(
        bot.sandbox.last_view(), user_id="U1", answers={"title": "Checkout down again"}
    )
    shown = json.dumps(await settle(bot, answer))
    assert "Nothing was saved" in shown and "channel_not_found" in shown and "Checkout down again" in shown


async def test_chatter_in_an_ordinary_channel_does_not_ask_slack_about_it_every_time(bot: LocalBot) -> None:
    bot.sandbox.add_channel("CGEN", "general")
    for i in range(5):
        await bot.slack.say("CGEN", f"lunch? {i}", user="U1")
    await bot.runtime.settle()
    assert len(bot.sandbox.calls("conversations.info")) == 1
    assert await bot.runtime.services.incidents.latest_in(bot.sandbox.team_id, "CGEN") is None
    assert bot.sandbox.messages("CGEN")[-1].text == "lunch? 4"  # the bot said nothing


async def test_declaring_in_a_channel_the_bot_is_not_in_asks_to_invite_it_and_keeps_the_text(bot: LocalBot) -> None:
    bot.sandbox.add_channel("COUT", "inc-elsewhere", is_member=False)
    await bot.slack.command("/incident", "declare", user_id="U1", channel_id="COUT")
    await bot.sandbox.wait_for("views.open")
    answer = await bot.slack.view_submission(bot.sandbox.last_view(), user_id="U1", answers={"title": "Search is down"})
    shown = json.dumps(await settle(bot, answer))
    assert "/invite @incident-memory" in shown and "Search is down" in shown
    assert await bot.runtime.services.incidents.open_in(bot.sandbox.team_id, "COUT") is None
