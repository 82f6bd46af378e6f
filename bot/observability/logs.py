"""Log lines: JSON (one object per line) or text, with the request context, secrets masked.

Every line goes through `redact`, whatever logged it (our code, Bolt, slack_sdk, aiohttp):
Slack tokens (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-, xapp-), Anthropic keys (sk-ant-), the password
of a PostgreSQL URL, and the exact secrets this process was configured with (signing secret,
tokens, API key) are masked anywhere in the line, tracebacks included.

Message bodies are never logged at info level by this code; keep it that way (a body may hold
anything a responder pasted into the channel).
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from bot.observability.context import FIELDS, current_context

MASK = "[redacted]"
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(xox[abposr]-)[A-Za-z0-9-]+"), r"\1" + MASK),
    (re.compile(r"\b(xapp-)[A-Za-z0-9-]+"), r"\1" + MASK),
    (re.compile(r"\b(sk-ant-)[A-Za-z0-9_-]+"), r"\1" + MASK),
    (re.compile(r"(postgres(?:ql)?://[^:/@\s]+:)[^@\s]+@"), r"\1" + MASK + "@"),
)
_MIN_SECRET_LEN = 8  # shorter values would mask ordinary words
_secrets: set[str] = set()

# LogRecord's own attributes; anything else on a record came from `extra=` and is a field.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "taskName"}


def register_secrets(values: Iterable[str | None]) -> None:
    """Mask these exact values in every log line from now on (e.g. the signing secret)."""
    _secrets.update(v for v in values if v and len(v) >= _MIN_SECRET_LEN)


def redact(text: str) -> str:
    for secret in sorted(_secrets, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, MASK)
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class RedactingFilter(logging.Filter):
    """Masks secrets in a record's message (its args merged in) before any handler formats it."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format string: leave it to the formatter's error path
            return True
        record.msg, record.args = redact(message), None
        return True


class ContextFilter(logging.Filter):
    """Copies the request context onto the record, as it is in the task that logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in current_context().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")}


class JsonFormatter(logging.Formatter):
    """{"time", "level", "logger", "message", request_id, team, channel, incident, latency_ms, ...}"""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(_extras(record))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return redact(json.dumps(entry, default=str, ensure_ascii=False))


class TextFormatter(logging.Formatter):
    """`time LEVEL logger: message [request_id=… team=… …]`, for a terminal."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extras = _extras(record)
        ordered = [k for k in FIELDS if k in extras] + [k for k in extras if k not in FIELDS]
        if ordered:
            tail = " ".join(f"{k}={extras[k]}" for k in ordered)
            head, _, rest = line.partition("\n")  # keep a traceback below the first line
            line = f"{head} [{tail}]" + (f"\n{rest}" if rest else "")
        return redact(line)


def make_handler(log_format: str, stream: Any = None) -> logging.Handler:
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.addFilter(ContextFilter())
    handler.addFilter(RedactingFilter())
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    return handler


def configure_logging(
    *, log_format: str = "json", level: str = "INFO", secrets: Iterable[str | None] = (), stream: Any = None
) -> logging.Handler:
    """Replace the root logger's handlers with one redacting handler; returns it."""
    register_secrets(secrets)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    handler = make_handler(log_format, stream)
    root.addHandler(handler)
    root.setLevel(level.upper())
    return handler
