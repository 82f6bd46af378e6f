"""The command line's one output layer: a result as text or JSON on stdout, errors the same way
(`{"error": …}` under --json, `error: …` on stderr otherwise), notes on stderr.

Text is printed as plain text, never through rich markup: a stored `[human_confirmed]` or
`[bold]` prints as typed.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from typing import Any

from bot.models import MemoryRecord, RecallMatch
from bot.recall.judgement import tier_said

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
EXIT_SIGINT, EXIT_SIGTERM = 130, 143  # the shell's 128 + signal number


class CommandFailed(Exception):
    """A failure already worded for the user."""


class Output:
    def __init__(self, *, json_mode: bool = False) -> None:
        self.json_mode = json_mode

    def result(self, payload: Any, text: str) -> None:
        if self.json_mode:
            print(json.dumps(payload, indent=2, default=str, ensure_ascii=False))
        else:
            print(text)

    def error(self, message: str) -> None:
        if self.json_mode:
            print(json.dumps({"error": message}, ensure_ascii=False))
        else:
            print(f"error: {message}", file=sys.stderr)

    @staticmethod
    def note(text: str) -> None:
        print(text, file=sys.stderr)


# ---- a memory as text: every field the JSON has ---------------------------------------------


def when(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M UTC") if value else ""


# (field, label) in the order a person reads them; `show` prints every one that has a value
TEXT_FIELDS: tuple[tuple[str, str], ...] = (
    ("symptoms", "symptoms"),
    ("error_message", "error"),
    ("root_cause", "root cause"),
    ("diagnosis", "how it was found"),
    ("resolution", "fix"),
    ("lesson", "lesson"),
    ("notes", "notes"),
    ("verification_note", "verification"),
)
META_FIELDS: tuple[tuple[str, str], ...] = (
    ("service", "service"),
    ("severity", "severity"),
    ("verified_by", "confirmed by"),
    ("verified_at", "confirmed at"),
    ("superseded_by", "superseded by"),
)
RECORD_FIELDS: tuple[tuple[str, str], ...] = (
    ("team_id", "team"),
    ("source", "source"),
    ("channel_id", "channel"),
    ("occurred_at", "occurred"),
    ("resolved_at", "resolved"),
    ("created_at", "stored"),
    ("updated_at", "updated"),
)


def _value(value: Any) -> str:
    if isinstance(value, datetime):
        return when(value)
    return str(value.value if hasattr(value, "value") else value)


def memory_text(m: MemoryRecord, *, full: bool = True) -> str:
    """A memory for a terminal. `full` (show) adds where it came from and its truth history."""
    lines = [f"{m.incident_id}  {m.title}"]
    meta = [f"truth: {m.truth_state.value}"]
    meta += [f"{label}: {_value(getattr(m, name))}" for name, label in META_FIELDS if getattr(m, name)]
    if m.verified_by:  # the Slack user id is what is stored; the name is shown beside it
        meta = [f"confirmed by {m.shown_verifier}" if item.startswith("confirmed by") else item for item in meta]
    if m.is_private:
        meta.append("private channel")
    lines.append("  " + " · ".join(meta))
    if full:
        record = [f"{label}: {_value(getattr(m, name))}" for name, label in RECORD_FIELDS if getattr(m, name)]
        lines.append("  " + " · ".join(record))
        if m.tags:
            lines.append(f"  tags: {', '.join(m.tags)}")
    for name, label in TEXT_FIELDS:
        if value := getattr(m, name):
            lines.append(f"  {label}: {value}")
    for attempt in m.failed_attempts:
        why = f" — {attempt.why_it_failed}" if attempt.why_it_failed else ""
        lines.append(f"  did not work: {attempt.action}{why}")
    for c in m.corrections:
        lines.append(f"  correction by {c.shown_author} ({when(c.created_at)}): {c.text}")
    if full and m.provenance is not None:  # where an imported memory's fields came from
        lines.append(f"  imported from {m.provenance.file} by {m.provenance.extractor}")
        lines += [f"    {name}: {where}" for name, where in m.provenance.fields.items()]
    if full:
        for t in m.transitions:
            successor = f" (by {t.successor_id})" if t.successor_id else ""
            reason = f": {t.reason}" if t.reason else ""
            lines.append(
                f"  {t.from_state.value} → {t.to_state.value}{successor} by {t.shown_actor} on {when(t.at)}{reason}"
            )
    return "\n".join(lines)


def match_text(rank: int, match: RecallMatch) -> str:
    m = match.memory
    if match.successor_id:
        return f"{rank}. {m.incident_id} (superseded) → see {match.successor_id}  score {match.score:.3f}"
    components = ", ".join(f"{k} {v:.2f}" for k, v in match.score_components.items() if k != "score")
    return "\n".join(
        [
            f"{rank}. {memory_text(m, full=False)}",
            f"  {tier_said(match)} · probability {match.probability:.2f} · relevance {match.relevance:.2f}"
            f" · score {match.score:.3f} ({components})",
            *(f"  why: {r}" for r in match.reasons),
        ]
    )
