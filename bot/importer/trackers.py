"""Incidents kept in a tracker (Jira / Jira Service Management, PagerDuty) → one postmortem
document each, read by the Markdown reader like any other (one document model):

    ---                                   the tracker's own fields, as front matter:
    incident id: OPS-42                   its key is the memory's id
    started: 2024-03-02T10:02:00+00:00    created → occurred_at, resolved → resolved_at
    service: checkout / severity: P1      component (or a --map'ped field), priority
    ---
    # Checkout returns 500s               the summary / title
    the description                       its own headings (Jira's h2. Root cause) stay sections
    ## Timeline
    - 2024-03-02T10:15:00+00:00 — restarted the pods, still failing (Alice Smith)

Each comment or note is a timeline entry with its author and time, so the timeline's reading
(bot/importer/timeline.py) finds the attempts that failed and the fix as it does in a postmortem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import yaml

from bot.importer.dates import parse_date


@dataclass(slots=True)
class Note:
    when: str
    text: str
    author: str = ""


@dataclass(slots=True)
class TrackedIncident:
    key: str
    title: str
    created: str = ""
    resolved: str = ""
    service: str = ""
    severity: str = ""
    description: str = ""
    sections: dict[str, str] = field(default_factory=dict)  # a named field → its section ("Root cause")
    notes: list[Note] = field(default_factory=list)

    def markdown(self) -> str:
        meta = {"incident id": self.key}  # the title is the heading: the description is the text under it
        for key, value in (("started", self.created), ("resolved", self.resolved)):
            if value:
                meta[key] = iso(value)
        meta.update({k: v for k, v in (("service", self.service), ("severity", self.severity)) if v})
        parts = [f"---\n{yaml.safe_dump(meta, allow_unicode=True, sort_keys=False)}---", f"# {self.title}"]
        if self.description.strip():
            parts.append(self.description.strip())
        parts += [f"## {name}\n\n{text.strip()}" for name, text in self.sections.items() if text.strip()]
        entries = [_entry(n) for n in sorted(self.notes, key=lambda n: iso(n.when)) if n.text.strip()]
        if entries:
            parts.append("## Timeline\n\n" + "\n".join(entries))
        return "\n\n".join(parts) + "\n"


def _entry(note: Note) -> str:
    text = " ".join(note.text.split())
    author = f" ({note.author})" if note.author else ""
    return f"- {iso(note.when)} — {text}{author}"


def iso(value: str) -> str:
    """A tracker's timestamp as ISO 8601 (Jira's CSV writes "02/Mar/24 10:15 AM", its API
    "2024-03-02T10:15:00.000+0000"); left as written when it is not a date."""
    value = value.strip()
    for pattern in ("%d/%b/%y %I:%M %p", "%d/%b/%Y %I:%M %p", "%d/%b/%y %H:%M", "%Y-%m-%dT%H:%M:%S.%f%z"):
        try:
            return datetime.strptime(value, pattern).isoformat()
        except ValueError:
            continue
    moment = parse_date(value) if value else None
    return moment.isoformat() if moment else value


_WIKI_HEADING = re.compile(r"^h([1-6])\.\s+", re.M)
_WIKI_BULLET = re.compile(r"^([*#]+)\s+", re.M)
# a macro's braces ("{code:java}", "{panel:title=…}") and a mention ("[~alice]"), each closed within a bound: a crafted
# run of "{code" or "[~" with none closed was read to the text's end from each (1.1 s for 40k characters)
_WIKI_NOISE = re.compile(r"\{(?:code|noformat|quote|panel|color)[^}]{0,500}\}|\[~[^\]]{0,200}\]")


def wiki_to_markdown(text: str) -> str:
    """Jira wiki markup's structure (h2. headings, * and # lists) as Markdown; the rest as text."""
    text = _WIKI_HEADING.sub(lambda m: "#" * int(m.group(1)) + " ", text.replace("\r\n", "\n"))
    text = _WIKI_BULLET.sub(lambda m: "  " * (len(m.group(1)) - 1) + ("1. " if m.group(1)[-1] == "#" else "- "), text)
    return _WIKI_NOISE.sub("", text)


def adf_to_markdown(node: Any, depth: int = 0) -> str:
    """Atlassian Document Format (Jira Cloud's REST v3 descriptions and comments) as Markdown."""
    if isinstance(node, str):
        return wiki_to_markdown(node)
    if not isinstance(node, dict):
        return ""
    kind = node.get("type")
    children = node.get("content") or []
    if kind == "text":
        return str(node.get("text", ""))
    if kind == "hardBreak":
        return "\n"
    if kind in ("mention", "emoji", "date", "status", "inlineCard"):
        attrs = node.get("attrs") or {}
        return str(attrs.get("text") or attrs.get("url") or attrs.get("timestamp") or "")
    if kind in ("bulletList", "orderedList"):
        marker = "1." if kind == "orderedList" else "-"
        items = [adf_to_markdown(c, depth + 1).strip() for c in children]
        return "\n".join(f"{'  ' * depth}{marker} {i}" for i in items if i) + "\n\n"
    inner = "".join(adf_to_markdown(c, depth) for c in children)
    if kind == "heading":
        return f"{'#' * int((node.get('attrs') or {}).get('level', 2))} {inner}\n\n"
    if kind == "codeBlock":
        return f"```\n{inner}\n```\n\n"
    if kind in ("paragraph", "blockquote", "panel", "expand"):
        return inner + "\n\n"
    return inner
