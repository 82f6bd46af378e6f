"""Observability: structured logs with request context, secrets redacted, and Prometheus metrics.

- `context`: request id, team, channel, incident carried through a request and the background
  work it starts (contextvars: an asyncio task copies them when it is created).
- `logs`: JSON or text log lines, every line passed through `redact`.
- `metrics`: one `Metrics` per app, on its own CollectorRegistry, served on GET /metrics.
- `slack`: Slack Web API errors and 429s, seen by a retry handler (so retried 429s count too).
- `store`: store errors, counted at the store boundary.
- `web`: the aiohttp middleware on /slack/events (context, event counts, ack latency).

The domain (bot/models.py, bot/recall) knows nothing of this package.
"""

from bot.observability.context import bind, current_context, request_scope
from bot.observability.logs import RedactingFilter, configure_logging, redact
from bot.observability.metrics import Metrics

__all__ = ["Metrics", "RedactingFilter", "bind", "configure_logging", "current_context", "redact", "request_scope"]
