"""Alerts into incidents: storing a webhook's delivery before it is answered, routing it to a
channel (ALERT_ROUTES), and the incident it opens — title, service and severity from the route
and the alert's labels, its words (summary, description) as the symptoms recall reads."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.alerts.model import Alert, AlertBatch, Status
from bot.alerts.routes import AlertRoutes, Route
from bot.fence import neutralise
from bot.memory.alerts import PostgresAlertStore, Received, StoredAlert, StoredDelivery
from bot.models import Incident, MemoryAlert
from bot.observability import Metrics

__all__ = ["AlertService", "StoredDelivery", "alert_memory", "fired_alerts", "incident_from", "timeline_text"]

TITLE_CHARS = 200
SYMPTOMS_CHARS = 1_500
TIMELINE_CHARS = 3_000
# of the webhook sender's patience (Alertmanager's default is none; PagerDuty's is short), how long
# storing may take before the answer is a 503 and the sender retries
STORE_BUDGET_S = 5.0


def _words(alert: Alert) -> str:
    return alert.annotations.get("summary") or alert.annotations.get("description") or ""


def incident_from(route: Route, batch: AlertBatch) -> Incident:
    """The incident an alert group opens."""
    labels = batch.labels()
    firing = [a for a in batch.alerts if a.status is Status.FIRING] or list(batch.alerts)
    first = firing[0]
    title = _words(first) or first.name
    if len(firing) > 1:
        title = f"{first.name}: {len(firing)} alerts firing" if not _words(first) else f"{title} (+{len(firing) - 1})"
    symptoms = "\n".join(
        dict.fromkeys(x for a in firing for x in (a.annotations.get("summary"), a.annotations.get("description")) if x)
    )
    return Incident(
        title=title[:TITLE_CHARS],
        service=route.service or labels.get("service") or first.labels.get("service"),
        severity=route.severity or labels.get("severity") or first.labels.get("severity"),
        symptoms=symptoms[:SYMPTOMS_CHARS] or None,
    )


def fired_alerts(pool: object) -> Callable[[str, str], Awaitable[list[MemoryAlert]]]:
    """What a resolution's memory keeps: the alerts that joined the incident's timeline."""
    return PostgresAlertStore(pool).fired_for


def alert_memory(pool: object) -> PostgresAlertStore:
    """Recall's view: the alerts an incident fired, and which confirmed memories fired them too."""
    return PostgresAlertStore(pool)


def timeline_text(source: str, alerts: list[StoredAlert]) -> str:
    """What joins the timeline: each alert's state, name, labels and words, as data. Every
    prompt fences a timeline entry (bot/fence.py); its vendor text is neutralised here already,
    so no label can carry a fence look-alike into a prompt, a draft or an import."""
    lines = []
    for stored in alerts:
        a = stored.alert
        labels = ", ".join(f"{k}={v}" for k, v in sorted(a.labels.items()) if k != "alertname")
        words = "; ".join(f"{k}: {a.annotations[k]}" for k in ("summary", "description") if a.annotations.get(k))
        lines.append(f"[{source} alert {a.status.value}] {a.name}" + (f" ({labels})" if labels else "")
                     + (f" — {words}" if words else ""))  # fmt: skip
    return neutralise("\n".join(lines))[:TIMELINE_CHARS]


class AlertService:
    def __init__(
        self, routes: AlertRoutes, store: PostgresAlertStore, *, request_store: PostgresAlertStore | None = None,
        metrics: Metrics | None = None,
    ) -> None:  # fmt: skip
        self.routes = routes
        self._store = store
        self._intake = request_store or store  # the request path's own connections
        self._metrics = metrics

    @classmethod
    def over(cls, routes: AlertRoutes | None, pool: object, intake: object, metrics: Metrics) -> AlertService | None:
        """The service on the app's pools (`intake`: the request path's), or None without ALERT_ROUTES."""
        if routes is None:
            return None
        return cls(routes, PostgresAlertStore(pool), request_store=PostgresAlertStore(intake), metrics=metrics)

    async def receive(self, batch: AlertBatch) -> Received:
        """Stored before the 2xx: StoreUnavailable / TimeoutError when the database cannot take it."""
        return await asyncio.wait_for(self._intake.receive(batch), STORE_BUDGET_S)

    def route(self, batch: AlertBatch) -> Route | None:
        return self.routes.route(batch)

    def counted(self, source: str, outcome: str) -> None:
        if self._metrics is not None:
            self._metrics.alerts_handled.labels(source=source, outcome=outcome).inc()

    async def delivery(self, delivery_id: int) -> StoredDelivery | None:
        return await self._store.delivery(delivery_id)

    async def news(self, delivery_id: int, team_id: str, incident_id: str) -> list[StoredAlert]:
        return await self._store.news(delivery_id, team_id, incident_id)

    async def incident_of(self, batch: AlertBatch) -> tuple[str, str] | None:
        return await self._store.incident_of(batch.source, [a.key for a in batch.alerts])

    async def all_resolved(self, team_id: str, incident_id: str) -> bool:
        return await self._store.all_resolved(team_id, incident_id)

    async def finish(self, delivery: StoredDelivery, outcome: str, **where: str | None) -> None:
        await self._store.finish(delivery.id, outcome, **where)
        self.counted(delivery.batch.source.value, outcome)

    async def counts(self) -> dict[str, int]:
        return await self._store.counts()
