"""The same alert: a past incident that fired the query's alert, by name and identifying labels.

A recurring failure usually fires the same alert with the same labels, so this is the strongest,
cheapest evidence recall has. An alert is identified by its name plus the labels a team names
(RECALL_ALERT_LABELS; `service` always): `instance`, `pod` or a start time differ between two
firings of the same failure and identify nothing. A label missing from both alerts is the same;
missing from one only is not. Memories without alerts (every imported tracker, jira-dev) get no
signal at all, so their ranking is what it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from bot.models import MemoryAlert, MemoryDraft, MemoryRecord, RecallQuery

ALWAYS_IDENTIFYING = ("service",)
ALERT_EVIDENCE = 0.5
"""Added to the absolute relevance (floor.judge): the same alert alone passes the floor."""


def identifying(keys: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted({*ALWAYS_IDENTIFYING, *(k.strip() for k in keys if k.strip())}))


def _identity(alert: MemoryAlert, keys: tuple[str, ...]) -> tuple[str, tuple[str | None, ...]]:
    return alert.name, tuple(alert.labels.get(k) for k in keys)


def same_alert(query: RecallQuery, memory: MemoryDraft) -> MemoryAlert | None:
    """The memory's first alert that is one of the query's (same name, same identifying labels)."""
    if not query.alerts or not memory.alerts:
        return None
    keys = identifying(query.alert_labels)
    wanted = {_identity(a, keys) for a in query.alerts}
    return next((a for a in memory.alerts if _identity(a, keys) in wanted), None)


def shown(alert: MemoryAlert, query: RecallQuery) -> str:
    """`HighErrorRate{service=payments}`: the name and the labels that made it the same alert."""
    return alert.shown(list(identifying(query.alert_labels)))


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


RECURRING_SHOWN = 5


def _listed(incidents: list[str] | tuple[str, ...]) -> str:
    more = len(incidents) - RECURRING_SHOWN
    return ", ".join(incidents[:RECURRING_SHOWN]) + (f" (+{more} more)" if more > 0 else "")


def recurrence_line(past: list[str], window_days: int, *, found: bool) -> str | None:
    """`4th time in 90 days: INC-…, INC-…` (this incident and the `past` ones, newest first), or,
    with nothing past the relevance judgement (`found` false), `new: nothing like it in memory`."""
    if past:
        return f"{_ordinal(len(past) + 1)} time in {window_days} days: {_listed(past)}"
    return None if found else "new: nothing like it in memory"


@dataclass(frozen=True, slots=True)
class RecurringAlert:
    """An alert that fired for more than one confirmed incident of one service in the window."""

    name: str
    service: str
    incidents: tuple[str, ...]  # newest first

    def line(self, window_days: int) -> str:
        """`HighErrorRate on payments: 3 times in 90 days: INC-…, INC-…`"""
        return f"{self.name} on {self.service}: {len(self.incidents)} times in {window_days} days: {_listed(self.incidents)}"


def recurring_alerts(memories: Iterable[MemoryRecord], since: datetime) -> list[RecurringAlert]:
    """The recurrence line's rule over a whole memory: confirmed or verified memories of one
    service that fired an alert of the same name since `since`, two or more, most first."""
    fired: dict[tuple[str, str], dict[str, tuple[datetime, str]]] = {}
    for memory in memories:
        at = memory.happened_at
        if not memory.reusable or not memory.service or at is None or at < since:
            continue
        for name in dict.fromkeys(a.name for a in memory.alerts):
            fired.setdefault((memory.service.lower(), name), {})[memory.incident_id] = (at, memory.service)
    found = []
    for (_, name), incidents in fired.items():
        if len(incidents) >= 2:
            newest = sorted(incidents.items(), key=lambda item: item[1][0], reverse=True)
            found.append((newest[0][1][0], RecurringAlert(name, newest[0][1][1], tuple(i for i, _ in newest))))
    found.sort(key=lambda pair: (-len(pair[1].incidents), -pair[0].timestamp(), pair[1].name))
    return [alert for _, alert in found]
