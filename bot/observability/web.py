"""The aiohttp side: a middleware on /slack/events, and GET /metrics.

For each request to /slack/events the middleware
- opens a log context (request id, team, channel) that the handlers and the background work
  they start inherit, so their log lines say which request they belong to;
- after the response is computed, counts the request by type and observes the ack latency
  (signed requests only: a request Bolt refused with 401 says nothing Slack said);
- writes one log line: request id, team, channel, type, status, latency_ms. Never the body.

The body is read once (aiohttp caches it for Bolt) and parsed only for its type, event type,
team and channel.
"""

from __future__ import annotations

import hmac

import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from aiohttp import web

from bot.observability.context import request_scope
from bot.observability.metrics import Metrics, label

log = logging.getLogger("bot.requests")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_REQUEST_ID_HEADERS = ("Fly-Request-Id", "X-Request-Id")


@dataclass(frozen=True, slots=True)
class Envelope:
    """What a Slack request is, without its content."""

    type: str = "unknown"
    event: str = ""
    team: str | None = None
    channel: str | None = None
    event_id: str | None = None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _channel_of(event: dict[str, Any]) -> Any:
    channel = event.get("channel")
    if isinstance(channel, dict):
        return channel.get("id")
    return channel or _dict(event.get("item")).get("channel")


def envelope_of(raw: bytes, content_type: str) -> Envelope:
    """Type, event type (or command), team and channel of a Slack request body; never raises."""
    try:
        if content_type == "application/json":
            body = _dict(json.loads(raw))
            event = _dict(body.get("event"))
            return Envelope(
                type=label(body.get("type"), default="unknown"),
                event=label(event.get("type")),
                team=label(body.get("team_id") or event.get("team"), default="") or None,
                channel=label(_channel_of(event), default="") or None,
                event_id=label(body.get("event_id"), default="") or None,
            )
        form = {k: v[0] for k, v in parse_qs(raw.decode("utf-8", "replace")).items()}
        if "payload" in form:
            payload = _dict(json.loads(form["payload"]))
            channel = _dict(payload.get("channel")).get("id") or _dict(payload.get("container")).get("channel_id")
            return Envelope(
                type=label(payload.get("type"), default="unknown"),
                team=label(_dict(payload.get("team")).get("id") or _dict(payload.get("user")).get("team_id"), default="") or None,
                channel=label(channel, default="") or None,
            )
        if "command" in form:
            return Envelope(
                type="slash_command",
                event=label(form.get("command")),
                team=label(form.get("team_id"), default="") or None,
                channel=label(form.get("channel_id"), default="") or None,
            )
    except (ValueError, TypeError, UnicodeDecodeError):
        pass
    return Envelope()


def _request_id(request: web.Request) -> str:
    for header in _REQUEST_ID_HEADERS:
        given = label(request.headers.get(header), default="")
        if given and given != "other":
            return given
    return uuid.uuid4().hex[:16]


def slack_events_middleware(metrics: Metrics, path: str) -> Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]:
    @web.middleware
    async def observe(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path != path:
            return await handler(request)
        start = time.perf_counter()
        envelope = envelope_of(await request.read(), request.content_type)
        status = 500
        with request_scope(request_id=_request_id(request), team=envelope.team, channel=envelope.channel):
            try:
                response = await handler(request)
                status = response.status
                return response
            except web.HTTPException as exc:
                status = exc.status
                raise
            finally:
                elapsed = time.perf_counter() - start
                signed = request.method == "POST" and status not in (401, 405)
                if signed:
                    metrics.events_received.labels(type=envelope.type, event=envelope.event).inc()
                    metrics.ack_latency.labels(type=envelope.type).observe(elapsed)
                retry = request.headers.get("X-Slack-Retry-Num")
                log.log(
                    logging.INFO if signed and status < 500 else logging.WARNING,
                    "slack request %s%s → %d",
                    envelope.type,
                    f" {envelope.event}" if envelope.event else "",
                    status,
                    extra={
                        "latency_ms": round(elapsed * 1000, 1),
                        "status": status,
                        "type": envelope.type,
                        **({"event": envelope.event} if envelope.event else {}),
                        **({"event_id": envelope.event_id} if envelope.event_id else {}),
                        **({"retry_num": label(retry)} if retry else {}),
                    },
                )

    return observe


def metrics_handler(metrics: Metrics, *, token: str | None = None) -> Handler:
    """GET /metrics; with `token` set, only for `Authorization: Bearer <token>` (a scraper)."""
    expected = f"Bearer {token}" if token else None

    async def serve_metrics(request: web.Request) -> web.Response:
        if expected and not hmac.compare_digest(request.headers.get("Authorization", ""), expected):
            return web.Response(status=401, text="metrics need the METRICS_TOKEN bearer token")
        body, content_type = metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": content_type})

    return serve_metrics
