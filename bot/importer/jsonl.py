"""Memories in the memory format (a JSON object, a JSON list, or JSON Lines), as `retain` reads
them, made seeds. A record without `incident_id` (or `id`) gets one from the file and its line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bot.importer.drafts import Rejected, read_text, seed_draft
from bot.memory.files import MemoryFileError, parse_records
from bot.models import MemoryDraft

MAX_PROBLEMS = 20


def parse_memory_records(text: str, *, team_id: str, incident_id_for: Callable[[int], str]) -> list[MemoryDraft]:
    """Every record as a seed draft, or Rejected listing every bad record by line (nothing half-read)."""
    try:
        records = parse_records(text, "file")
    except MemoryFileError as exc:
        raise Rejected(str(exc).removeprefix("file: ")) from exc
    drafts: dict[str, MemoryDraft] = {}
    problems: list[str] = []
    for line, record in records:
        if not isinstance(record, dict):
            problems.append(f"line {line}: expected an object, got {type(record).__name__}")
            continue
        if "incident_id" not in record and "id" not in record:
            record = {**record, "incident_id": incident_id_for(line)}
        try:
            draft = seed_draft(record, team_id=team_id)
        except Rejected as exc:
            problems.append(f"line {line}: {exc}")
            continue
        if drafts.setdefault(draft.incident_id, draft) != draft:
            problems.append(f"line {line}: incident_id {draft.incident_id!r} appears again with other content")
    if problems:
        more = f"; … and {len(problems) - MAX_PROBLEMS} more" if len(problems) > MAX_PROBLEMS else ""
        raise Rejected("; ".join(problems[:MAX_PROBLEMS]) + more)
    return list(drafts.values())


def read_memory_file(path: Path, *, team_id: str, incident_id_for: Callable[[int], str]) -> list[MemoryDraft]:
    return parse_memory_records(read_text(path), team_id=team_id, incident_id_for=incident_id_for)
