"""The real app, served on 127.0.0.1, wired to a SlackSandbox: what the demo and the
end-to-end tests drive."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from aiohttp import web

from bot.app import Runtime, open_runtime
from bot.config import Settings
from bot.sandbox.alerts import AlertSender
from bot.sandbox.signed import SignedSender
from bot.sandbox.slack_api import SlackSandbox


@dataclass
class LocalBot:
    sandbox: SlackSandbox
    slack: SignedSender
    runtime: Runtime
    events_url: str
    alerts: AlertSender  # POST /alerts/… with the settings' ALERTS_TOKEN / PAGERDUTY_WEBHOOK_SECRET


@asynccontextmanager
async def local_bot(
    settings: Settings,
    *,
    sandbox: SlackSandbox | None = None,
    signing_secret: str | None = None,
    settle: bool = True,
    socket_mode: bool = False,
) -> AsyncIterator[LocalBot]:
    """Start the sandbox (unless given), the app pointed at it, and a signed sender. On the way
    out, the work started is finished first (`settle=False`: stopped as a deploy would). Two bots
    given one sandbox, one database and one `signing_secret` are two instances of one app.
    `socket_mode`: configured as for Socket Mode (an app token, no signing secret; the socket
    itself is not opened), and the sender signs with an empty key, as anyone could."""
    signing_secret = "" if socket_mode else signing_secret or secrets.token_hex(16)
    own_sandbox = sandbox is None
    sandbox = sandbox or SlackSandbox()
    if own_sandbox:
        await sandbox.start()
    try:
        settings = settings.model_copy(
            update={
                "slack_bot_token": sandbox.token,
                "slack_signing_secret": signing_secret or None,
                "slack_api_url": sandbox.base_url,
                "slack_app_token": "xapp-1-sandbox" if socket_mode else None,
            }
        )
        async with open_runtime(settings) as runtime:
            runner = web.AppRunner(runtime.web_app)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = runner.addresses[0][1]
            events_url = f"http://127.0.0.1:{port}/slack/events"
            try:
                base_url = f"http://127.0.0.1:{port}"
                alerts = AlertSender(
                    base_url, token=settings.alerts_token, pagerduty_secret=settings.pagerduty_webhook_secret
                )
                async with SignedSender(events_url, signing_secret, sandbox=sandbox) as slack, alerts:
                    yield LocalBot(sandbox, slack, runtime, events_url, alerts)
                    if settle:
                        await runtime.settle()
            finally:
                await runner.cleanup()
    finally:
        if own_sandbox:
            await sandbox.stop()
