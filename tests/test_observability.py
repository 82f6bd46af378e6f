"""Observability: /metrics counters move end to end, log lines carry the request context and no
secret or message body, and a Fly machine without DATABASE_URL refuses to start. The redaction
filter: test_log_redaction.py."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.config import Settings
from bot.errors import MemoryConflict, StoreUnavailable
from bot.investigation import AnthropicInvestigator, OfflineInvestigator
from bot.models import IncidentRecord
from bot.observability import Metrics, bind, current_context, redact, request_scope
from bot.observability.logs import JsonFormatter, RedactingFilter, make_handler
from bot.observability.store import count_store_errors
from bot.observability.web import envelope_of
from bot.sandbox.local_bot import LocalBot, local_bot
from bot.sandbox.signed import message_event
from bot.services.investigation import InvestigationService
from tests.fakes.anthropic_api import FakeMessagesAPI, Status, ToolAnswer

CHANNEL = "C1"
BODY = "checkout is failing with database timeouts, card 4242 declined"  # must never reach a log line

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(bot: LocalBot) -> Samples:
    """GET /metrics over HTTP, as Prometheus would, parsed into {(sample, labels): value}."""
    url = bot.events_url.replace("/slack/events", "/metrics")
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200
        assert response.content_type == "text/plain"
        text = await response.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@asynccontextmanager
async def start(settings: Settings) -> AsyncIterator[LocalBot]:
    async with local_bot(settings) as running:
        running.sandbox.add_user("U1", "alice")
        running.sandbox.add_channel(CHANNEL, "inc-checkout-timeouts")
        yield running


@pytest.fixture
async def bot(database_url: str) -> AsyncIterator[LocalBot]:
    async with start(Settings(database_url=database_url)) as running:
        yield running


@contextmanager
def json_logs(level: int) -> Iterator[io.StringIO]:
    """Every log line at `level` and above, as `serve` would write it (JSON); the root logger as it was after."""
    stream = io.StringIO()
    handler = make_handler("json", stream)
    root = logging.getLogger()
    was = root.level
    root.addHandler(handler)
    root.setLevel(level)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(was)


@pytest.fixture
def captured_logs() -> Iterator[io.StringIO]:
    """Every log line at INFO and above, as `serve` would write it."""
    with json_logs(logging.INFO) as stream:
        yield stream


# ---- /metrics, end to end ----------------------------------------------------------------------


async def test_metrics_is_served_in_prometheus_format_with_every_metric(bot: LocalBot) -> None:
    url = bot.events_url.replace("/slack/events", "/metrics")
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        text = await response.text()
    names = {family.name for family in text_string_to_metric_families(text)}
    for expected in (
        "incident_memory_events_received", "incident_memory_events_deduplicated", "incident_memory_ack_latency_seconds",
        "incident_memory_gate_refused",
        "incident_memory_recall_latency_seconds", "incident_memory_investigation_latency_seconds",
        "incident_memory_investigation_fallbacks", "incident_memory_model_tokens", "incident_memory_slack_api_errors",
        "incident_memory_slack_api_rate_limited", "incident_memory_store_errors",
    ):  # fmt: skip
        assert expected in names, expected


async def test_a_repeated_event_is_received_twice_and_deduplicated_once(bot: LocalBot) -> None:
    bot.sandbox.add_message(CHANNEL, BODY, user="U1")
    event = message_event(CHANNEL, BODY, user="U1", ts=bot.sandbox.messages(CHANNEL)[-1].ts)
    assert (await bot.slack.event(event, event_id="EvSAME")).status == 200
    await bot.runtime.settle()
    assert (await bot.slack.event(event, event_id="EvSAME", retry_num=1)).status == 200
    await bot.runtime.settle()

    samples = await scrape(bot)
    assert value(samples, "incident_memory_events_received_total", type="event_callback", event="message") == 2
    assert value(samples, "incident_memory_events_deduplicated_total") == 1
    assert value(samples, "incident_memory_ack_latency_seconds_count", type="event_callback") == 2
    assert 0 < value(samples, "incident_memory_ack_latency_seconds_sum", type="event_callback") < 3
    # the incident the channel opened was recalled for once
    assert value(samples, "incident_memory_recall_latency_seconds_count", kind="incident") == 1


async def test_a_recall_command_is_timed(bot: LocalBot) -> None:
    response = await bot.slack.command("/recall", "checkout timeouts", user_id="U1", channel_id=CHANNEL)
    assert response.status == 200
    await bot.runtime.settle()

    samples = await scrape(bot)
    assert value(samples, "incident_memory_events_received_total", type="slash_command", event="/recall") == 1
    assert value(samples, "incident_memory_recall_latency_seconds_count", kind="text") == 1
    assert value(samples, "incident_memory_recall_latency_seconds_count", kind="incident") == 0


async def test_a_rate_limited_post_is_counted_and_still_arrives_once(bot: LocalBot) -> None:
    bot.sandbox.rate_limit_next("chat.postMessage", retry_after=1)
    await bot.slack.say(CHANNEL, BODY, user="U1")  # opens the incident: its recall thread is posted
    await bot.runtime.settle()

    parents = [m for m in bot.sandbox.messages(CHANNEL) if " like this" in m.text and m.thread_ts in (None, m.ts)]
    assert len(parents) == 1
    samples = await scrape(bot)
    assert value(samples, "incident_memory_slack_api_rate_limited_total", method="chat.postMessage") >= 1
    assert value(samples, "incident_memory_slack_api_errors_total", method="chat.postMessage", error="ratelimited") == 0


async def test_a_refused_slack_call_is_counted_by_method_and_error(bot: LocalBot) -> None:
    bot.sandbox.fail_next("chat.postMessage", "channel_not_found")
    await bot.slack.say(CHANNEL, BODY, user="U1")
    await bot.runtime.settle()

    samples = await scrape(bot)
    assert (
        value(samples, "incident_memory_slack_api_errors_total", method="chat.postMessage", error="channel_not_found")
        == 1
    )


async def test_forged_requests_are_not_counted(bot: LocalBot) -> None:
    from bot.sandbox.signing import Signing

    event = message_event(CHANNEL, BODY, user="U1")
    assert (await bot.slack.event(event, signing=Signing.forged())).status == 401
    samples = await scrape(bot)
    assert value(samples, "incident_memory_events_received_total", type="event_callback", event="message") == 0


async def test_an_investigation_by_the_model_is_timed_and_its_tokens_counted(database_url: str) -> None:
    async with FakeMessagesAPI() as api:
        api.script(
            ToolAnswer(
                {
                    "happening_now": [
                        {"statement": "Checkout requests fail with database timeouts.", "evidence": ["title"]}
                    ]
                },
                input_tokens=1200,
                output_tokens=300,
            )
        )
        settings = Settings(
            database_url=database_url, anthropic_api_key="sk-ant-test-0000", anthropic_base_url=api.base_url
        )
        async with start(settings) as bot:
            await bot.slack.say(CHANNEL, BODY, user="U1")
            await bot.runtime.settle()
            assert (await bot.slack.command("/investigate", user_id="U1", channel_id=CHANNEL)).status == 200
            await bot.runtime.settle()

            samples = await scrape(bot)
            model = settings.anthropic_model
            assert value(samples, "incident_memory_investigation_latency_seconds_count", investigator="anthropic") == 1
            assert value(samples, "incident_memory_model_tokens_total", model=model, direction="input") == 1200
            assert value(samples, "incident_memory_model_tokens_total", model=model, direction="output") == 300
            assert not [k for k in samples if k[0] == "incident_memory_investigation_fallbacks_total"]


# ---- services and stores, without Slack --------------------------------------------------------


def record(**fields: object) -> IncidentRecord:
    from bot.models import utcnow

    defaults: dict[str, object] = dict(
        incident_id="INC-LOCAL-1", team="T1", channel="C1", title="Checkout errors", status="open",
        started_at=utcnow(), is_private=False,
    )  # fmt: skip
    return IncidentRecord.model_validate({**defaults, **fields})


async def test_model_fallbacks_are_counted_by_reason() -> None:
    metrics = Metrics()
    async with FakeMessagesAPI() as api:
        api.script(*(Status(529) for _ in range(3)))
        investigator = AnthropicInvestigator(api_key="sk-ant-test-0000", base_url=api.base_url, timeout_s=5)
        service = InvestigationService(investigator, metrics=metrics)
        try:
            overloaded = await service.investigate(record(), [], [])
            private = await service.investigate(record(is_private=True), [], [])
        finally:
            await investigator.aclose()
    assert overloaded.investigator.value == private.investigator.value == "offline"
    fallbacks = metrics.investigation_fallbacks
    assert fallbacks.labels(reason="overloaded")._value.get() == 1
    assert fallbacks.labels(reason="privacy")._value.get() == 1
    assert metrics.investigation_latency.labels(investigator="offline")._sum.get() > 0


async def test_the_offline_investigator_is_not_a_fallback() -> None:
    metrics = Metrics()
    await InvestigationService(OfflineInvestigator(), metrics=metrics).investigate(record(), [], [])
    families = {s.name for f in metrics.registry.collect() for s in f.samples}
    assert "incident_memory_investigation_fallbacks_total" not in families
    assert "incident_memory_investigation_latency_seconds_count" in families


async def test_a_fallback_is_counted_by_its_structured_reason_not_its_wording() -> None:
    from bot.investigation import FallbackReason, Investigation, InvestigatorKind

    class Reworded:
        """An investigator whose fallback note says nothing a phrase list would know."""

        async def investigate(self, *args: object, **kwargs: object) -> Investigation:
            return Investigation(
                current_summary="", investigator=InvestigatorKind.OFFLINE,
                note="Le modèle n'a pas répondu à temps.", fallback_reason=FallbackReason.TIMEOUT,
            )  # fmt: skip

        async def aclose(self) -> None:
            return None

    metrics = Metrics()
    await InvestigationService(Reworded(), metrics=metrics).investigate(record(), [], [])
    assert metrics.investigation_fallbacks.labels(reason="timeout")._value.get() == 1


async def test_store_errors_are_counted_but_conflicts_are_answers() -> None:
    class Store:
        async def get(self, team_id: str, incident_id: str) -> None:
            raise StoreUnavailable("the database does not answer")

        async def retain(self, draft: object) -> None:
            raise MemoryConflict("INC-1", ["root_cause"])

        async def ping(self) -> bool:
            return True

    metrics = Metrics()
    store = count_store_errors(Store(), metrics, name="memory")
    with pytest.raises(StoreUnavailable):
        await store.get("T1", "INC-1")
    with pytest.raises(MemoryConflict):
        await store.retain(object())
    assert await store.ping() is True
    assert metrics.store_errors.labels(store="memory", operation="get")._value.get() == 1
    assert metrics.store_errors.labels(store="memory", operation="retain")._value.get() == 0


def test_each_app_has_its_own_registry() -> None:
    first, second = Metrics(), Metrics()
    first.events_deduplicated.inc()
    assert second.events_deduplicated._value.get() == 0


def test_the_envelope_is_read_without_the_content() -> None:
    event = json.dumps(
        {"type": "event_callback", "team_id": "T9", "event_id": "Ev1", "event": message_event("C7", BODY, user="U1")}
    )
    assert envelope_of(event.encode(), "application/json") == envelope_of(event.encode(), "application/json")
    parsed = envelope_of(event.encode(), "application/json")
    assert (parsed.type, parsed.event, parsed.team, parsed.channel, parsed.event_id) == (
        "event_callback",
        "message",
        "T9",
        "C7",
        "Ev1",
    )
    command = b"command=%2Frecall&team_id=T9&channel_id=C7&user_id=U1&text=secret+stuff"
    parsed = envelope_of(command, "application/x-www-form-urlencoded")
    assert (parsed.type, parsed.event, parsed.team, parsed.channel) == ("slash_command", "/recall", "T9", "C7")
    payload = b"payload=" + json.dumps(
        {"type": "block_actions", "team": {"id": "T9"}, "channel": {"id": "C7"}, "user": {"id": "U1"},
         "actions": [{"action_id": "memory_helpful"}]}
    ).encode()  # fmt: skip
    parsed = envelope_of(payload, "application/x-www-form-urlencoded")
    assert (parsed.type, parsed.team, parsed.channel) == ("block_actions", "T9", "C7")
    # junk, or label values that would blow up the metric's cardinality
    assert envelope_of(b"{not json", "application/json").type == "unknown"
    weird = json.dumps({"type": "x" * 500, "event": {"type": "a b\nc"}}).encode()
    assert (envelope_of(weird, "application/json").type, envelope_of(weird, "application/json").event) == (
        "other",
        "other",
    )


# ---- logs ---------------------------------------------------------------------------------------


async def test_the_log_line_of_a_handled_request_has_its_context_and_no_secret_or_body(
    bot: LocalBot, captured_logs: io.StringIO
) -> None:
    await bot.slack.say(CHANNEL, BODY, user="U1")
    await bot.runtime.settle()

    lines = [json.loads(line) for line in captured_logs.getvalue().splitlines()]
    handled = [line for line in lines if line["logger"] == "bot.requests"]
    assert len(handled) == 1
    line = handled[0]
    assert {"time", "level", "logger", "message"} <= set(line)
    assert line["level"] == "INFO" and line["status"] == 200
    assert line["team"] == bot.sandbox.team_id and line["channel"] == CHANNEL
    assert line["type"] == "event_callback" and line["event"] == "message"
    assert len(line["request_id"]) >= 8
    assert isinstance(line["latency_ms"], float) and 0 < line["latency_ms"] < 3000

    everything = captured_logs.getvalue()
    settings = bot.runtime.services.settings
    assert settings.slack_signing_secret and settings.slack_signing_secret not in everything
    assert settings.slack_bot_token and settings.slack_bot_token not in everything
    assert BODY not in everything and "4242" not in everything
    assert "X-Slack-Signature" not in everything and "v0=" not in everything


async def test_background_work_logs_with_the_request_it_came_from(bot: LocalBot, captured_logs: io.StringIO) -> None:
    seen: list[dict[str, object]] = []

    async def work() -> None:
        await asyncio.sleep(0)
        bind(incident="INC-9")
        seen.append(dict(current_context()))
        logging.getLogger("bot.test").info("background step")

    with request_scope(request_id="req-1", team="T1", channel="C1"):
        bot.runtime.services.background.spawn(work(), name="test")
    assert current_context() == {}
    await bot.runtime.settle()
    assert seen == [{"request_id": "req-1", "team": "T1", "channel": "C1", "incident": "INC-9"}]
    line = json.loads(captured_logs.getvalue().splitlines()[-1])
    assert (line["request_id"], line["team"], line["channel"], line["incident"]) == ("req-1", "T1", "C1", "INC-9")


# ---- settings ----------------------------------------------------------------------------------


def test_log_settings_are_case_insensitive_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOG_FORMAT", "TEXT")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    settings = Settings()
    assert (settings.log_format, settings.log_level) == ("text", "DEBUG")
    assert (Settings.model_fields["log_format"].default, Settings.model_fields["log_level"].default) == ("json", "INFO")
    monkeypatch.setenv("LOG_FORMAT", "xml")
    with pytest.raises(ValueError):
        Settings()


async def test_a_fly_machine_without_database_url_refuses_to_serve() -> None:
    from bot.app import open_services
    from bot.memory.database import DatabaseNotConfigured, database_url

    settings = Settings(fly_app_name="incident-memory-test", database_url=None)
    with pytest.raises(DatabaseNotConfigured, match="DATABASE_URL is not set"):
        await database_url(settings)
    with pytest.raises(DatabaseNotConfigured):
        async with open_services(settings):
            pass


def test_a_fly_machine_without_database_url_refuses_to_migrate(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    from bot.cli import main

    monkeypatch.setenv("FLY_APP_NAME", "incident-memory-test")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("INCIDENT_MEMORY_DATA_DIR", str(tmp_path))  # never touched: it refuses first
    assert main(["migrate"]) == 1
    error = capsys.readouterr().err
    assert "DATABASE_URL is not set" in error and "incident-memory-test" in error


async def test_serve_logs_json_and_serves_metrics_and_health_on_port(database_url: str) -> None:
    import socket

    from bot.app import serve
    from bot.sandbox.slack_api import SlackSandbox

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    async with SlackSandbox() as sandbox:
        settings = Settings(
            database_url=database_url, port=port, slack_bot_token=sandbox.token, slack_api_url=sandbox.base_url,
            slack_signing_secret="s" * 32, log_format="json", log_level="INFO",
        )  # fmt: skip
        task = asyncio.create_task(serve(settings))
        try:
            async with aiohttp.ClientSession() as session:
                for _ in range(100):
                    try:
                        async with session.get(f"http://127.0.0.1:{port}/healthz") as health:
                            assert health.status == 200 and (await health.json())["ok"] is True
                            break
                    except aiohttp.ClientConnectionError:
                        await asyncio.sleep(0.05)
                else:
                    pytest.fail("serve did not listen on PORT")
                async with session.get(f"http://127.0.0.1:{port}/metrics") as metrics:
                    assert "incident_memory_events_received" in await metrics.text()
            handler = logging.getLogger().handlers[0]
            assert isinstance(handler.formatter, JsonFormatter)
            assert any(isinstance(f, RedactingFilter) for f in handler.filters)
            assert redact("s" * 32) == "[redacted]"  # the signing secret is masked from now on
        finally:
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            for handler in list(root.handlers):
                root.removeHandler(handler)
            for handler in saved[0]:
                root.addHandler(handler)
            root.setLevel(saved[1])


async def test_metrics_token_keeps_metrics_for_the_scraper_only(database_url: str) -> None:
    import aiohttp

    from bot.config import Settings
    from bot.sandbox.local_bot import local_bot

    async with local_bot(Settings(database_url=database_url, metrics_token="scrape-me")) as bot:
        metrics_url = bot.events_url.replace("/slack/events", "/metrics")
        async with aiohttp.ClientSession() as http:
            async with http.get(metrics_url) as response:
                assert response.status == 401
            async with http.get(metrics_url, headers={"Authorization": "Bearer wrong"}) as response:
                assert response.status == 401
            async with http.get(metrics_url, headers={"Authorization": "Bearer scrape-me"}) as response:
                assert response.status == 200 and "incident_memory_events_received_total" in await response.text()
