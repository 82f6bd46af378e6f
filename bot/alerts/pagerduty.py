"""PagerDuty V3 webhooks: one event per POST, signed.

`X-PagerDuty-Signature` carries one or more `v1=<hex HMAC-SHA256 of the raw body>` separated by
commas (several while a secret is rotated); one of them must match PAGERDUTY_WEBHOOK_SECRET.
`incident.triggered` fires and `incident.resolved` resolves; other event types (acknowledged,
annotated, the subscription's ping…) are acknowledged and not stored. The event `id` is the key.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from bot.alerts.model import (
    Alert,
    AlertBatch,
    Source,
    Status,
    labels_of,
    require,
    text_field,
    timestamp,
)

AUTH = "signature"
SIGNATURE_HEADER = "X-PagerDuty-Signature"
_STATUS = {"incident.triggered": Status.FIRING, "incident.resolved": Status.RESOLVED}
MAX_SIGNATURES = 10


def signed(raw: bytes, header: str, secret: str) -> bool:
    """Whether any v1 signature in the header is the body's HMAC under `secret` (constant time)."""
    if not secret or not header:
        return False
    expected = hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()
    offered = [part.strip() for part in header.split(",")[:MAX_SIGNATURES]]
    matches = [hmac.compare_digest(f"v1={expected}", part) for part in offered]
    return any(matches)


def _summary(value: Any) -> str:
    return text_field(value.get("summary")) if isinstance(value, dict) else ""


def parse(body: Any) -> AlertBatch | None:
    """The event as an alert batch; None for an event type that neither fires nor resolves."""
    require(isinstance(body, dict) and isinstance(body.get("event"), dict), "the body must hold an event object")
    event = body["event"]
    event_id, event_type = event.get("id"), event.get("event_type")
    require(isinstance(event_id, str) and bool(event_id), "the event needs an id")
    require(isinstance(event_type, str) and bool(event_type), "the event needs an event_type")
    status = _STATUS.get(event_type)
    if status is None:
        return None
    data = event.get("data")
    require(isinstance(data, dict) and isinstance(data.get("id"), str), "an incident event needs data.id")
    priority = _summary(data.get("priority"))
    labels = labels_of({
        "alertname": text_field(data.get("title")), "service": _summary(data.get("service")),
        "urgency": text_field(data.get("urgency")), "priority": priority,
        "severity": priority or text_field(data.get("urgency")),
        "escalation_policy": _summary(data.get("escalation_policy")),
        "team": ", ".join(_summary(t) for t in data.get("teams") or [] if isinstance(t, dict)),
    })  # fmt: skip
    labels = {k: v for k, v in labels.items() if v}
    at = timestamp(event.get("occurred_at"))
    alert = Alert(
        key=f"pagerduty:{data['id'][:64]}", status=status, name=(labels.get("alertname") or "PagerDuty incident"),
        labels=labels, annotations={}, starts_at=at if status is Status.FIRING else None,
        ends_at=at if status is Status.RESOLVED else None, url=text_field(data.get("html_url")) or None,
    )  # fmt: skip
    return AlertBatch(source=Source.PAGERDUTY, dedupe_key=event_id[:200], status=status, alerts=(alert,))
