"""Prometheus Alertmanager's webhook (payload version 4): one POST per alert group.

Alertmanager sends the whole group again every `repeat_interval`, and again when a delivery
failed: the same `groupKey`, `status` and alerts (each its `fingerprint`, `startsAt`, `endsAt`)
make the same `dedupe_key`, so a repeat or a retry is stored once. A group whose alerts changed
(one more firing, one resolved) is news, and gets a key of its own.
"""

from __future__ import annotations

from typing import Any

from bot.alerts.model import (
    Alert,
    AlertBatch,
    Source,
    Status,
    annotations_of,
    digest,
    keep_first,
    labels_of,
    require,
    text_field,
    timestamp,
)

AUTH = "bearer"  # Authorization: Bearer $ALERTS_TOKEN (webhook_config's http_config.authorization)


def _fingerprint(alert: dict[str, Any]) -> str:
    """The alert's fingerprint; before Alertmanager 0.19 there was none: its sorted labels."""
    given = alert.get("fingerprint")
    if isinstance(given, str) and given:
        return given[:64]
    labels = labels_of(alert.get("labels"))
    return digest(*(f"{k}={v}" for k, v in sorted(labels.items())))[:32]


def parse_group(body: Any, source: Source) -> AlertBatch:
    """An Alertmanager-shaped group (Alertmanager itself, and Grafana's webhook contact point)."""
    require(isinstance(body, dict), "the body must be a JSON object")
    status = body.get("status")
    require(status in ("firing", "resolved"), "status must be firing or resolved")
    raw_alerts = body.get("alerts")
    require(isinstance(raw_alerts, list) and bool(raw_alerts), "alerts must be a non-empty list")
    require(all(isinstance(a, dict) for a in raw_alerts), "each alert must be an object")
    group_key = text_field(body.get("groupKey"), 10_000)
    alerts: list[Alert] = []
    identity: list[str] = []
    for raw in raw_alerts:
        labels = labels_of(raw.get("labels"))
        fingerprint = _fingerprint(raw)
        alert_status = raw.get("status") if raw.get("status") in ("firing", "resolved") else status
        identity.append(f"{fingerprint}|{text_field(raw.get('startsAt'), 64)}|{text_field(raw.get('endsAt'), 64)}")
        alerts.append(
            Alert(
                key=fingerprint,
                status=Status(alert_status),
                name=(labels.get("alertname") or "alert")[:200],
                labels=labels,
                annotations=annotations_of(raw.get("annotations")),
                starts_at=timestamp(raw.get("startsAt")),
                ends_at=timestamp(raw.get("endsAt")),
                url=text_field(raw.get("generatorURL")) or None,
            )
        )
    truncated = body.get("truncatedAlerts")
    kept, truncated = keep_first(alerts, truncated if isinstance(truncated, int) and truncated > 0 else 0)
    # without a groupKey (not a real Alertmanager), the group is named by its alerts alone
    key = digest(source.value, group_key, status, *sorted(identity))
    return AlertBatch(
        source=source, dedupe_key=key, status=Status(status), alerts=kept,
        common_labels=labels_of(body.get("commonLabels")), truncated=truncated,
    )  # fmt: skip


def parse(body: Any) -> AlertBatch:
    return parse_group(body, Source.ALERTMANAGER)
