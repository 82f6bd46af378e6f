"""What a team's memory looks like, counted from its memories: pure functions, no I/O."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.models import MemoryRecord, TruthState
from bot.recall.alerts import RecurringAlert, recurring_alerts

MAX_SERVICES = 12  # rows of the heat map; the rest are summed as "other services"
MAX_MONTHS = 24
TOP_ATTEMPTS = 10
NO_SERVICE = "(no service)"
OTHER_SERVICES = "other services"


def month_of(memory: MemoryRecord) -> str:
    """The month an incident happened (when it was stored, if the memory does not say)."""
    return (memory.occurred_at or memory.created_at).strftime("%Y-%m")


def months_between(first: str, last: str) -> list[str]:
    year, month = map(int, first.split("-"))
    out = []
    while f"{year:04d}-{month:02d}" <= last:
        out.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


_WORDS = re.compile(r"[a-z0-9]+")


def attempt_key(action: str) -> str:
    """Failed attempts are counted as the same when their words are (case and punctuation aside)."""
    return " ".join(_WORDS.findall(action.lower()))


@dataclass(frozen=True, slots=True)
class RecurringAttempt:
    action: str  # as first written
    times: int
    services: tuple[str, ...]
    incidents: tuple[str, ...]
    why: tuple[str, ...]  # why it failed, as each memory says (distinct)


@dataclass(frozen=True, slots=True)
class MemoryFigures:
    team_id: str
    total: int
    months: tuple[str, ...]
    services: tuple[str, ...]
    per_service_month: dict[str, dict[str, int]]  # service → month → incidents
    truth_states: dict[str, int]  # every state, in order, zeros included
    recurring_attempts: tuple[RecurringAttempt, ...]
    awaiting_review: tuple[MemoryRecord, ...] = field(default=())
    recurring_alerts: tuple[RecurringAlert, ...] = field(default=())
    window_days: int = 90  # RECURRENCE_WINDOW_DAYS

    @classmethod
    def of(
        cls, team_id: str, memories: list[MemoryRecord], *, window_days: int = 90, now: datetime | None = None
    ) -> MemoryFigures:
        by_service = Counter(m.service or NO_SERVICE for m in memories)
        shown = [s for s, _ in by_service.most_common(MAX_SERVICES)]
        if len(by_service) > MAX_SERVICES:
            shown[-1] = OTHER_SERVICES
        grid: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for m in memories:
            service = m.service or NO_SERVICE
            grid[service if service in shown else OTHER_SERVICES][month_of(m)] += 1
        all_months = sorted({month_of(m) for m in memories})
        months = months_between(all_months[0], all_months[-1])[-MAX_MONTHS:] if all_months else []
        states = Counter(m.truth_state for m in memories)
        awaiting = sorted(
            (m for m in memories if m.truth_state is TruthState.UNCONFIRMED_HYPOTHESIS),
            key=lambda m: m.occurred_at or m.created_at,
        )
        return cls(
            team_id=team_id,
            total=len(memories),
            months=tuple(months),
            services=tuple(shown),
            per_service_month={s: dict(grid[s]) for s in shown},
            truth_states={state.value: states.get(state, 0) for state in TruthState},
            recurring_attempts=recurring_attempts(memories),
            awaiting_review=tuple(awaiting),
            recurring_alerts=tuple(
                recurring_alerts(memories, (now or datetime.now(UTC)) - timedelta(days=window_days))
            ),
            window_days=window_days,
        )

    def as_json(self) -> dict[str, object]:
        return {
            "team_id": self.team_id,
            "memories": self.total,
            "incidents_per_service_and_month": self.per_service_month,
            "truth_states": self.truth_states,
            "recurring_failed_attempts": [
                {
                    "action": a.action,
                    "times": a.times,
                    "services": list(a.services),
                    "incidents": list(a.incidents),
                    "why_it_failed": list(a.why),
                }  # fmt: skip
                for a in self.recurring_attempts
            ],
            "recurring_alerts": [
                {"alert": a.name, "service": a.service, "times": len(a.incidents), "incidents": list(a.incidents)}
                for a in self.recurring_alerts
            ],
            "recurring_alerts_window_days": self.window_days,
            "awaiting_review": [
                {
                    "incident_id": m.incident_id,
                    "title": m.title,
                    "service": m.service,
                    "occurred_at": (m.occurred_at or m.created_at).isoformat(),
                }  # fmt: skip
                for m in self.awaiting_review
            ],
        }


def recurring_attempts(memories: list[MemoryRecord], top: int = TOP_ATTEMPTS) -> tuple[RecurringAttempt, ...]:
    """Failed attempts tried in more than one incident, most repeated first."""
    seen: dict[str, list[tuple[MemoryRecord, str, str]]] = defaultdict(list)
    for m in memories:
        for attempt in m.failed_attempts:
            seen[attempt_key(attempt.action)].append((m, attempt.action, attempt.why_it_failed))
    repeated = []
    for key, uses in seen.items():
        incidents = tuple(dict.fromkeys(m.incident_id for m, _, _ in uses))
        if not key or len(incidents) < 2:
            continue
        services = tuple(dict.fromkeys(m.service or NO_SERVICE for m, _, _ in uses))
        why = tuple(dict.fromkeys(w for _, _, w in uses if w))
        repeated.append(RecurringAttempt(uses[0][1], len(incidents), services, incidents, why))
    repeated.sort(key=lambda a: (-a.times, a.action.lower()))
    return tuple(repeated[:top])


def age_in_days(memory: MemoryRecord, now: datetime) -> int:
    return max(0, (now - (memory.occurred_at or memory.created_at)).days)
