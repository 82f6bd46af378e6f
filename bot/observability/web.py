"""The aiohttp side of /slack/events: the gate in front of Bolt, the request's log line, and
GET /metrics.

The gate (`slack_gate_middleware`) lets through to Bolt only what Slack really sent, once:
- in Socket Mode (no signing secret) nothing at all: POST /slack/events is 404;
- headers first: a timestamp within 5 minutes and a well-formed `v0=` signature, and a
  Content-Length within MAX_BODY, or 401/413 without reading the body;
- then the body, and its HMAC: a forged one is 401, and neither it nor any part of it is logged;
- then its shape: a body that is not Slack's (broken JSON or form, no type, missing ids, JSON
  nested deeper than MAX_DEPTH however deep) is 400, never a 500 with a traceback;
- then replays: a signed form request (slash command, button, modal submission) seen before
  — the same timestamp and signature, so the same bytes — answers 200 and does nothing. Slack
  never resends those; an attacker who captured one may. Events are deduplicated by event id
  further in.

The observing middleware (`slack_events_middleware`), outside it, opens a log context (request
id; the gate adds team and channel once the request is verified) that handlers and their
background work inherit; counts verified requests by type and observes the ack latency; and
writes one line per request: request id, team, channel, type, status, latency_ms. Never the body.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import re
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from aiohttp import web

from bot.observability.context import arrived_at, bind, request_scope
from bot.observability.metrics import Metrics, label

log = logging.getLogger("bot.requests")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_REQUEST_ID_HEADERS = ("Fly-Request-Id", "X-Request-Id")

# Slack's largest requests (a modal submission with every input full) are far below this.
MAX_BODY = 1024 * 1024
# Slack's deepest bodies (rich-text blocks in an event, a view's state) nest about a dozen levels
MAX_DEPTH = 64
# Slack's own rule: a request signed more than 5 minutes ago (or ahead) is refused.
SIGNATURE_MAX_AGE_S = 300
_SIGNATURE = re.compile(r"^v0=[0-9a-f]{64}$")
# how long recording a replay key may hold up the ack before this instance relies on its own memory
REPLAY_CLAIM_BUDGET_S = 0.5


@dataclass(frozen=True, slots=True)
class Envelope:
    """What a Slack request is, without its content."""

    type: str = "unknown"
    event: str = ""
    team: str | None = None
    channel: str | None = None
    event_id: str | None = None


_ENVELOPE = web.RequestKey("slack_envelope", Envelope)  # set on the request by the gate once it is verified


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _channel_of(event: dict[str, Any]) -> Any:
    channel = event.get("channel")
    if isinstance(channel, dict):
        return channel.get("id")
    return channel or _dict(event.get("item")).get("channel")


@dataclass(frozen=True, slots=True)
class SlackBody:
    """A request body in one of Slack's shapes: `kind` is "json" (Events API), "command" (a
    slash command's form), "payload" (an interaction's form, `body` its parsed JSON) or
    "ssl_check"."""

    kind: str
    body: dict[str, Any]


class Malformed(ValueError):
    """Not a body Slack sends; the message says what is wrong (never what it contained)."""


def _require(condition: bool, what: str) -> None:
    if not condition:
        raise Malformed(what)


def _is_str(value: Any) -> bool:
    return isinstance(value, str) and bool(value)


def _json(text: str, what: str) -> Any:
    """Parsed JSON no deeper than MAX_DEPTH; Malformed for broken or too deeply nested JSON
    (json raises RecursionError, not ValueError, past Python's recursion limit)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise Malformed(f"{what} is not JSON Slack sends") from None
    _require(_depth_within(value, MAX_DEPTH), f"{what} is nested deeper than {MAX_DEPTH} levels")
    return value


def _depth_within(value: Any, limit: int) -> bool:
    """Whether `value` nests at most `limit` containers deep; iterative, so no depth can overflow it."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return True


def parse_slack_body(raw: bytes, content_type: str) -> SlackBody:
    """The body in Slack's shape, with what the app reads from it present; Malformed otherwise."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Malformed("the body is not UTF-8") from None
    if content_type == "application/json":
        body = _json(text, "the body")
        _require(isinstance(body, dict) and _is_str(body.get("type")), "a JSON body must be an object with a type")
        if body["type"] == "event_callback":
            event = body.get("event")
            _require(
                isinstance(event, dict) and _is_str(event.get("type")), "an event callback needs an event with a type"
            )
            _require(_is_str(body.get("team_id")), "an event callback needs a team_id")
        elif body["type"] == "url_verification":
            _require(_is_str(body.get("challenge")), "url_verification needs a challenge")
        return SlackBody("json", body)
    _require(content_type == "application/x-www-form-urlencoded", "the body must be JSON or a form")
    try:
        form = parse_qs(text, keep_blank_values=True, strict_parsing=bool(text), max_num_fields=200)
    except ValueError:
        raise Malformed("the form does not parse") from None
    _require(all(len(values) == 1 for values in form.values()), "a form field is repeated")
    fields = {k: v[0] for k, v in form.items()}
    if "payload" in fields:
        payload = _json(fields["payload"], "the payload")
        _require(
            isinstance(payload, dict) and _is_str(payload.get("type")), "the payload must be an object with a type"
        )
        user, team = payload.get("user"), payload.get("team")
        _require(isinstance(user, dict) and _is_str(user.get("id")), "the payload needs a user id")
        if payload["type"] in ("block_actions", "view_submission", "view_closed"):
            _require(isinstance(team, dict) and _is_str(team.get("id")), "the payload needs a team id")
        if payload["type"] == "block_actions":
            actions = payload.get("actions")
            _require(
                isinstance(actions, list) and bool(actions)
                and all(isinstance(a, dict) and _is_str(a.get("action_id")) for a in actions),
                "block_actions needs actions with action ids",
            )  # fmt: skip
        if payload["type"] in ("view_submission", "view_closed"):
            view = payload.get("view")
            _require(
                isinstance(view, dict) and _is_str(view.get("callback_id")),
                "the payload needs a view with a callback_id",
            )
            values = _dict(view.get("state")).get("values")
            _require(
                payload["type"] == "view_closed" or isinstance(values, dict), "a view submission needs state.values"
            )
        return SlackBody("payload", payload)
    if "command" in fields:
        _require(fields["command"].startswith("/"), "a command starts with /")
        for name in ("team_id", "channel_id", "user_id"):
            _require(_is_str(fields.get(name)), f"a command needs {name}")
        return SlackBody("command", fields)
    if fields.get("ssl_check") == "1":  # Slack checking the endpoint's certificate; Bolt answers it
        return SlackBody("ssl_check", fields)
    raise Malformed("a form must hold a command or a payload")


def envelope_from(parsed: SlackBody) -> Envelope:
    """Type, event type (or command), team and channel of a parsed body."""
    body = parsed.body
    if parsed.kind == "json":
        event = _dict(body.get("event"))
        return Envelope(
            type=label(body.get("type"), default="unknown"),
            event=label(event.get("type")),
            team=label(body.get("team_id") or event.get("team"), default="") or None,
            channel=label(_channel_of(event), default="") or None,
            event_id=label(body.get("event_id"), default="") or None,
        )
    if parsed.kind == "payload":
        channel = _dict(body.get("channel")).get("id") or _dict(body.get("container")).get("channel_id")
        return Envelope(
            type=label(body.get("type"), default="unknown"),
            team=label(_dict(body.get("team")).get("id") or _dict(body.get("user")).get("team_id"), default="") or None,
            channel=label(channel, default="") or None,
        )
    if parsed.kind == "ssl_check":
        return Envelope(type="ssl_check")
    return Envelope(
        type="slash_command",
        event=label(body.get("command")),
        team=label(body.get("team_id"), default="") or None,
        channel=label(body.get("channel_id"), default="") or None,
    )


def envelope_of(raw: bytes, content_type: str) -> Envelope:
    """Type, event type (or command), team and channel of a Slack request body; never raises."""
    try:
        return envelope_from(parse_slack_body(raw, content_type))
    except Malformed:
        return Envelope()


def _request_id(request: web.Request) -> str:
    for header in _REQUEST_ID_HEADERS:
        given = label(request.headers.get(header), default="")
        if given and given != "other":
            return given
    return uuid.uuid4().hex[:16]


class RecentSignatures:
    """Signatures of requests this instance accepted, kept as long as they could be replayed
    (a signature older than SIGNATURE_MAX_AGE_S is refused anyway)."""

    def __init__(self, *, limit: int = 100_000, clock: Callable[[], float] = time.time) -> None:
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._limit = limit
        self._clock = clock

    def first_time(self, key: str) -> bool:
        now = self._clock()
        while self._seen and (next(iter(self._seen.values())) < now or len(self._seen) >= self._limit):
            self._seen.popitem(last=False)
        if key in self._seen:
            return False
        self._seen[key] = now + 2 * SIGNATURE_MAX_AGE_S
        return True


ReplayClaim = Callable[[str, str], Awaitable[bool]]  # (team_id, key) → True the first time, across instances


def _refuse(status: int, reason: str, why: str, metrics: Metrics) -> web.Response:
    metrics.gate_refused.labels(reason=reason).inc()
    return web.Response(status=status, text=f"{why}\n")


def slack_gate_middleware(
    signing_secret: str, path: str, metrics: Metrics, *, claim: ReplayClaim | None = None,
    clock: Callable[[], float] = time.time,
) -> Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]:  # fmt: skip
    """Verify, bound, parse and deduplicate Slack's requests before Bolt sees them. Without a
    signing secret (Socket Mode: Slack's requests come over the socket) there is no HTTP
    endpoint for Slack at all: every POST to `path` is 404, before anything is read."""
    secret = signing_secret.encode()
    recent = RecentSignatures(clock=clock)

    @web.middleware
    async def gate(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path != path or request.method != "POST":
            return await handler(request)
        if not secret:  # an empty key signs anything: nothing is verified, replayed or answered
            return _refuse(404, "socket_mode", "Slack's events come over Socket Mode here, not HTTP", metrics)
        timestamp = request.headers.get("X-Slack-Request-Timestamp", "")
        signature = request.headers.get("X-Slack-Signature", "")
        # headers first: nothing of the body is read for a request that cannot be Slack's
        if not timestamp.isdigit() or abs(clock() - int(timestamp)) > SIGNATURE_MAX_AGE_S:
            return _refuse(401, "stale", "stale or missing X-Slack-Request-Timestamp", metrics)
        if not _SIGNATURE.match(signature):
            return _refuse(401, "unsigned", "missing or malformed X-Slack-Signature", metrics)
        if request.content_length is None or request.content_length > MAX_BODY:
            return _refuse(413, "too_large", "the body must have a Content-Length of at most 1 MiB", metrics)
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return _refuse(413, "too_large", "the body is larger than 1 MiB", metrics)
        expected = "v0=" + hmac.new(secret, b"v0:" + timestamp.encode() + b":" + raw, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, signature):
            return _refuse(401, "forged", "invalid signature", metrics)
        try:
            parsed = parse_slack_body(raw, request.content_type)
        except Malformed as exc:
            metrics.gate_refused.labels(reason="malformed").inc()
            return web.Response(status=400, text=f"malformed Slack request: {exc}\n")
        envelope = envelope_from(parsed)
        request[_ENVELOPE] = envelope
        bind(team=envelope.team, channel=envelope.channel)
        if parsed.kind in ("command", "payload") and not await _first_time(
            signature, envelope.team or "", recent, claim
        ):
            metrics.gate_refused.labels(reason="replayed").inc()
            log.warning("a signed %s was received again (a replay): ignored", envelope.type)
            return web.Response(status=200)  # as if acknowledged: Slack never sends one twice
        return await handler(request)

    return gate


async def _first_time(signature: str, team_id: str, recent: RecentSignatures, claim: ReplayClaim | None) -> bool:
    key = "replay:" + signature[3:35]  # 128 bits of the HMAC: names the request, reveals nothing
    if not recent.first_time(key):
        return False
    if claim is None:
        return True
    try:  # other instances share the database; a slow one must not hold up the ack (wait_for: see bot/handlers/work.py)
        return await asyncio.wait_for(claim(team_id, key), REPLAY_CLAIM_BUDGET_S)
    except Exception as exc:  # noqa: BLE001 - this instance's memory still stops replays to it
        log.warning("could not record the request for replay protection across instances: %s", type(exc).__name__)
        return True


def slack_events_middleware(
    metrics: Metrics, path: str
) -> Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]:
    @web.middleware
    async def observe(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path != path:
            return await handler(request)
        start = time.perf_counter()
        status = 500
        with request_scope(request_id=_request_id(request)), arrived_at(time.monotonic()):
            try:
                response = await handler(request)
                status = response.status
                return response
            except web.HTTPException as exc:
                status = exc.status
                raise
            finally:
                elapsed = time.perf_counter() - start
                envelope = request.get(_ENVELOPE)
                verified = isinstance(envelope, Envelope)
                envelope = envelope if isinstance(envelope, Envelope) else Envelope()
                if verified:
                    metrics.events_received.labels(type=envelope.type, event=envelope.event).inc()
                    metrics.ack_latency.labels(type=envelope.type).observe(elapsed)
                retry = request.headers.get("X-Slack-Retry-Num")
                log.log(
                    logging.INFO if verified and status < 500 else logging.WARNING,
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
