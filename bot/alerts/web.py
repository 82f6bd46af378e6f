"""POST /alerts/{alertmanager,grafana,pagerduty,opsgenie}, beside /slack/events on the bot's port.

Each request is, in order: authenticated (a bearer token, or PagerDuty's signature) → 401 and
nothing stored; bounded (ALERTS_MAX_BODY) → 413; read and parsed → 400 saying what is missing;
stored with its alerts and the job that handles it → 503 when the database cannot take it, so
the sender retries. Only then 200. A delivery stored before (a retry, Alertmanager's repeat) is
answered 200 and adds nothing. Without ALERT_ROUTES none of these routes exist (404).
"""

from __future__ import annotations

import hmac
import json
import logging
import time
from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Any

from aiohttp import web

from bot.alerts import alertmanager, grafana, opsgenie, pagerduty
from bot.alerts.model import Malformed
from bot.errors import MemoryError_

log = logging.getLogger("bot.alerts")

RECEIVERS: dict[str, ModuleType] = {
    "alertmanager": alertmanager, "grafana": grafana, "pagerduty": pagerduty, "opsgenie": opsgenie,
}  # fmt: skip
PATH = "/alerts/{source}"

StartDelivery = Callable[[Any, int], Awaitable[None]]  # (services, delivery id): queue its job


async def read_bounded(request: web.Request, limit: int) -> bytes | None:
    """The body, or None when it is longer than `limit` (announced or not)."""
    if request.content_length is not None and request.content_length > limit:
        return None
    chunks, size = [], 0
    while True:
        chunk = await request.content.read(min(64 * 1024, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            return None


def _answer(status: int, text: str, metrics: Any, source: str, outcome: str) -> web.Response:
    metrics.alerts_received.labels(source=source, outcome=outcome).inc()
    log.log(logging.INFO if status < 400 else logging.WARNING, "alert webhook %s → %d %s", source, status, outcome,
            extra={"status": status, "source": source, "outcome": outcome})  # fmt: skip
    return web.json_response({"ok": status < 300, "result": text}, status=status)


def receiver(source: str, module: ModuleType, services: Any, start: StartDelivery) -> Callable[..., Awaitable]:
    settings, metrics = services.settings, services.metrics
    limit = settings.alerts_max_body

    async def receive(request: web.Request) -> web.Response:
        if module.AUTH == "bearer":
            if not settings.alerts_token:
                return _answer(404, f"set ALERTS_TOKEN to receive alerts from {source}", metrics, source, "disabled")
            given = request.headers.get("Authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {settings.alerts_token}".encode()):
                return _answer(401, "Authorization: Bearer <ALERTS_TOKEN> is missing or wrong", metrics, source,
                               "unauthorized")  # fmt: skip
        elif not settings.pagerduty_webhook_secret:
            return _answer(
                404, "set PAGERDUTY_WEBHOOK_SECRET to receive PagerDuty webhooks", metrics, source, "disabled"
            )
        elif not request.headers.get(pagerduty.SIGNATURE_HEADER, "").startswith("v1="):
            return _answer(401, f"{pagerduty.SIGNATURE_HEADER} is missing", metrics, source, "unauthorized")
        try:
            raw = await read_bounded(request, limit)
        except (web.HTTPException, ConnectionError):
            raw = None
        if raw is None:
            return _answer(413, f"the body is over ALERTS_MAX_BODY ({limit} bytes)", metrics, source, "too_large")
        if module.AUTH == "signature" and not pagerduty.signed(
            raw, request.headers.get(pagerduty.SIGNATURE_HEADER, ""), settings.pagerduty_webhook_secret
        ):
            return _answer(401, "no v1 signature matches PAGERDUTY_WEBHOOK_SECRET", metrics, source, "unauthorized")
        try:
            batch = module.parse(json.loads(raw.decode("utf-8")))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            why = str(exc) if isinstance(exc, Malformed) else "the body is not UTF-8 JSON"
            return _answer(400, f"not a {source} webhook: {why}", metrics, source, "malformed")
        if batch is None:
            return _answer(200, "ignored: neither firing nor resolving", metrics, source, "ignored")
        started = time.perf_counter()
        try:
            received = await services.alerts.receive(batch)
            if received.processed:
                return _answer(200, "already received", metrics, source, "repeat")
            # a stored delivery whose job could not be queued is queued by the sender's retry
            await start(services, received.delivery_id)
        except (MemoryError_, TimeoutError) as exc:
            log.warning("an alert from %s could not be stored (%s): answered 503, the sender retries", source, exc)
            return _answer(503, "the database is not answering: send it again later", metrics, source, "not_stored")
        log.debug("stored in %.1f ms", (time.perf_counter() - started) * 1000)
        return _answer(200, "stored" if received.new else "already received", metrics, source,
                       "stored" if received.new else "repeat")  # fmt: skip

    return receive


def add_alert_receivers(web_app: web.Application, services: Any, start: StartDelivery) -> None:
    """The four receivers, when ALERT_ROUTES is set (services.alerts); else nothing (404)."""
    if services.alerts is None:
        return
    for source, module in RECEIVERS.items():
        web_app.router.add_post(PATH.format(source=source), receiver(source, module, services, start))
