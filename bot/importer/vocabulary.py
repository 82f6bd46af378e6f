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


def _alternation(phrases: list[str]) -> re.Pattern[str]:
    # longest phrase first: an alternation takes the first that matches ("impact analysis", not "impact")
    return re.compile(
        r"(?<![a-z0-9'])(?:"
        + "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
        + r")(?![a-z0-9'])"
    )


@lru_cache(maxsize=1)
def _data() -> tuple[dict[str, list[str]], list[str]]:
    data = json.loads(resources.files("bot").joinpath("data/postmortem_sections.json").read_text(encoding="utf-8"))
    kinds: dict[str, list[str]] = data["kinds"]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        raise ValueError(f"postmortem_sections.json: unknown kinds {sorted(unknown)}")
    return kinds, data.get("root_cause_mechanism", [])


@lru_cache(maxsize=1)
def _phrases() -> tuple[tuple[str, re.Pattern[str]], ...]:
    kinds, mechanism = _data()
    # a heading that tells the mechanism ("Technical details") opens a root cause section all the same
    kinds = {**kinds, "root_cause": [*kinds.get("root_cause", []), *mechanism]}
    return tuple((kind, _alternation(kinds[kind])) for kind in KINDS if kinds.get(kind))


@lru_cache(maxsize=1)
def _names_a_cause() -> re.Pattern[str]:
    return _alternation(_data()[0].get("root_cause", []))


def names_the_cause(heading: str) -> bool:
    """Whether a root cause section's heading names the cause ("Root cause", "Why did it happen", "Trigger") rather
    than only heading the mechanism told at length ("Analysis", "Technical details", "The vulnerability"): one of
    its phrases is a root cause phrase of the data that is not a `root_cause_mechanism` one."""
    return _names_a_cause().search(normalize_heading(heading)[:80]) is not None


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


@lru_cache(maxsize=1)
def _response_review() -> tuple[frozenset[str], frozenset[str]]:
    data = json.loads(resources.files("bot").joinpath("data/postmortem_sections.json").read_text(encoding="utf-8"))
    pair = data.get("response_review", {})
    return frozenset(pair.get("worked", [])), frozenset(pair.get("did_not_work", []))


def judges_the_response(heading: str, beside: list[str]) -> bool:
    """Whether a "What didn't work" heading is the second half of a retrospective's "What worked / What didn't
    work" pair (`beside`: the headings next to it at its level): then its list judges the response (no alerting, a
    clean-up that only runs once it fails), a critique, never the steps tried during the incident."""
    worked, did_not_work = _response_review()
    return normalize_heading(heading) in did_not_work and any(normalize_heading(b) in worked for b in beside)
