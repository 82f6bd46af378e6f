"""What every receiver reads a vendor's payload into. Pure: no Slack, no HTTP, no SQL.

Everything a vendor sends is bounded here, once: how many alerts, labels and annotations, and
how long each key and value may be. Labels and annotations stay data (shown escaped in Slack,
fenced in prompts); nothing in them is ever an instruction.
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

MAX_ALERTS = 100  # per delivery; the rest are counted, not kept
MAX_LABELS = 40
MAX_ANNOTATIONS = 20
MAX_KEY_CHARS = 100
MAX_LABEL_CHARS = 300
MAX_ANNOTATION_CHARS = 1_000
MAX_NAME_CHARS = 200


class Source(StrEnum):
    ALERTMANAGER = "alertmanager"
    GRAFANA = "grafana"
    PAGERDUTY = "pagerduty"
    OPSGENIE = "opsgenie"


class Status(StrEnum):
    FIRING = "firing"
    RESOLVED = "resolved"


class Malformed(ValueError):
    """Not a payload the vendor sends; the message says what is missing (never what it held)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Alert(_Strict):
    """One alert as the vendor named it: `key` identifies it across deliveries (Alertmanager's
    fingerprint, PagerDuty's incident id, Opsgenie's alertId)."""

    key: str = Field(max_length=MAX_LABEL_CHARS)
    status: Status
    name: str = Field(max_length=MAX_NAME_CHARS)
    labels: dict[str, str] = Field(default_factory=dict)
    annotations: dict[str, str] = Field(default_factory=dict)
    starts_at: datetime | None = None
    ends_at: datetime | None = None
    url: str | None = Field(default=None, max_length=MAX_LABEL_CHARS)


class AlertBatch(_Strict):
    """One delivery: a group of alerts (Alertmanager, Grafana) or one event (PagerDuty, Opsgenie).
    `dedupe_key` is the same for a retry or a repeat of the same content, so it is stored once."""

    source: Source
    dedupe_key: str = Field(max_length=200)
    status: Status
    alerts: tuple[Alert, ...]
    common_labels: dict[str, str] = Field(default_factory=dict)
    truncated: int = 0  # alerts left out (the vendor's own truncation plus ours)

    def labels(self) -> dict[str, str]:
        """What a route matches: the labels every alert shares, else the first alert's."""
        if self.common_labels:
            return dict(self.common_labels)
        return dict(self.alerts[0].labels) if self.alerts else {}


def bounded(mapping: Any, *, items: int, chars: int) -> dict[str, str]:
    """A vendor's map of strings, at most `items` entries of bounded keys and values; other
    value types are written out as text (Grafana's numbers, Opsgenie's details)."""
    if not isinstance(mapping, dict):
        return {}
    kept: dict[str, str] = {}
    for key, value in list(mapping.items())[:items]:
        if value is None or isinstance(value, (dict, list)):
            continue
        kept[str(key)[:MAX_KEY_CHARS]] = str(value)[:chars]
    return kept


def labels_of(mapping: Any) -> dict[str, str]:
    return bounded(mapping, items=MAX_LABELS, chars=MAX_LABEL_CHARS)


def annotations_of(mapping: Any) -> dict[str, str]:
    return bounded(mapping, items=MAX_ANNOTATIONS, chars=MAX_ANNOTATION_CHARS)


_FRACTION = re.compile(r"(\.\d{6})\d+")
_ZERO_TIME = "0001-01-01"


def timestamp(value: Any) -> datetime | None:
    """RFC 3339 (nanoseconds allowed, as Go writes them) or epoch milliseconds; Go's zero time
    ("0001-01-01T00:00:00Z": not ended) and anything unreadable are None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        # seconds, milliseconds (Opsgenie's createdAt) or nanoseconds (its updatedAt)
        seconds = (
            value / 1e9 if value > 1e17 else value / 1e6 if value > 1e14 else value / 1e3 if value > 1e11 else value
        )
        try:
            return datetime.fromtimestamp(seconds, tz=UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if not isinstance(value, str) or not value or value.startswith(_ZERO_TIME):
        return None
    text = _FRACTION.sub(r"\1", value.strip()).replace("Z", "+00:00")
    try:
        parsed = datetime.fromisoformat(text[:40])
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def digest(*parts: str) -> str:
    """A fixed-length key for an arbitrary-length identity (Alertmanager's groupKey can be long)."""
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def text_field(value: Any, limit: int = MAX_LABEL_CHARS) -> str:
    return value[:limit] if isinstance(value, str) else ""


def require(condition: bool, what: str) -> None:
    if not condition:
        raise Malformed(what)


def keep_first(alerts: list[Alert], truncated: int = 0) -> tuple[tuple[Alert, ...], int]:
    return tuple(alerts[:MAX_ALERTS]), truncated + max(0, len(alerts) - MAX_ALERTS)
