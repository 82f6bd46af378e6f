"""The composition root: settings → database → stores → services → Slack app → HTTP server.

`Runtime` is used the same way by `incident-memory serve`, the demo and the tests, so what the
tests drive is what production runs.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot.alerts.routes import alert_routes
from bot.alerts.web import add_alert_receivers
from bot.background import BackgroundWork, to_the_end
from bot.config import ConfigurationError, Settings
from bot.drafting.build import build_drafter
from bot.embeddings import EmbeddingsMisconfigured, embedder_from_settings
from bot.handlers import all_jobs, register_all
from bot.handlers.lookups import SlackLookups
from bot.handlers.work_alerts import start_delivery
from bot.handlers.work_embed import embed_later
from bot.jobs import JobContext
from bot.jobs.processes import WorkerProcesses
from bot.jobs.queue import JobQueue
from bot.jobs.reading import ReadingPool
from bot.jobs.worker import JobWorker
from bot.memory.database import database_url, migrate
from bot.memory.drafts import PostgresDraftStore
from bot.memory.effects import PostgresEffects
from bot.memory.incidents import PostgresIncidentStore
from bot.memory.jobqueue import PostgresJobQueue
from bot.memory.message_changes import PostgresMessageChanges
from bot.memory.nudges import PostgresNudgeStore
from bot.memory.pool import create_pool
from bot.memory.postgres import PostgresMemoryStore
from bot.observability import Metrics, configure_logging
from bot.observability.metrics import metrics_across_processes
from bot.observability.slack import SlackApiObserver
from bot.observability.store import count_store_errors
from bot.observability.web import MAX_BODY, metrics_handler, slack_events_middleware, slack_gate_middleware
from bot.policy import Reviewers
from bot.recall.concepts import load_vocabulary
from bot.recall.pipeline import Recaller
from bot.services.access import Access
from bot.services.alerts import AlertService, alert_memory, fired_alerts
from bot.services.container import Services
from bot.services.drafting import DraftingService
from bot.services.housekeeping import run_housekeeping
from bot.services.incidents import IncidentService
from bot.services.investigation import InvestigationService
from bot.services.limits import WorkLimits
from bot.services.meaning import SemanticRecall
from bot.services.nudges import NudgeService
from bot.services.recall import RecallService
from bot.services.resolution import CorrectionLimits, ResolutionService
from bot.services.review import ReviewService
from bot.services.rules import RuleService
from bot.slack.commands import SlashCommands
from bot.slack.commands import use as use_commands

log = logging.getLogger(__name__)

SLACK_EVENTS_PATH = "/slack/events"
INTAKE_CONNECTIONS = 8
METRICS_PATH = "/metrics"


__all__ = ["ConfigurationError", "Runtime", "Services", "open_runtime", "open_services", "serve"]


class _RateLimitRetry(AsyncRateLimitErrorRetryHandler):
    """Wait Retry-After and send again — except views.open/push: their trigger lasts 3 s, so a
    wait would only meet an expired trigger (the caller offers a button instead)."""

    async def _can_retry_async(self, *, state, request, response=None, error=None) -> bool:  # noqa: ANN001
        if request.url.rstrip("/").rsplit("/", 1)[-1] in ("views.open", "views.push"):
            return False
        return await super()._can_retry_async(state=state, request=request, response=response, error=error)


def slack_client(settings: Settings, metrics: Metrics | None = None) -> AsyncWebClient:
    # Bolt copies these handlers into the client it makes for each request: the observer, first,
    # counts every answer (each 429 too, before the next handler retries it) and never retries.
    observer = [SlackApiObserver(metrics)] if metrics is not None else []
    return AsyncWebClient(
        token=settings.slack_bot_token,
        base_url=settings.slack_api_url,
        timeout=settings.slack_timeout_s,  # type: int in the SDK; aiohttp takes seconds as a float
        # 429 → wait Retry-After and send again: the message still arrives exactly once
        retry_handlers=[*observer, _RateLimitRetry(max_retry_count=3), AsyncConnectionErrorRetryHandler()],
    )


def build_slack_app(settings: Settings, services: Services, lookups: SlackLookups | None = None) -> AsyncApp:
    from bot.preflight import check_slack_settings

    check_slack_settings(settings)
    # what Slack text tells people to type is what this app registers
    commands = SlashCommands(
        settings.slack_incident_command, settings.slack_recall_command, settings.slack_investigate_command
    )
    use_commands(commands)
    app = AsyncApp(
        # Bolt falls back to the SLACK_BOT_TOKEN variable when no token is given, and warns that it
        # is unused next to a client: the token is given here, and the client set up below.
        token=settings.slack_bot_token,
        signing_secret=settings.slack_signing_secret or "socket-mode-has-no-signing-secret",
        # the bot's own messages are dropped by Bolt before any listener sees them
        ignoring_self_events_enabled=True,
    )
    configured = slack_client(settings, services.metrics)
    app.client.base_url = configured.base_url
    app.client.retry_handlers = configured.retry_handlers
    app.client.timeout = configured.timeout
    register_all(app, services, lookups, commands=commands)
    return app


def build_web_app(slack_app: AsyncApp, services: Services) -> web.Application:
    async def slack_events(request: web.Request) -> web.Response:
        response = await slack_app.async_dispatch(await to_bolt_request(request))
        return await to_aiohttp_response(response)

    async def healthz(_: web.Request) -> web.Response:
        database_ok = await services.memory.ping()
        return web.json_response(
            {"ok": database_ok, "database": "ok" if database_ok else "unreachable"},
            status=200 if database_ok else 503,
        )

    async def drain(_: web.Application) -> None:
        await services.background.drain()

    gate = slack_gate_middleware(
        services.settings.slack_signing_secret or "", SLACK_EVENTS_PATH, services.metrics,
        claim=services.incidents.claim_request,
    )  # fmt: skip
    web_app = web.Application(
        client_max_size=max(MAX_BODY, services.settings.alerts_max_body),
        middlewares=[slack_events_middleware(services.metrics, SLACK_EVENTS_PATH), gate],
    )
    web_app.router.add_post(SLACK_EVENTS_PATH, slack_events)
    web_app.router.add_get("/healthz", healthz)
    add_alert_receivers(web_app, services, start_delivery)  # POST /alerts/…, when ALERT_ROUTES is set
    web_app.router.add_get(METRICS_PATH, metrics_handler(services.metrics, token=services.settings.metrics_token))
    web_app.on_shutdown.append(drain)
    return web_app


@asynccontextmanager
async def open_services(settings: Settings) -> AsyncIterator[Services]:
    try:
        embedder = embedder_from_settings(settings)
    except EmbeddingsMisconfigured as exc:
        raise ConfigurationError(str(exc)) from exc
    routes = alert_routes(settings)  # a routing file that cannot work stops here, before the database
    dsn = await database_url(settings)
    # the resolved address (the embedded PostgreSQL's when unset): the job worker listens on it
    settings = settings.model_copy(update={"database_url": dsn})
    await migrate(dsn, settings)
    # the worker's jobs and the requests' own queries each get connections: waiting for one is
    # never mistaken for a database that is down
    pool = await create_pool(dsn, max_size=settings.job_concurrency + 10)
    # storing a request's work before its ack has connections of its own: a burst of jobs never
    # makes Slack wait
    intake = await create_pool(dsn, min_size=2, max_size=INTAKE_CONNECTIONS)
    background = BackgroundWork()
    metrics = Metrics()
    # one vocabulary: memories are indexed with it, queries read with it
    vocabulary = load_vocabulary(settings.incident_memory_concepts_path)
    memory_store = PostgresMemoryStore(pool, vocabulary=vocabulary)
    await memory_store.reindex_terms()  # after a tokenizer change: one read when nothing is stale
    reading = ReadingPool(settings.reading_workers, settings.reading_deadline_s)  # spawned at the first long text
    investigation = InvestigationService.from_settings(settings, metrics=metrics, reading=reading)
    semantic = None
    if embedder is not None:
        semantic = SemanticRecall(
            embedder, memory_store, query_timeout=settings.embeddings_timeout_s, metrics=metrics,
            include_private=settings.embeddings_include_private,
        )  # fmt: skip
    drafter = build_drafter(
        api_key=settings.anthropic_api_key, model=settings.anthropic_model, base_url=settings.anthropic_base_url,
        timeout_s=settings.drafting_timeout_s, private_with_model=settings.investigate_private_with_model,
        limits=settings.read_limits, reading=reading,
    )  # fmt: skip
    try:
        if semantic is not None:
            await semantic.start(settings.migrations_dir)  # one log line: on, or why not
        memory = count_store_errors(memory_store, metrics, name="memory")
        kept = settings.timeline_max_messages  # messages per incident
        incident_store = count_store_errors(PostgresIncidentStore(pool, max_messages=kept), metrics, name="incidents")
        nudge_store = count_store_errors(PostgresNudgeStore(pool), metrics, name="nudges")
        drafts = count_store_errors(PostgresDraftStore(pool), metrics, name="drafts")
        reviewers = Reviewers.parse(settings.memory_reviewers)
        access = Access(memory, incident_store, reviewers)
        recall = RecallService(
            memory, recaller=Recaller(vocabulary=vocabulary), floor=settings.recall_floor, metrics=metrics,
            access=access, rules=RuleService(memory, vocabulary, settings.rules_dir), semantic=semantic,
            alerts=alert_memory(pool), alert_labels=settings.recall_alert_labels,
            recurrence_days=settings.recurrence_window_days,
        )  # fmt: skip

        services = Services(
            settings=settings,
            memory=memory,
            incidents=IncidentService(
                incident_store,
                settings.incident_channel_pattern,
                metrics=metrics,
                request_claims=count_store_errors(PostgresIncidentStore(intake), metrics, name="incidents"),
                changes=count_store_errors(PostgresMessageChanges(pool), metrics, name="incidents"),
            ),  # fmt: skip
            recall=recall,
            resolution=ResolutionService(
                memory, access=access, corrections=CorrectionLimits.of(settings), alerts=fired_alerts(pool)
            ),  # fmt: skip
            investigation=investigation,
            drafting=DraftingService(drafter, incident_store, drafts),
            nudges=NudgeService.from_settings(settings, nudge_store, reading),
            review=ReviewService(memory, nudge_store, recall),
            background=background,
            metrics=metrics,
            jobs=JobQueue(PostgresJobQueue(intake)),
            effects=PostgresEffects(pool),
            semantic=semantic if semantic is not None and semantic.enabled else None,
            alerts=AlertService.over(routes, pool, intake, metrics),
            reading=reading,
            limits=WorkLimits.from_settings(settings, intake, metrics),
        )
        # memories retained while it was off, by the CLI, or embedded by a model since replaced
        await embed_later(services)
        yield services
    finally:

        async def close() -> None:
            await background.drain()
            await investigation.aclose()  # the model's HTTP client
            if semantic is not None:
                await semantic.aclose()  # the embeddings endpoint's HTTP client
            await drafter.aclose()
            await memory_store.close()  # a recall-postings derivation in flight finishes first
            await pool.close()
            await intake.close()
            reading.close()

        await to_the_end(close())  # a second Ctrl-C must not leave pools half closed


@dataclass
class Runtime:
    services: Services
    slack_app: AsyncApp
    web_app: web.Application
    worker: JobWorker | None  # None when the jobs run in worker processes

    async def settle(self, timeout: float = 30.0) -> None:
        """Wait until the work started so far is done — background tasks, queued and running
        jobs (retries waiting their turn included) — or `timeout` passes. For tests and the demo."""
        import asyncio

        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            await self.services.background.drain(timeout=max(0.1, deadline - loop.time()))
            if (
                not self.services.background.pending
                and not await self.services.jobs.pending()
                and not (self.worker and self.worker.in_flight)
            ):
                return
            await asyncio.sleep(0.05)


def job_worker(services: Services, lookups: SlackLookups) -> JobWorker:
    """The worker that runs the surfaces' jobs with this app's services and Slack client."""
    settings = services.settings
    client = slack_client(settings, services.metrics)

    def job_context(attempt: int, job_id: int) -> JobContext:
        return JobContext(services=services, client=client, attempt=attempt, job_id=job_id, lookups=lookups)

    assert settings.database_url, "the worker listens on the database the services use"
    return JobWorker(
        settings.database_url, all_jobs(), job_context, concurrency=settings.job_concurrency,
        heartbeat_timeout_s=settings.job_heartbeat_timeout_s, retry_base_s=settings.job_retry_base_s,
        on_outcome=lambda kind, outcome: services.metrics.jobs.labels(kind=kind, outcome=outcome).inc(),
    )  # fmt: skip


@asynccontextmanager
async def open_runtime(settings: Settings, *, run_jobs: bool = True) -> AsyncIterator[Runtime]:
    """The app. `run_jobs=False`: the jobs it queues run in worker processes (`serve`)."""
    async with open_services(settings) as services:
        settings = services.settings  # with the database's address resolved
        lookups = SlackLookups.configured(settings)  # one per app: the listeners' and the jobs' cached Slack reads
        slack_app = build_slack_app(settings, services, lookups)
        worker = job_worker(services, lookups) if run_jobs else None
        if worker is not None:
            await worker.start()
        try:
            yield Runtime(services, slack_app, build_web_app(slack_app, services), worker)
        finally:
            if worker is not None:
                await to_the_end(worker.stop(settings.shutdown_drain_s))


async def run_worker(settings: Settings) -> None:
    """`incident-memory worker`: run jobs (no HTTP) until SIGTERM/SIGINT, then drain."""
    import asyncio
    import signal

    _configure_logging(settings)
    async with open_services(settings) as services:
        worker = job_worker(services, SlackLookups.configured(settings))
        await worker.start()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        log.info("running jobs (%d at once)", settings.job_concurrency)
        try:
            await stop.wait()
        finally:
            await worker.stop(settings.shutdown_drain_s)


def _configure_logging(settings: Settings) -> None:
    configure_logging(
        log_format=settings.log_format,
        level=settings.log_level,
        secrets=(
            settings.slack_bot_token,
            settings.slack_signing_secret,
            settings.slack_app_token,
            settings.anthropic_api_key,
            settings.alerts_token,
            settings.pagerduty_webhook_secret,
        ),
    )


async def serve(settings: Settings) -> None:
    """Serve over HTTP, or over Socket Mode when SLACK_APP_TOKEN is set, until SIGTERM/SIGINT."""

    _configure_logging(settings)
    from bot.preflight import check_slack_settings, check_slack_token

    check_slack_settings(settings)
    alert_routes(settings)  # ALERT_ROUTES without a secret, or a file that cannot work: refused now
    workspace = await check_slack_token(settings)  # before the database: a wrong token stops here
    log.info("serving the Slack workspace %s (%s) as @%s", workspace.team, workspace.team_id, workspace.bot_user)
    settings = settings.model_copy(update={"database_url": await database_url(settings)})
    with metrics_across_processes():  # before any child starts (job workers, process pools): they inherit it
        await _listen(settings)


async def _listen(settings: Settings) -> None:
    import asyncio
    import signal

    workers = WorkerProcesses(settings, settings.job_workers) if settings.job_workers else None
    async with open_runtime(settings, run_jobs=workers is None) as runtime:
        if workers is not None:
            await workers.start()
        # /slack/events requests get one log line each from the middleware; no access log
        runner = web.AppRunner(runtime.web_app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host="0.0.0.0", port=settings.port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            if workers is not None:
                await workers.stop()
            raise ConfigurationError(
                f"cannot listen on PORT={settings.port} ({exc.strerror or exc}): set PORT to a free port"
            ) from exc
        alerts = ", POST /alerts/…" if runtime.services.alerts else ""
        log.info(
            "listening on :%d (POST %s%s, GET /healthz, GET %s)", settings.port, SLACK_EVENTS_PATH, alerts, METRICS_PATH
        )
        socket_handler = None
        if settings.slack_app_token:
            from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

            socket_handler = AsyncSocketModeHandler(runtime.slack_app, settings.slack_app_token)
            await socket_handler.connect_async()
            log.info("connected to Slack over Socket Mode")
        housekeeping = asyncio.create_task(run_housekeeping(runtime.services), name="housekeeping")
        from bot.handlers.nudges import sweep_nudges

        nudging = asyncio.create_task(
            sweep_nudges(runtime.slack_app.client, runtime.services, settings.nudge_sweep_s), name="nudges"
        )
        # SIGTERM (a deploy) and SIGINT stop taking requests, then wait for background work
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        try:
            await stop.wait()
            log.info("shutting down: finishing %d background tasks", runtime.services.background.pending)
        finally:
            housekeeping.cancel()
            nudging.cancel()
            if socket_handler is not None:
                await socket_handler.close_async()
            await runner.cleanup()
            if workers is not None:
                await workers.stop()
