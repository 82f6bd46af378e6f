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

from bot.background import BackgroundWork
from bot.config import Settings
from bot.memory.database import database_url, migrate
from bot.memory.incidents import PostgresIncidentStore
from bot.memory.postgres import PostgresMemoryStore, create_pool
from bot.services.incidents import IncidentService
from bot.services.investigation import InvestigationService
from bot.services.recall import RecallService
from bot.services.resolution import ResolutionService

log = logging.getLogger(__name__)

SLACK_EVENTS_PATH = "/slack/events"


class ConfigurationError(Exception):
    pass


@dataclass
class Services:
    """Everything a handler may call. Handlers get this, never a pool or a store."""

    settings: Settings
    memory: PostgresMemoryStore
    incidents: IncidentService
    recall: RecallService
    resolution: ResolutionService
    investigation: InvestigationService
    background: BackgroundWork


def slack_client(settings: Settings) -> AsyncWebClient:
    return AsyncWebClient(
        token=settings.slack_bot_token,
        base_url=settings.slack_api_url,
        # 429 → wait Retry-After and send again: the message still arrives exactly once
        retry_handlers=[AsyncRateLimitErrorRetryHandler(max_retry_count=3), AsyncConnectionErrorRetryHandler()],
    )


def build_slack_app(settings: Settings, services: Services) -> AsyncApp:
    if not settings.slack_bot_token:
        raise ConfigurationError("SLACK_BOT_TOKEN is not set: the bot cannot talk to Slack")
    if not settings.slack_signing_secret and not settings.slack_app_token:
        raise ConfigurationError("SLACK_SIGNING_SECRET is not set: Slack's requests cannot be verified")
    from bot.handlers import register_all

    app = AsyncApp(
        client=slack_client(settings),
        signing_secret=settings.slack_signing_secret or "socket-mode-has-no-signing-secret",
        # the bot's own messages are dropped by Bolt before any listener sees them
        ignoring_self_events_enabled=True,
    )
    register_all(app, services)
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

    web_app = web.Application(client_max_size=1024 * 1024)
    web_app.router.add_post(SLACK_EVENTS_PATH, slack_events)
    web_app.router.add_get("/healthz", healthz)
    web_app.on_shutdown.append(drain)
    return web_app


@asynccontextmanager
async def open_services(settings: Settings) -> AsyncIterator[Services]:
    dsn = await database_url(settings)
    await migrate(dsn, settings)
    pool = await create_pool(dsn)
    background = BackgroundWork()
    try:
        memory = PostgresMemoryStore(pool)
        incident_store = PostgresIncidentStore(pool)
        yield Services(
            settings=settings,
            memory=memory,
            incidents=IncidentService(incident_store, settings.incident_channel_pattern),
            recall=RecallService(memory),
            resolution=ResolutionService(memory, incident_store),
            investigation=InvestigationService.from_settings(settings),
            background=background,
        )
    finally:
        await background.drain()
        await pool.close()


@dataclass
class Runtime:
    services: Services
    slack_app: AsyncApp
    web_app: web.Application


@asynccontextmanager
async def open_runtime(settings: Settings) -> AsyncIterator[Runtime]:
    async with open_services(settings) as services:
        slack_app = build_slack_app(settings, services)
        yield Runtime(services, slack_app, build_web_app(slack_app, services))


async def serve(settings: Settings) -> None:
    """Serve over HTTP, or over Socket Mode when SLACK_APP_TOKEN is set."""
    import asyncio

    async with open_runtime(settings) as runtime:
        runner = web.AppRunner(runtime.web_app)
        await runner.setup()
        site = web.TCPSite(runner, host="0.0.0.0", port=settings.port)
        await site.start()
        log.info("listening on :%d (POST %s, GET /healthz)", settings.port, SLACK_EVENTS_PATH)
        socket_handler = None
        if settings.slack_app_token:
            from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

            socket_handler = AsyncSocketModeHandler(runtime.slack_app, settings.slack_app_token)
            await socket_handler.connect_async()
            log.info("connected to Slack over Socket Mode")
        try:
            await asyncio.Event().wait()
        finally:
            if socket_handler is not None:
                await socket_handler.close_async()
            await runner.cleanup()
