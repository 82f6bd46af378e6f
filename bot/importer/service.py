"""Seeding memory from postmortems: parse each file, retain its drafts, report per file.

A file is the unit of the report: it is imported (something new was retained), updated (with
`--update`: an edited postmortem became a new revision that supersedes the stored one), unchanged
(all of it was already there), a conflict (the store holds other content for one of its incident
ids; nothing is overwritten), skipped (not an incident report: a template, an index, an empty
file) or rejected (it could not be read, and nothing of it was retained). With `dry_run` nothing
is written: each file is checked, and the report says which fields were found and which not.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING

from pydantic import Field

from bot.errors import MemoryConflict, TruthMoveRefused
from bot.importer.drafts import ParsedFile, read_text
from bot.importer.formats import FoundFile, FoundFiles, parse_file
from bot.importer.revisions import revise
from bot.memory.port import MemoryStore, RetainStatus
from bot.models import Strict

if TYPE_CHECKING:  # the Anthropic SDK is imported only when --with-model asks for the model
    from bot.importer.model_extract import ModelExtractor


class FileStatus(StrEnum):
    IMPORTED = "imported"
    UPDATED = "updated"
    UNCHANGED = "unchanged"
    CHECKED = "checked"  # --dry-run: read, nothing written
    CONFLICT = "conflict"
    SKIPPED = "skipped"
    REJECTED = "rejected"


# what a dry run reports as found or missing, in the order a postmortem tells it
REVIEWED_FIELDS = (
    "title", "occurred_at", "resolved_at", "service", "severity", "symptoms", "root_cause", "diagnosis",
    "resolution", "failed_attempts", "lesson",
)  # fmt: skip


class FileOutcome(Strict):
    path: str
    status: FileStatus
    incident_ids: list[str] = Field(default_factory=list)
    created: int = 0
    superseded: list[str] = Field(default_factory=list, description="--update: the revisions this file replaced")
    reason: str | None = None
    found: list[str] = Field(default_factory=list, description="--dry-run: the fields read from the file")
    model: str | None = Field(default=None, description="--with-model: what the model's reading added or why not")
    missing: list[str] = Field(default_factory=list, description="--dry-run: the fields the file did not give")


class ImportReport(Strict):
    files: list[FileOutcome] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list, description="files in a folder that are not postmortems")

    def with_status(self, status: FileStatus) -> list[FileOutcome]:
        return [f for f in self.files if f.status is status]

    @property
    def failed(self) -> bool:
        return any(f.status in (FileStatus.CONFLICT, FileStatus.REJECTED) for f in self.files)


async def import_postmortems(
    store: MemoryStore | None,
    found: FoundFiles,
    *,
    team_id: str,
    update: bool = False,
    dry_run: bool = False,
    model: ModelExtractor | None = None,
    on_file: Callable[[FileOutcome], None] = lambda _: None,
) -> ImportReport:
    """Import every file found; `store` may be None only for a dry run (nothing is written).
    With `model`, postmortems (not memory exports) are also read by the model (see model_extract)."""
    report = ImportReport(skipped=[str(p) for p in found.skipped])
    for missing in found.missing:
        report.files.append(FileOutcome(path=str(missing.path), status=FileStatus.REJECTED, reason=missing.error))
    claimed: dict[str, str] = {}  # incident id → the file that brought it in this run
    for file in found.files:
        parsed = parse_file(file, team_id=team_id)
        note = None
        # only prose goes to the model: it reads one document into one memory (a CSV's rows, each
        # with its provenance too, would become one)
        if model is not None and parsed.prose and parsed.drafts:
            parsed, note = await _with_model(model, file, parsed)
        if dry_run or store is None:
            outcome = _checked(file, parsed)
        else:
            outcome = await _import_file(store, file, parsed, claimed=claimed, update=update)
        if note:
            outcome.model = note
        report.files.append(outcome)
        on_file(outcome)
    return report


async def _with_model(model: ModelExtractor, file: FoundFile, parsed: ParsedFile) -> tuple[ParsedFile, str]:
    reading = await model.read(read_text(file.path), parsed.drafts[0])
    dropped = f"; dropped without a quote from the document: {', '.join(reading.dropped)}" if reading.dropped else ""
    if reading.problem:
        return parsed, f"offline reading only: {reading.problem}{dropped}"
    return ParsedFile(parsed.path, drafts=[reading.draft]), f"model-extracted: {', '.join(reading.kept)}{dropped}"


def _checked(file: FoundFile, parsed: ParsedFile) -> FileOutcome:
    path = str(file.path)
    if parsed.error is not None:
        status = FileStatus.SKIPPED if parsed.skipped else FileStatus.REJECTED
        return FileOutcome(path=path, status=status, reason=parsed.error)
    found: dict[str, None] = {}
    for draft in parsed.drafts:
        found.update(dict.fromkeys(f for f in REVIEWED_FIELDS if getattr(draft, f) not in (None, "", [])))
    return FileOutcome(
        path=path,
        status=FileStatus.CHECKED,
        incident_ids=[d.incident_id for d in parsed.drafts],
        found=list(found),
        missing=[f for f in REVIEWED_FIELDS if f not in found],
    )


async def _import_file(
    store: MemoryStore, file: FoundFile, parsed: ParsedFile, *, claimed: dict[str, str], update: bool
) -> FileOutcome:
    path = str(file.path)
    if parsed.error is not None:
        status = FileStatus.SKIPPED if parsed.skipped else FileStatus.REJECTED
        return FileOutcome(path=path, status=status, reason=parsed.error)
    ids = [d.incident_id for d in parsed.drafts]
    taken = [f"incident id {i!r} also comes from {claimed[i]}" for i in ids if claimed.get(i, path) != path]
    if taken:
        # two files for one incident: retaining both would make the second a false conflict
        return FileOutcome(path=path, status=FileStatus.REJECTED, incident_ids=ids, reason="; ".join(taken))
    claimed.update(dict.fromkeys(ids, path))
    created = 0
    conflicts = []
    superseded = []
    for draft in parsed.drafts:
        try:
            retained = await store.retain(draft)
        except MemoryConflict as exc:
            try:
                revision = await revise(
                    store, draft, reason=f"re-imported from {file.relative.as_posix()}", update=update
                )
            except (MemoryConflict, TruthMoveRefused) as refused:  # a half-made revision from an interrupted run
                conflicts.append(f"{exc.incident_id}: its revisions could not be updated ({refused})")
                continue
            if revision is None:
                conflicts.append(f"{exc.incident_id} differs from the stored memory in {', '.join(exc.fields)}")
            else:
                ids[ids.index(draft.incident_id)] = revision.incident_id  # the revision that holds it now
                if revision.replaced is not None:
                    created += 1
                    superseded.append(revision.replaced)
            continue
        created += retained.status is RetainStatus.CREATED
    if conflicts:
        reason = "; ".join(conflicts) + " (not overwritten; import with --update to supersede it with this version)"
        return FileOutcome(path=path, status=FileStatus.CONFLICT, incident_ids=ids, created=created, reason=reason)
    status = FileStatus.UPDATED if superseded else FileStatus.IMPORTED if created else FileStatus.UNCHANGED
    return FileOutcome(path=path, status=status, incident_ids=ids, created=created, superseded=superseded)
