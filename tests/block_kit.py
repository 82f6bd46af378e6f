"""Block Kit as the tests read it: every text object a message or a view holds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Json = dict[str, Any]


def text_objects(value: Any) -> Iterator[Json]:
    if isinstance(value, dict):
        if value.get("type") in ("mrkdwn", "plain_text") and isinstance(value.get("text"), str):
            yield value
        for child in value.values():
            yield from text_objects(child)
    elif isinstance(value, list):
        for child in value:
            yield from text_objects(child)
