"""Memories in the memory format (a JSON object, a JSON list, or JSON Lines), as `retain` reads
them, made seeds. A record without `incident_id` (or `id`) gets one from its content (identity.py)."""

from __future__ import annotations

from bot.importer.drafts import DraftCollector, IdFor, Rejected
from bot.memory.files import MemoryFileError, parse_records
from bot.models import MemoryDraft


def parse_memory_records(text: str, *, team_id: str, incident_id_for: IdFor) -> list[MemoryDraft]:
    """Every record as a seed draft, or Rejected listing every bad record by line (nothing half-read)."""
    try:
        records = parse_records(text, "file")
    except MemoryFileError as exc:
        raise Rejected(str(exc).removeprefix("file: ")) from exc
    collected = DraftCollector(team_id=team_id, incident_id_for=incident_id_for)
    for line, record in records:
        if not isinstance(record, dict):
            collected.problem(line, f"expected an object, got {type(record).__name__}")
            continue
        collected.add(line, record)
    return collected.drafts()
