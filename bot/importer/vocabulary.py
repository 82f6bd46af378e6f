"""What a postmortem heading means: its kind of section, from the phrases in
bot/data/postmortem_sections.json (data, so a team's own headings are one line to add)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

KINDS = (
    "metadata", "timeline", "failed_attempts", "lesson", "action_items", "root_cause", "contributing", "resolution",
    "diagnosis", "impact", "symptoms", "error_message", "summary", "alerts",
)  # fmt: skip


def normalize_heading(text: str) -> str:
    """'2. Root Cause of the Outage?' → 'root cause of the outage'; apostrophes kept ("didn't")."""
    text = text.lower().replace("’", "'").replace("‘", "'")
    text = re.sub(r"[`*~]", "", text).replace("_", " ")
    text = re.sub(r"^\s*(?:[\divx]+[.)]|\d+(?:\.\d+)*)\s+", "", text)  # "2.", "iv)", "3.1 "
    text = re.sub(r"[^a-z0-9' ]+", " ", text)
    return " ".join(text.replace(" '", " ").replace("' ", " ").split()).strip("'")


@lru_cache(maxsize=1)
def _phrases() -> tuple[tuple[str, re.Pattern[str]], ...]:
    data = json.loads(resources.files("bot").joinpath("data/postmortem_sections.json").read_text(encoding="utf-8"))
    kinds: dict[str, list[str]] = data["kinds"]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        raise ValueError(f"postmortem_sections.json: unknown kinds {sorted(unknown)}")
    # longest phrase first: an alternation takes the first that matches ("impact analysis", not "impact")
    return tuple(
        (
            kind,
            re.compile(
                r"(?<![a-z0-9'])(?:"
                + "|".join(re.escape(p) for p in sorted(kinds[kind], key=len, reverse=True))
                + r")(?![a-z0-9'])"
            ),
        )
        for kind in KINDS
        if kinds.get(kind)
    )


def section_kind(heading: str) -> str | None:
    """The kind of section a heading opens, or None when it is not one a memory uses."""
    name = normalize_heading(heading)
    if not name or len(name) > 80:
        return None
    best: tuple[int, str] | None = None  # the longest phrase found wins: "immediate actions" over "actions"
    for kind, pattern in _phrases():
        for match in pattern.finditer(name):
            if best is None or len(match.group(0)) > best[0]:
                best = (len(match.group(0)), kind)
    return best[1] if best else None
