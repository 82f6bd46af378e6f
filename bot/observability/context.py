"""Request context for log lines: request id, team, channel, incident.

One ContextVar holds an immutable mapping. The /slack/events middleware opens a scope per
request; services `bind` the incident once they know it. Background work started during the
request inherits the context, because asyncio copies contextvars into every task it creates.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any

FIELDS = ("request_id", "team", "channel", "incident")

_EMPTY: Mapping[str, Any] = MappingProxyType({})
_context: ContextVar[Mapping[str, Any]] = ContextVar("incident_memory_log_context", default=_EMPTY)
# When this request reached the web server (time.monotonic): Slack's 3 s runs from then, not from
# the moment a listener starts, so budgets inside a listener are taken from what is left of it.
_arrived: ContextVar[float | None] = ContextVar("incident_memory_request_arrived", default=None)


def current_context() -> Mapping[str, Any]:
    return _context.get()


def request_age() -> float:
    """Seconds since this request reached the web server (0.0 outside a request)."""
    arrived = _arrived.get()
    return 0.0 if arrived is None else max(0.0, time.monotonic() - arrived)


@contextmanager
def arrived_at(moment: float) -> Iterator[None]:
    """Mark when the request being served arrived (time.monotonic), for `request_age`."""
    token = _arrived.set(moment)
    try:
        yield
    finally:
        _arrived.reset(token)


def bind(**fields: Any) -> None:
    """Add fields (None values are skipped) to the context of this task from now on."""
    fields = {k: v for k, v in fields.items() if v is not None}
    if fields:
        _context.set(MappingProxyType({**_context.get(), **fields}))


@contextmanager
def request_scope(**fields: Any) -> Iterator[None]:
    """A fresh context for one request; what was bound inside is gone afterwards."""
    token = _context.set(MappingProxyType({k: v for k, v in fields.items() if v is not None}))
    try:
        yield
    finally:
        _context.reset(token)
