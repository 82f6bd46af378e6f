"""Opsgenie's Webhook integration: one POST per alert action, JSON "alert action data".

`Create` fires and `Close` resolves; other actions (Acknowledge, AddNote…) are acknowledged and
not stored. An alert is created once and closed once, so `alertId` + `action` is the key (the
payload carries no delivery id). Description and details come only if the integration is set to
send them; tags become the `tags` label.
"""

from __future__ import annotations

from typing import Any

from bot.alerts.model import (
    MAX_ANNOTATION_CHARS,
    Alert,
    AlertBatch,
    Source,
    Status,
    labels_of,
    require,
    text_field,
    timestamp,
)

AUTH = "bearer"  # a custom header on the integration: Authorization: Bearer $ALERTS_TOKEN
_STATUS = {"create": Status.FIRING, "close": Status.RESOLVED}


def parse(body: Any) -> AlertBatch | None:
    require(isinstance(body, dict), "the body must be a JSON object")
    action, alert = body.get("action"), body.get("alert")
    require(isinstance(action, str) and bool(action), "the body needs an action")
    status = _STATUS.get(action.lower())
    if status is None:
        return None
    require(isinstance(alert, dict), "the body needs an alert object")
    alert_id = alert.get("alertId")
    require(isinstance(alert_id, str) and bool(alert_id), "the alert needs an alertId")
    tags = alert.get("tags") if isinstance(alert.get("tags"), list) else []
    labels = labels_of({
        **(alert.get("details") if isinstance(alert.get("details"), dict) else {}),
        "alertname": text_field(alert.get("message")).strip(), "entity": text_field(alert.get("entity")),
        "source": text_field(alert.get("source")), "priority": text_field(alert.get("priority")),
        "alias": text_field(alert.get("alias")), "tags": ", ".join(str(t) for t in tags[:20]),
    })  # fmt: skip
    labels = {k: v for k, v in labels.items() if v}
    description = text_field(alert.get("description"), MAX_ANNOTATION_CHARS)
    at = timestamp(alert.get("createdAt")) if status is Status.FIRING else timestamp(alert.get("updatedAt"))
    parsed = Alert(
        key=f"opsgenie:{alert_id[:64]}", status=status, name=labels.get("alertname") or "Opsgenie alert",
        labels=labels, annotations={"description": description} if description else {},
        starts_at=at if status is Status.FIRING else None, ends_at=at if status is Status.RESOLVED else None,
    )  # fmt: skip
    return AlertBatch(
        source=Source.OPSGENIE, dedupe_key=f"{alert_id[:150]}:{action.lower()[:20]}", status=status, alerts=(parsed,)
    )
