"""What every parser shares: one file's result, reading it safely, and turning fields into a seed.

Parsers are pure: they take a file's text and return drafts, or raise `Rejected` with a reason a
person can act on. Nothing here touches the store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.memory.files import UNNAMED, IdFor, draft_from_json, expected_shape, same_content_id
from bot.models import MemoryDraft, Source, TruthState

MAX_FILE_BYTES = 20 * 1024 * 1024  # a postmortem or a seed export, not a data dump
WHY_SEPARATOR = re.compile(r"\s{1,40}(?:—|–|--|-)\s{1,40}")  # "restarted the pods — it only bought 25 minutes"


_PLACEHOLDER = re.compile(r"^(?:tbd|tba|todo|n/?a|none|unknown|-+|—|\?+|<[^>]*>|\[[^\]]*\]|_+)$", re.I)


def is_placeholder(value: object) -> bool:
    """A template's blank ("TBD", "<name>", "n/a"): never a name that confirms a memory."""
    return isinstance(value, str) and bool(_PLACEHOLDER.match(value.strip().strip("*_").strip() or "-"))


class Rejected(Exception):
    """A file (or one of its records) that cannot become memories; the message says why."""


class NotAnIncident(Rejected):
    """A file that does not report an incident (a template, an index, an empty file): skipped
    with the reason, not an error."""


@dataclass(frozen=True, slots=True)
class ParsedFile:
    """One file's drafts, or the reason it was rejected (then `drafts` is empty)."""

    path: Path
    drafts: list[MemoryDraft] = field(default_factory=list)
    error: str | None = None
    skipped: bool = False  # `error` says why the file is not an incident report
    prose: bool = False  # a written postmortem (Markdown or text), not a CSV or a memory export
    legacy: dict[str, str] = field(default_factory=dict)  # id from content → positional id of before
    format: str | None = None  # a recognised export or page kind ("Jira CSV export", "Confluence page")
    text: str | None = None  # the document as the Markdown reader read it (a web page or Word file made Markdown)


def read_text(path: Path) -> str:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise Rejected(f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB ({size:,} bytes)")
        text = path.read_text(encoding="utf-8-sig")  # -sig: spreadsheets often write a BOM
    except OSError as exc:
        raise Rejected(exc.strerror or str(exc)) from exc
    except UnicodeDecodeError as exc:
        raise Rejected(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    if not text.strip():
        raise NotAnIncident("the file is empty")
    return text


def describe(exc: ValidationError, labels: dict[str, str] | None = None) -> str:
    """Pydantic's errors in words, naming each field (or the section it came from)."""
    parts = []
    for err in exc.errors():
        loc = [str(p) for p in err["loc"]]
        if loc and labels and loc[0] in labels:
            loc[0] = labels[loc[0]]
        where = ".".join(loc) or "record"
        msg = expected_shape(err) or err["msg"]
        if err["type"] == "string_too_long":
            msg = f"too long ({len(str(err.get('input', ''))):,} characters; at most {err['ctx']['max_length']:,})"
        parts.append(f"{where}: {msg}")
    return "; ".join(parts)


def seed_draft(
    fields: dict[str, Any],
    *,
    team_id: str,
    labels: dict[str, str] | None = None,
    provenance: dict[str, Any] | None = None,
) -> MemoryDraft:
    """A seed memory from a record's fields, or Rejected naming what is wrong.

    A seed is `unconfirmed_hypothesis` unless the record names who confirmed it: then it is
    `human_confirmed`. A record may not claim a confirmed state without saying who confirmed it,
    nor another source: importing is how seeds are made, other provenance goes through `retain`.
    """
    data = {k: v for k, v in fields.items() if v is not None}
    if provenance is not None:
        data["provenance"] = provenance
    if is_placeholder(data.get("verified_by")):
        del data["verified_by"]  # "Confirmed by: TBD" confirms nothing
    if data.setdefault("team_id", team_id) != team_id:
        raise Rejected(f"team_id: {data['team_id']!r} is not the team being imported into ({team_id!r}; see --team)")
    source = data.setdefault("source", Source.SEED.value)
    if source != Source.SEED.value:
        raise Rejected(f"source: {source!r} cannot be imported (imports are seeds; use `incident-memory retain`)")
    state = data.get("truth_state")
    confirmed = (TruthState.HUMAN_CONFIRMED.value, TruthState.VERIFICATION_CONFIRMED.value)
    if state in confirmed and not data.get("verified_by"):
        raise Rejected(f"truth_state: {state!r} needs verified_by (who confirmed it)")
    try:
        draft = draft_from_json(data, team_id=team_id)
    except ValidationError as exc:
        raise Rejected(describe(exc, labels)) from exc
    except ValueError as exc:  # not an object
        raise Rejected(str(exc)) from exc
    # a bare date means UTC: the same file must give the same content on any machine
    naive = {
        name: moment.replace(tzinfo=UTC)
        for name in ("occurred_at", "resolved_at", "verified_at")
        if (moment := getattr(draft, name)) is not None and moment.tzinfo is None
    }
    return draft.model_copy(update=naive) if naive else draft


MAX_PROBLEMS = 20


class DraftCollector:
    """The drafts of a file with many records (CSV rows, JSON Lines): every bad record is kept
    with its line, and the file is rejected whole if there is any (nothing half-read). A record
    without an id is named by `incident_id_for(row, draft)` (identity.RowIds: from its content)."""

    def __init__(self, *, team_id: str, incident_id_for: IdFor | None = None) -> None:
        self._team_id = team_id
        self._incident_id_for = incident_id_for
        self._drafts: dict[str, MemoryDraft] = {}
        self._lines: dict[str, int] = {}
        self._problems: list[str] = []

    def problem(self, line: int, text: str) -> None:
        self._problems.append(f"line {line}: {text}")

    def add(self, line: int, fields: dict[str, Any], *, row: int | None = None) -> None:
        """`row`: the record's position, which ids were derived from before (default: its line)."""
        unnamed = self._incident_id_for is not None and not fields.get("incident_id") and not fields.get("id")
        try:
            draft = seed_draft({**fields, "incident_id": UNNAMED} if unnamed else fields, team_id=self._team_id)
        except Rejected as exc:
            self.problem(line, str(exc))
            return
        if unnamed:
            assert self._incident_id_for is not None
            draft = draft.model_copy(update={"incident_id": self._incident_id_for(line if row is None else row, draft)})
        first = self._lines.setdefault(draft.incident_id, line)
        if self._drafts.setdefault(draft.incident_id, draft) != draft:
            if unnamed:
                self.problem(line, same_content_id(draft.incident_id, first))
            else:
                self.problem(line, f"incident_id {draft.incident_id!r} appears again with other content")

    def drafts(self) -> list[MemoryDraft]:
        if self._problems:
            more = f"; … and {len(self._problems) - MAX_PROBLEMS} more" if len(self._problems) > MAX_PROBLEMS else ""
            raise Rejected("; ".join(self._problems[:MAX_PROBLEMS]) + more)
        return list(self._drafts.values())
