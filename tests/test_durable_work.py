"""Nothing acknowledged is lost: a database that goes away, Slack answering 500 or 429, a deploy
in the middle of an investigation. The real app over HTTP, the database behind a proxy the test
can cut, Slack's Web API from the sandbox."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.memory.files import draft_from_json
from bot.sandbox import SlackSandbox
from bot.sandbox.local_bot import LocalBot, local_bot
from bot.sandbox.signed import message_event
from bot.sandbox.tcp_proxy import TcpProxy
from tests.fakes.anthropic_api import Delay, FakeMessagesAPI, ToolAnswer
from tests.test_slack_e2e import SEED, declare
from tests.test_slack_investigation import ANSWER

# the proxy must reach the embedded PostgreSQL's Unix socket too (the README's test command on a laptop)
pytestmark = pytest.mark.embedded


@pytest.fixture
async def proxy(database_url: str) -> AsyncIterator[TcpProxy]:
    async with TcpProxy.for_dsn(database_url) as running:
        yield running


# A job whose outcome was lost with the database runs again once its heartbeat is stale, and a failed
# one after its backoff: the same paths as the defaults (30 s, 1 s doubling), on a shorter clock.
QUICK_JOBS = {"job_heartbeat_timeout_s": 5.0, "job_retry_base_s": 0.1}


@pytest.fixture
async def bot(database_url: str, proxy: TcpProxy) -> AsyncIterator[LocalBot]:
    async with local_bot(Settings(database_url=proxy.dsn_through(database_url), **QUICK_JOBS)) as running:
        running.sandbox.add_user("U1", "alice")
        running.sandbox.add_channel("C1", "inc-checkout-timeouts")
        await running.runtime.services.memory.retain(draft_from_json(SEED, team_id=running.sandbox.team_id))
        yield running


def parents(bot: LocalBot) -> list:  # noqa: ANN201
    return [m for m in bot.sandbox.messages("C1") if "past incident" in m.text and m.thread_ts in (None, m.ts)]


async def timeline_texts(bot: LocalBot) -> list[str]:
    services = bot.runtime.services
    incident = await services.incidents.latest_in(bot.sandbox.team_id, "C1")
    assert incident is not None
    return [entry.text for entry in await services.incidents.timeline(incident)]


async def test_a_message_sent_while_the_database_is_down_reaches_the_timeline_through_slack_s_retry(
    bot: LocalBot, proxy: TcpProxy
) -> None:
    await declare(bot)
    bot.sandbox.add_message("C1", "pool at 100/100 since the 11:55 deploy", user="U1")
    event = message_event(
        "C1", "pool at 100/100 since the 11:55 deploy", user="U1", ts=bot.sandbox.messages("C1")[-1].ts
    )
    proxy.cut()
    refused = await bot.slack.event(event, event_id="EvDOWN")
    assert refused.status == 503  # not acknowledged: Slack will send it again
    proxy.restore()
    accepted = await bot.slack.event(event, event_id="EvDOWN", retry_num=1, retry_reason="http_error")
    assert accepted.status == 200
    await bot.runtime.settle()
    assert (await timeline_texts(bot)).count("pool at 100/100 since the 11:55 deploy") == 1


async def test_a_command_while_the_database_is_down_is_answered_at_once_with_why(
    bot: LocalBot, proxy: TcpProxy
) -> None:
    proxy.cut()
    response = await bot.slack.command("/recall", "connection pool exhausted", user_id="U1", channel_id="C1")
    proxy.restore()
    assert response.status == 200
    assert "not answering" in json.dumps(response.body)  # the user is told, not left waiting


async def test_a_500_on_the_thread_s_first_post_is_retried_and_the_thread_posted_once(bot: LocalBot) -> None:
    bot.sandbox.fail_next("chat.postMessage", "internal_error", status=500)
    await declare(bot)
    await bot.runtime.settle()
    assert bot.sandbox.calls("chat.postMessage")[0].status == 500  # the fault did happen
    assert len(parents(bot)) == 1
    assert any("Payments API 5xx" in m.text for m in bot.sandbox.thread("C1", parents(bot)[0].ts))


async def test_more_429s_than_the_client_retries_still_post_the_thread_once(bot: LocalBot) -> None:
    bot.sandbox.rate_limit_next("chat.postMessage", retry_after=0, times=6)
    await declare(bot)
    await bot.runtime.settle()
    # six refusals in a row: more than the client's own retries, so the job's retry posted it
    assert [c.status for c in bot.sandbox.calls("chat.postMessage")[:6]] == [429] * 6
    assert len(parents(bot)) == 1


async def test_a_post_that_stalls_past_the_timeout_but_that_slack_makes_anyway_is_not_posted_again(
    database_url: str,
) -> None:
    async with local_bot(Settings(database_url=database_url, slack_timeout_s=0.5)) as bot:
        bot.sandbox.add_user("U1", "alice")
        bot.sandbox.add_channel("C1", "inc-checkout-timeouts")
        await bot.runtime.services.memory.retain(draft_from_json(SEED, team_id=bot.sandbox.team_id))
        stalled = bot.sandbox.hold("chat.postMessage")
        await declare(bot)
        await stalled.arrived()  # the thread's first post hangs...

        async def gave_up_waiting() -> bool:  # ...past SLACK_TIMEOUT_S: the job's attempt failed
            exposition = bot.runtime.services.metrics.exposition()[0].decode()
            return 'incident_memory_jobs_total{kind="recall.thread",outcome="retried"}' in exposition

        for _ in range(100):
            if await gave_up_waiting():
                break
            await asyncio.sleep(0.05)
        assert await gave_up_waiting()
        stalled.release()  # ...and Slack posts it all the same, before the next attempt
        await bot.runtime.settle()
        assert len(parents(bot)) == 1
        assert any("Payments API 5xx" in m.text for m in bot.sandbox.thread("C1", parents(bot)[0].ts))


async def test_a_failed_update_is_retried_and_no_placeholder_is_left(bot: LocalBot) -> None:
    await declare(bot)
    bot.sandbox.fail_next("chat.update", "internal_error", status=500)
    assert (await bot.slack.command("/investigate", user_id="U1", channel_id="C1")).status == 200
    await bot.runtime.settle()
    updates = bot.sandbox.calls("chat.update")
    assert updates[0].status == 500 and updates[-1].ok  # failed once, then replaced
    texts = [m.text for m in bot.sandbox.messages("C1")]
    assert not [t for t in texts if t.startswith("Investigating")]
    assert sum(t.startswith("Investigation") for t in texts) == 1


async def test_an_investigation_cut_by_a_deploy_is_finished_by_the_next_instance(database_url: str) -> None:
    async with SlackSandbox() as sandbox, FakeMessagesAPI() as slow_model, FakeMessagesAPI() as model:
        sandbox.add_user("U1", "alice")
        sandbox.add_channel("C1", "inc-checkout-timeouts")
        slow_model.script(Delay(60, ToolAnswer(ANSWER)))
        model.script(ToolAnswer(ANSWER))
        settings = Settings(database_url=database_url, anthropic_api_key="k", shutdown_drain_s=0.2, **QUICK_JOBS)
        first_settings = settings.model_copy(update={"anthropic_base_url": slow_model.base_url})
        async with local_bot(first_settings, sandbox=sandbox, settle=False) as first:
            await first.runtime.services.memory.retain(draft_from_json(SEED, team_id=sandbox.team_id))
            await declare(first)
            assert (await first.slack.command("/investigate", user_id="U1", channel_id="C1")).status == 200
            await sandbox.wait_for(
                lambda c: c.method == "chat.postMessage" and "Investigating" in c.params.get("text", ""), timeout=15
            )
        # the deploy stopped the first instance mid-investigation: the placeholder still spins
        assert any(m.text.startswith("Investigating") for m in sandbox.messages("C1"))
        async with local_bot(
            settings.model_copy(update={"anthropic_base_url": model.base_url}), sandbox=sandbox
        ) as second:
            await second.runtime.settle(timeout=60)
        texts = [m.text for m in sandbox.messages("C1")]
        assert not [t for t in texts if t.startswith("Investigating")]
        assert sum(t.startswith("Investigation") for t in texts) == 1  # the same message, replaced


async def test_a_form_slack_cannot_open_in_time_is_offered_as_a_button_that_opens_it(bot: LocalBot) -> None:
    from bot.slack import ids

    bot.sandbox.rate_limit_next("views.open", retry_after=1)
    assert (await bot.slack.command("/incident", "declare", user_id="U1", channel_id="C1")).status == 200
    await bot.sandbox.wait_for("chat.postEphemeral", timeout=15)
    assert not bot.sandbox.views()  # the 429 was not waited out past the trigger's life
    [offer] = bot.sandbox.ephemerals(user="U1")
    button = offer.blocks[-1]["elements"][0]
    assert button["action_id"] == ids.OPEN_FORM
    clicked = await bot.slack.block_action(ids.OPEN_FORM, user_id="U1", channel_id="C1", value=button["value"])
    assert clicked.status == 200
    await bot.sandbox.wait_for("views.open", count=2)
    first, second = bot.sandbox.calls("views.open")
    assert first.error == "ratelimited" and second.ok
    assert second.params["view"]["callback_id"] == ids.DECLARE_MODAL  # the same form, opened by the click


def test_the_proxy_never_guesses_a_server_for_a_url_without_a_host() -> None:
    """127.0.0.1:5432 may be an unrelated server (or nothing): a URL naming neither a host nor a
    socket folder is refused; the embedded PostgreSQL's socket folder is proxied to."""
    with pytest.raises(ValueError, match="names no host"):
        TcpProxy.for_dsn("postgresql://postgres@/postgres")
    embedded = TcpProxy.for_dsn("postgresql://postgres:@/postgres?host=/tmp/x/pg")
    assert embedded.unix_socket == "/tmp/x/pg/.s.PGSQL.5432"
