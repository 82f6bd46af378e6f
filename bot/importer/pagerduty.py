"""PagerDuty: the REST API's incidents (GET /incidents, each with its notes) and the analytics CSV.

    JSON  {"incidents": [{"incident_number": 1234, "title", "description", "created_at",
          "status", "last_status_change_at", "resolved_at"?, "urgency", "priority": {"summary"},
          "service": {"summary"}, "notes": [{"content", "created_at", "user": {"summary"}}]}]}
          (the notes are GET /incidents/{id}/notes's "notes", put under each incident; a single
          {"incident": {...}} is read too)
    CSV   the analytics incident export: incident_number, description, created_at, resolved_at,
          service_name, urgency, priority_name, … (column names in any case or spacing)

The incident number is the memory's id (PD-1234); each note is a timeline entry with its author
and time. The analytics CSV has no notes: its rows give the incident, not what was tried.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from bot.importer.drafts import Rejected
from bot.importer.trackers import Note, TrackedIncident

JSON_KIND = "PagerDuty incidents JSON"
CSV_KIND = "PagerDuty analytics CSV"


def _key(name: str) -> str:
    return "_".join(name.strip().lower().replace("-", " ").split())


def is_pagerduty_header(header: list[str]) -> bool:
    names = {_key(h) for h in header}
    return {"incident_number", "created_at"} <= names and bool(names & {"service_name", "service"})


def is_pagerduty_json(data: Any) -> bool:
    if isinstance(data, dict) and isinstance(data.get("incident"), dict):
        data = {"incidents": [data["incident"]]}
    incidents = data.get("incidents") if isinstance(data, dict) else None
    return isinstance(incidents, list) and all(isinstance(i, dict) and "incident_number" in i for i in incidents)


def _summary(value: Any) -> str:
    return str(value.get("summary") or value.get("name") or "") if isinstance(value, dict) else str(value or "")


def read_json_export(data: dict[str, Any]) -> list[TrackedIncident]:
    found = [data["incident"]] if isinstance(data.get("incident"), dict) else data["incidents"]
    incidents = []
    for item in found:
        resolved = item.get("resolved_at") or (
            item.get("last_status_change_at") if item.get("status") == "resolved" else ""
        )
        description = str(item.get("description") or "")
        title = str(item.get("title") or description or f"PagerDuty incident {item['incident_number']}")
        incident = TrackedIncident(
            key=f"PD-{item['incident_number']}", title=title, created=str(item.get("created_at") or ""),
            resolved=str(resolved or ""), service=_summary(item.get("service")),
            severity=_summary(item.get("priority")) or str(item.get("urgency") or ""),
            description=description if description != title else "",
        )  # fmt: skip
        for note in item.get("notes") or []:
            if isinstance(note, dict):
                incident.notes.append(
                    Note(str(note.get("created_at") or ""), str(note.get("content") or ""), _summary(note.get("user")))
                )
        incidents.append(incident)
    return incidents


def _facts(number: str, values: dict[str, str]) -> str:
    """The row's own facts as the text under the title (the export has no notes to tell more)."""
    service = values.get("service_name") or values.get("service") or "a service"
    urgency = f" ({values['urgency']} urgency)" if values.get("urgency") else ""
    return f"PagerDuty incident {number}{urgency} on {service}."


def read_csv_export(text: str) -> list[TrackedIncident]:
    rows = csv.DictReader(io.StringIO(text, newline=""))
    incidents, problems = [], []
    for row in rows:
        values = {_key(k): (v or "").strip() for k, v in row.items() if k is not None}
        number = values.get("incident_number", "")
        title = values.get("title") or values.get("description") or ""
        if not number or not title:
            problems.append(f"line {rows.line_num}: no {'incident_number' if not number else 'description'}")
            continue
        incidents.append(
            TrackedIncident(
                key=f"PD-{number}",
                title=title,
                created=values.get("created_at", ""),
                resolved=values.get("resolved_at", ""),
                service=values.get("service_name") or values.get("service", ""),
                severity=values.get("priority_name") or values.get("urgency", ""),
                description=_facts(number, values),
            )  # fmt: skip
        )
    if problems:
        raise Rejected("; ".join(problems[:20]))
    return incidents
