"""The alerts a postmortem names, as the memory keeps them (bot.models.MemoryAlert): its front
matter `alerts:`, or an "Alerts" / "Alerts fired" section (bot/data/postmortem_sections.json).

    alerts:                                   ## Alerts fired
      - name: HighErrorRate                   - `HighErrorRate{service=payments}` fired at 14:02
        labels: {service: payments}           - KubePodCrashLooping{namespace=prod}

Precision first: an item that is not a map with a name, nor `Name` / `Name{key=value,...}`
written as a rule names an alert, is left out rather than guessed at. In a section, where prose is
common ("We got an alert email from letsencrypt"), a line names an alert only as a code span, or
as the whole line written like a rule's name (`HighErrorRate`, `disk_full`, or with its labels).
"""

from __future__ import annotations

import re
from typing import Any

from bot.models import MAX_ALERT_LABELS, MAX_ALERTS

_NAME = r"[A-Za-z_][\w:.-]{0,199}"
_WRITTEN = re.compile(rf"^\s*({_NAME})\s*(?:\{{([^{{}}]{{0,4000}})\}})?\s*$")
_RUN = re.compile(r"[^,{]+")
_PAIR = re.compile(r"^\s*([A-Za-z_]\w{0,99})\s*=\s*\"?([^\"]{0,300}?)\"?\s*$")


def _items(text: str) -> list[str]:
    r"""`A, B{x=1,y=2}` as "A" and " B{x=1,y=2}": a run up to a comma or a brace, with what follows it from a "{" to
    the first "}" (the items `[^,{]+(?:\{[^}]*\})?` finds, in linear work: that pattern read a line of "{a" to its
    end from every "{", 0.3 s for 20,000 characters; here the next "}" is looked for once per stretch)."""
    items: list[str] = []
    at, close = 0, None  # close: the first "}" past the last brace looked at (-1: none left)
    while (run := _RUN.search(text, at)) is not None:
        end = run.end()
        if end < len(text) and text[end] == "{":
            if close is None or (close != -1 and close < end):
                close = text.find("}", end + 1)
            if close != -1:
                end = close + 1
        items.append(text[run.start() : end])
        at = end
    return items


def _labels(mapping: Any) -> dict[str, str] | None:
    if not isinstance(mapping, dict):
        return None
    return {str(k)[:100]: str(v)[:300] for k, v in list(mapping.items())[:MAX_ALERT_LABELS] if v is not None}


def _written(text: str) -> dict[str, Any] | None:
    """`HighErrorRate{service=payments}` (Prometheus' way of writing an alert), or None."""
    found = _WRITTEN.match(text[:4500])
    if not found:
        return None
    labels: dict[str, str] = {}
    for pair in (found.group(2) or "").split(",")[:MAX_ALERT_LABELS]:
        if not pair.strip():
            continue
        kv = _PAIR.match(pair)
        if not kv:
            return None
        labels[kv.group(1)] = kv.group(2)
    return {"name": found.group(1), "labels": labels}


_MARKER = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
_CODE = re.compile(r"`([^`]{1,4500})`")
_RULE_NAME = re.compile(
    r"^(?:[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+|[A-Za-z][\w.-]*[_:][\w:.-]*)$"
)  # CamelCase, snake_case
SECTION_LINES = 200


def _named(text: str) -> dict[str, Any] | None:
    alert = _written(text)
    return alert if alert and (alert["labels"] or _RULE_NAME.match(alert["name"])) else None


def _in_line(line: str) -> list[dict[str, Any]]:
    cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else None
    candidate = cells[0] if cells else _MARKER.sub("", line).strip()
    code = _CODE.match(candidate)
    if code:  # `HighErrorRate{service=payments}` fired at 14:02
        alert = _written(code.group(1))
        return [alert] if alert else []
    named = [_named(item) for item in _items(candidate)]  # HighErrorRate, DiskFull{host=db1}
    return [a for a in named if a] if named and all(named) else []


def alerts_in_section(text: str) -> list[dict[str, Any]]:
    """The alerts an "Alerts" section lists (a list item, a table row's first cell, `A, B{x=1}`)."""
    kept: list[dict[str, Any]] = []
    for line in text.splitlines()[:SECTION_LINES]:
        kept += [a for a in _in_line(line[:5000]) if a not in kept]
    return kept[:MAX_ALERTS]


def alerts_from(value: Any) -> list[dict[str, Any]]:
    """The alerts front matter names: a list of maps (`name`, `labels`) or of written alerts, or
    one string of written alerts separated by commas; unreadable items are left out."""
    if isinstance(value, str):
        items: list[Any] = _items(value[:20_000])
    elif isinstance(value, list):
        items = value
    else:
        return []
    kept: list[dict[str, Any]] = []
    for item in items[: MAX_ALERTS * 2]:
        if isinstance(item, dict):
            name, labels = item.get("name") or item.get("alertname"), _labels(item.get("labels") or {})
            alert = {"name": name.strip()[:200], "labels": labels} if isinstance(name, str) and name.strip() else None
            alert = alert if labels is not None else None
        else:
            alert = _written(str(item)) if isinstance(item, str) else None
        if alert is not None and alert not in kept:
            kept.append(alert)
    return kept[:MAX_ALERTS]
