"""Grafana Alerting's webhook contact point: the Alertmanager group shape (`groupKey`, per-alert
`fingerprint`, `firing` / `resolved`) with Grafana's additions (`orgId`, `values`, the deprecated
`title` / `message`), which are not needed here. Deduplicated as Alertmanager's groups are."""

from __future__ import annotations

from typing import Any

from bot.alerts.alertmanager import parse_group
from bot.alerts.model import AlertBatch, Source

AUTH = "bearer"  # the contact point's "Authorization Header - Credentials" = $ALERTS_TOKEN


def parse(body: Any) -> AlertBatch:
    return parse_group(body, Source.GRAFANA)
