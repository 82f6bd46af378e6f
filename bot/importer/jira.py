"""Jira / Jira Service Management: the issue CSV export and the REST search API's JSON.

    CSV   Summary, Issue key, Issue id, Issue Type, Status, Priority, Resolution, Created,
          Resolved, Component/s, Description, Comment, Comment, …  (Jira repeats a column per
          value: every Component/s and every Comment is read; a comment cell is
          "02/Mar/24 10:15 AM;<author>;<text>")
    JSON  {"issues": [{"key": "OPS-42", "fields": {"summary", "created", "resolutiondate",
          "priority": {"name"}, "components": [{"name"}], "description", "comment": {"comments":
          [{"author": {"displayName"}, "created", "body"}]}}}]}  (body: wiki markup or ADF)

Summary → title, Issue key → id, Created / Resolved → dates, Component/s → service, Priority →
severity, Description → the text under the title, each comment → a timeline entry. A custom
field whose name is a postmortem section ("Custom field (Root cause)") is that section; any
column or field can be pointed at a memory field with --map ('Custom field (Service)=service').
The export's other columns (Assignee, Sprint, …) are not memory fields and are left out.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from bot.importer.drafts import Rejected
from bot.importer.trackers import Note, TrackedIncident, adf_to_markdown, wiki_to_markdown
from bot.importer.vocabulary import section_kind

CSV_KIND = "Jira CSV export"
JSON_KIND = "Jira REST search JSON"
_CUSTOM = re.compile(r"^custom field \((.+)\)$", re.I)
_DIRECT = {"service", "severity", "title", "incident_id"}


def is_jira_header(header: list[str]) -> bool:
    names = {h.strip().lower() for h in header}
    return {"summary", "issue key"} <= names


def _apply(incident: TrackedIncident, name: str, field_name: str, value: str) -> None:
    """A value mapped (or named) as a memory field: the short ones set, the rest a section."""
    if field_name == "-" or not value.strip():
        return
    if field_name == "service":
        incident.service = ", ".join(x for x in (incident.service, value.strip()) if x)
    elif field_name == "severity":
        incident.severity = value.strip()
    elif field_name == "title":
        incident.title = value.strip()
    elif field_name == "incident_id":
        incident.key = value.strip()
    else:
        heading = field_name.replace("_", " ").capitalize() if field_name in _FIELD_SECTIONS else name
        incident.sections[heading] = "\n\n".join(x for x in (incident.sections.get(heading, ""), value) if x)


_FIELD_SECTIONS = {"root_cause", "resolution", "diagnosis", "symptoms", "lesson", "error_message"}


def _named(name: str, column_map: dict[str, str]) -> str | None:
    """The memory field a non-standard column feeds: mapped, or a custom field named like a section."""
    mapped = column_map.get(name.strip().lower())
    if mapped:
        return mapped
    custom = _CUSTOM.match(name.strip())
    if custom and section_kind(custom.group(1)) not in (None, "metadata", "summary"):
        return custom.group(1)
    return None


def read_csv_export(text: str, column_map: dict[str, str]) -> list[TrackedIncident]:
    rows = csv.reader(io.StringIO(text, newline=""))
    header = next(rows)
    names = [h.strip() for h in header]
    incidents, problems = [], []
    for cells in rows:
        if not any(c.strip() for c in cells):
            continue
        values: dict[str, list[str]] = {}
        for name, cell in zip(names, cells, strict=False):
            if cell.strip():
                values.setdefault(name.lower(), []).append(cell)
        key = (values.get("issue key") or [""])[0].strip()
        title = (values.get("summary") or [""])[0].strip()
        if not key or not title:
            problems.append(f"line {rows.line_num}: no {'Issue key' if not key else 'Summary'}")
            continue
        incident = TrackedIncident(
            key=key, title=title, created=(values.get("created") or [""])[0], resolved=(values.get("resolved") or [""])[0],
            service=", ".join(v.strip() for v in values.get("component/s", [])),
            severity=(values.get("priority") or [""])[0].strip(),
            description=wiki_to_markdown((values.get("description") or [""])[0]),
        )  # fmt: skip
        for cell in values.get("comment", []):
            when, author, body = (cell.split(";", 2) + ["", ""])[:3] if cell.count(";") >= 2 else ("", "", cell)
            incident.notes.append(Note(when, wiki_to_markdown(body), author.strip()))
        for name, cell in zip(names, cells, strict=False):
            target = _named(name, column_map)
            if target and cell.strip():
                _apply(incident, name, target if target in _DIRECT | _FIELD_SECTIONS | {"-"} else target, cell)
        incidents.append(incident)
    if problems:
        raise Rejected("; ".join(problems[:20]))
    return incidents


def is_jira_json(data: Any) -> bool:
    issues = data.get("issues") if isinstance(data, dict) else None
    return isinstance(issues, list) and all(isinstance(i, dict) and "key" in i and "fields" in i for i in issues)


def _name(value: Any) -> str:
    if isinstance(value, dict):
        return str(value.get("name") or value.get("value") or value.get("displayName") or "")
    if isinstance(value, list):
        return ", ".join(n for n in (_name(v) for v in value) if n)
    return "" if value is None else str(value)


def read_json_export(data: dict[str, Any], column_map: dict[str, str]) -> list[TrackedIncident]:
    incidents = []
    for issue in data["issues"]:
        fields = issue.get("fields") or {}
        incident = TrackedIncident(
            key=str(issue["key"]), title=str(fields.get("summary") or issue["key"]),
            created=str(fields.get("created") or ""), resolved=str(fields.get("resolutiondate") or ""),
            service=_name(fields.get("components")), severity=_name(fields.get("priority")),
            description=adf_to_markdown(fields.get("description") or ""),
        )  # fmt: skip
        for comment in (fields.get("comment") or {}).get("comments") or []:
            author = _name((comment or {}).get("author"))
            incident.notes.append(Note(str(comment.get("created") or ""), adf_to_markdown(comment.get("body")), author))
        for name, value in fields.items():
            target = column_map.get(name.lower())
            if target:
                is_doc = isinstance(value, dict) and value.get("type") == "doc"
                _apply(incident, name, target, adf_to_markdown(value) if is_doc else _name(value))
        incidents.append(incident)
    return incidents
