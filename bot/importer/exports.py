"""Which tracker export a CSV or JSON file is, and its incidents as drafts; and the column map
(`--map 'Summary=title,Key=incident_id'` or a YAML file) for any other CSV.

A recognised export (Jira CSV or REST JSON, PagerDuty REST JSON or analytics CSV) is named in the
report, its own key is each memory's id, and its columns that are not memory fields are left
out (a Jira export has a hundred). Any other CSV is the memory-field CSV of csv_.py, where a
column neither known nor mapped still refuses the file; mapping it to `-` leaves it out.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path, PurePath
from typing import Any

import yaml

from bot.importer import jira, pagerduty
from bot.importer.drafts import NotAnIncident, Rejected
from bot.importer.markdown import parse_bounded
from bot.importer.trackers import TrackedIncident
from bot.models import MemoryDraft

MAX_MAP_BYTES = 64 * 1024


def parse_column_map(spec: str | None) -> dict[str, str]:
    """`Summary=title,Key=incident_id` or the path of a YAML mapping; keys compared lower-cased."""
    if not spec:
        return {}
    path = Path(spec)
    if path.suffix.lower() in (".yml", ".yaml") or path.is_file():
        try:
            if path.stat().st_size > MAX_MAP_BYTES:
                raise ValueError(f"--map file {spec} is larger than {MAX_MAP_BYTES // 1024} KB")
            loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise ValueError(f"--map file {spec} cannot be read: {exc}") from exc
        if not isinstance(loaded, dict) or not all(isinstance(v, str) for v in loaded.values()):
            raise ValueError(f"--map file {spec} must be a mapping of column → field (or '-')")
        pairs = [(str(k), v) for k, v in loaded.items()]
    else:
        pairs = []
        for part in spec.split(","):
            column, sep, target = part.partition("=")
            if not sep or not column.strip() or not target.strip():
                raise ValueError(f"--map: {part.strip()!r} is not COLUMN=field (e.g. 'Summary=title,Key=incident_id')")
            pairs.append((column, target))
    return {column.strip().lower(): target.strip() for column, target in pairs}


def recognised_csv(text: str, column_map: dict[str, str]) -> tuple[str, list[TrackedIncident]] | None:
    try:
        header = next(csv.reader(io.StringIO(text, newline="")))
    except (StopIteration, csv.Error):
        return None
    if jira.is_jira_header(header):
        return jira.CSV_KIND, jira.read_csv_export(text, column_map)
    if pagerduty.is_pagerduty_header(header):
        return pagerduty.CSV_KIND, pagerduty.read_csv_export(text)
    return None


def recognised_json(text: str, column_map: dict[str, str]) -> tuple[str, list[TrackedIncident]] | None:
    if not text.lstrip().startswith("{"):
        return None
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError:
        return None  # JSON Lines, or broken: the memory format says which line
    if jira.is_jira_json(data):
        return jira.JSON_KIND, jira.read_json_export(data, column_map)
    if pagerduty.is_pagerduty_json(data):
        return pagerduty.JSON_KIND, pagerduty.read_json_export(data)
    return None


def tracked_drafts(
    incidents: list[TrackedIncident], *, team_id: str, relative: PurePath, max_chars: int
) -> tuple[list[MemoryDraft], list[str]]:
    """(drafts, keys of the incidents that hold nothing but a title); a bad one rejects the file."""
    drafts, empty, problems = [], [], []
    for incident in incidents:
        name = f"{relative.as_posix()}#{incident.key}"
        try:
            drafts += parse_bounded(
                incident.markdown(), team_id=team_id, incident_id=incident.key, name=name, max_chars=max_chars
            )
        except NotAnIncident:
            empty.append(incident.key)
        except Rejected as exc:
            problems.append(f"{incident.key}: {exc}")
    if problems:
        raise Rejected("; ".join(problems[:20]))
    if not drafts:
        raise NotAnIncident(f"none of its {len(incidents)} incidents holds more than a title")
    return drafts, empty
