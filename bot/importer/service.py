"""Seeding memory from postmortems: parse each file, retain its drafts, report per file.

A file is the unit of the report: it is imported (something new was retained), unchanged (all
of it was already there), a conflict (the store holds other content for one of its incident ids;
nothing is overwritten) or rejected (it could not be read, and nothing of it was retained).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from pydantic import Field

from bot.importer.formats import FoundFile, FoundFiles, parse_file
from bot.errors import MemoryConflict
from bot.memory.port import MemoryStore, RetainStatus
from bot.models import Strict


class FileStatus(StrEnum):
    IMPORTED = "imported"
    UNCHANGED = "unchanged"
    CONFLICT = "conflict"
    REJECTED = "rejected"


class FileOutcome(Strict):
    path: str
    status: FileStatus
    incident_ids: list[str] = Field(default_factory=list)
    created: int = 0
    reason: str | None = None


class ImportReport(Strict):
    files: list[FileOutcome] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list, description="files in a folder that are not postmortems")

    def with_status(self, status: FileStatus) -> list[FileOutcome]:
        return [f for f in self.files if f.status is status]

    @property
    def failed(self) -> bool:
        return any(f.status in (FileStatus.CONFLICT, FileStatus.REJECTED) for f in self.files)


async def import_postmortems(
    store: MemoryStore,
    found: FoundFiles,
    *,
    team_id: str,
    on_file: Callable[[FileOutcome], None] = lambda _: None,
) -> ImportReport:
    report = ImportReport(skipped=[str(p) for p in found.skipped])
    for missing in found.missing:
        report.files.append(FileOutcome(path=str(missing.path), status=FileStatus.REJECTED, reason=missing.error))
    claimed: dict[str, str] = {}  # incident id → the file that brought it in this run
    for file in found.files:
        outcome = await _import_file(store, file, team_id=team_id, claimed=claimed)
        report.files.append(outcome)
        on_file(outcome)
    return report


async def _import_file(store: MemoryStore, file: FoundFile, *, team_id: str, claimed: dict[str, str]) -> FileOutcome:
    path = str(file.path)
    parsed = parse_file(file, team_id=team_id)
    if parsed.error is not None:
        return FileOutcome(path=path, status=FileStatus.REJECTED, reason=parsed.error)
    ids = [d.incident_id for d in parsed.drafts]
    taken = [f"incident id {i!r} also comes from {claimed[i]}" for i in ids if claimed.get(i, path) != path]
    if taken:
        # two files for one incident: retaining both would make the second a false conflict
        return FileOutcome(path=path, status=FileStatus.REJECTED, incident_ids=ids, reason="; ".join(taken))
    claimed.update(dict.fromkeys(ids, path))
    created = 0
    conflicts = []
    for draft in parsed.drafts:
        try:
            retained = await store.retain(draft)
        except MemoryConflict as exc:
            conflicts.append(f"{exc.incident_id} differs from the stored memory in {', '.join(exc.fields)}")
            continue
        created += retained.status is RetainStatus.CREATED
    if conflicts:
        reason = "; ".join(conflicts) + " (not overwritten; add a correction instead)"
        return FileOutcome(path=path, status=FileStatus.CONFLICT, incident_ids=ids, created=created, reason=reason)
    status = FileStatus.IMPORTED if created else FileStatus.UNCHANGED
    return FileOutcome(path=path, status=status, incident_ids=ids, created=created)
