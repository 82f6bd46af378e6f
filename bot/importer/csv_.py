"""Postmortems as CSV: a header row, then one incident per row.

Columns are memory field names (case and spaces do not matter: `Root cause` is `root_cause`):

    incident_id (or id), title, service, severity, symptoms, error_message, root_cause,
    diagnosis, resolution, failed_attempts, lesson, truth_state, verified_by (or confirmed_by),
    verified_at, verification_note, tags, channel_id, is_private, occurred_at, resolved_at

Only `title` is required. An empty cell is no value. `failed_attempts` is either a JSON list
(`[{"action": "...", "why_it_failed": "..."}]`, or a list of strings) or plain text:
`action — why; action — why` (attempts apart by `;` or a new line, the reason after ` — `,
` – `, ` -- ` or ` - `). `tags` is a JSON list or `a, b, c`. A row without an incident_id gets
`pm-<hash of title + date + service>` (identity.py): rows may be reordered and the file renamed.
An unknown column rejects the whole file: a misspelt column would otherwise drop data silently.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from bot.importer.drafts import WHY_SEPARATOR, DraftCollector, IdFor, Rejected
from bot.models import MemoryDraft

COLUMNS = frozenset(MemoryDraft.model_fields) - {"team_id", "superseded_by"}
ALIASES = {"id": "incident_id", "confirmed_by": "verified_by"}
# a cell's attempts, one per line or after a ";" (each part stripped: a leading \s* tried from every space of a long
# run made the split quadratic, 5.4 s for 20,000 spaces)
_ATTEMPT_SEPARATOR = re.compile(r"[;\n]")


def _column(name: str) -> str:
    key = "_".join(name.strip().lower().replace("-", " ").split())
    return ALIASES.get(key, key)


def _json_list(cell: str, column: str) -> list[Any] | None:
    if not cell.startswith("["):
        return None
    try:
        value = json.loads(cell)
    except json.JSONDecodeError as exc:
        raise Rejected(f"{column}: broken JSON at column {exc.colno}: {exc.msg}") from exc
    if not isinstance(value, list):
        raise Rejected(f"{column}: expected a JSON list")
    return value


def failed_attempts_cell(cell: str) -> list[Any]:
    as_json = _json_list(cell, "failed_attempts")
    if as_json is not None:
        return [{"action": a} if isinstance(a, str) else a for a in as_json]
    attempts = []
    for part in (p.strip() for p in _ATTEMPT_SEPARATOR.split(cell)):
        if part:
            action, why = (WHY_SEPARATOR.split(part, maxsplit=1) + [""])[:2]
            attempts.append({"action": action, "why_it_failed": why})
    return attempts


def _row_fields(row: dict[str, str]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for column, cell in row.items():
        cell = (cell or "").strip()
        if not cell:
            continue
        if column == "failed_attempts":
            fields[column] = failed_attempts_cell(cell)
        elif column == "tags":
            as_json = _json_list(cell, "tags")
            fields[column] = as_json if as_json is not None else [t.strip() for t in cell.split(",") if t.strip()]
        else:
            fields[column] = cell
    return fields


def parse_csv(
    text: str, *, team_id: str, incident_id_for: IdFor, column_map: dict[str, str] | None = None
) -> list[MemoryDraft]:
    """Every row as a seed draft, or Rejected listing every bad row by line (nothing half-read).
    `column_map` (--map, lower-cased column → field or '-') renames columns first; '-' drops one."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except csv.Error as exc:
        raise Rejected(f"header: {exc}") from exc
    mapped = column_map or {}
    columns = [mapped.get(c.strip().lower()) or _column(c) for c in header]
    unknown = [h for h, c in zip(header, columns, strict=False) if c not in COLUMNS and c != "-"]
    if unknown:
        raise Rejected(
            f"unknown column {', '.join(map(repr, unknown))} (known: {', '.join(sorted(COLUMNS))}; "
            "or map it with --map 'Column=field', '-' to leave it out)"
        )
    kept = [c for c in columns if c != "-"]
    if len(set(kept)) != len(kept):
        raise Rejected("a column appears twice in the header")
    if "title" not in columns:
        raise Rejected("no 'title' column")
    collected = DraftCollector(team_id=team_id, incident_id_for=incident_id_for)
    number = 0
    while True:
        line = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:  # e.g. a field over the csv module's 128 KB limit: far over ours
            raise Rejected(f"line {line}: {exc}") from exc
        if not any(c.strip() for c in cells):
            continue
        number += 1
        if len(cells) != len(columns):
            collected.problem(line, f"{len(cells)} cells for {len(columns)} columns")
            continue
        try:
            fields = _row_fields({c: v for c, v in zip(columns, cells, strict=False) if c != "-"})
        except Rejected as exc:
            collected.problem(line, str(exc))
            continue
        collected.add(line, fields, row=number)  # row: before content ids, ids came from it
    drafts = collected.drafts()
    if not drafts:
        raise Rejected("no rows under the header")
    return drafts
