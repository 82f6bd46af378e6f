"""Seeding memory from postmortems: parse each file, retain its drafts, report per file.

A file is the unit of the report: it is imported (something new was retained), updated (with
`--update`: an edited postmortem became a new revision that supersedes the stored one), unchanged
(all of it was already there), a conflict (the store holds other content for one of its incident
ids; nothing is overwritten), skipped (not an incident report: a template, an index, an empty
file) or rejected (it could not be read, and nothing of it was retained). Each file is imported in
one transaction: a conflict anywhere in it writes none of it. With `dry_run` nothing is written:
each file is checked, the report says which fields were found and which not, and, when the
database can be read, the conflicts the import would meet.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING

from pydantic import Field

from bot.errors import MemoryConflict, MemoryNotFound, TruthMoveRefused
from bot.importer.drafts import ParsedFile
from bot.importer.formats import FoundFile, FoundFiles, parse_file
from bot.importer.identity import content_incident_id
from bot.importer.revisions import revise, same_content
from bot.jobs.reading import INLINE, ReadingPool, ReadingTooLong
from bot.memory.port import MemoryStore, RetainStatus
from bot.models import MemoryDraft, MemoryRecord, Strict
from bot.text_limits import DOCUMENT_CHARS

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
    format: str | None = Field(default=None, description="the export or page kind recognised (Jira CSV export…)")
    missing: list[str] = Field(default_factory=list, description="--dry-run: the fields the file did not give")


class ImportReport(Strict):
    files: list[FileOutcome] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list, description="files in a folder that are not postmortems")
    conflicts_checked: bool = Field(default=True, description="--dry-run: whether the database was read")

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
    reading: ReadingPool = INLINE,
    max_chars: int = DOCUMENT_CHARS,
    column_map: dict[str, str] | None = None,
    on_row: Callable[[int, int], None] = lambda _done, _rows: None,
) -> ImportReport:
    """Import every file found, each in one transaction (whole or not at all). With `dry_run`
    nothing is written: `store` (read only) tells the conflicts the import would meet, or, None
    when the database cannot be reached, they are not checked. With `model`, postmortems (not
    memory exports) are also read by the model (see model_extract)."""
    report = ImportReport(skipped=[str(p) for p in found.skipped], conflicts_checked=store is not None)
    for missing in found.missing:
        report.files.append(FileOutcome(path=str(missing.path), status=FileStatus.REJECTED, reason=missing.error))
    claimed: dict[str, str] = {}  # incident id → the file that brought it in this run
    for file in found.files:
        parsed = await _parsed(reading, file, team_id, max_chars, column_map)
        note = None
        # only prose goes to the model: it reads one document into one memory (a CSV's rows, each
        # with its provenance too, would become one)
        if model is not None and parsed.prose and parsed.drafts:
            parsed, note = await _with_model(model, file, parsed)
        outcome = _unread(file, parsed) or _claimed_elsewhere(file, parsed, claimed)
        if outcome is None and dry_run:
            outcome = await _checked(store, file, parsed, update=update, on_row=on_row)
        elif outcome is None:
            assert store is not None, "only a dry run goes without a store"
            outcome = await _imported(store, file, parsed, update=update, on_row=on_row)
        if note:
            outcome.model = note
        outcome.format = parsed.format
        report.files.append(outcome)
        on_file(outcome)
    return report


async def _parsed(
    reading: ReadingPool, file: FoundFile, team_id: str, max_chars: int, column_map: dict[str, str] | None = None
) -> ParsedFile:
    """parse_file in the reading pool, within its deadline: a file that takes longer is rejected
    (saying so), and the import goes on with the next."""
    try:
        size = file.path.stat().st_size
    except OSError:
        size = 0  # parse_file says why it cannot read it
    try:
        return await reading.run(
            f"Reading {file.path.name}",
            parse_file,
            file,
            team_id=team_id,
            max_chars=max_chars,
            size=size,
            column_map=column_map,
        )
    except ReadingTooLong as exc:
        return ParsedFile(file.path, error=str(exc))


async def _with_model(model: ModelExtractor, file: FoundFile, parsed: ParsedFile) -> tuple[ParsedFile, str]:
    reading = await model.read(parsed.text or "", parsed.drafts[0])  # prose files carry their text
    dropped = f"; dropped without a quote from the document: {', '.join(reading.dropped)}" if reading.dropped else ""
    if reading.problem:
        return parsed, f"offline reading only: {reading.problem}{dropped}"
    return ParsedFile(parsed.path, drafts=[reading.draft]), f"model-extracted: {', '.join(reading.kept)}{dropped}"


def _unread(file: FoundFile, parsed: ParsedFile) -> FileOutcome | None:
    if parsed.error is None:
        return None
    status = FileStatus.SKIPPED if parsed.skipped else FileStatus.REJECTED
    return FileOutcome(path=str(file.path), status=status, reason=parsed.error)


def _claimed_elsewhere(file: FoundFile, parsed: ParsedFile, claimed: dict[str, str]) -> FileOutcome | None:
    """Two files for one incident: retaining both would make the second a false conflict."""
    path = str(file.path)
    ids = [d.incident_id for d in parsed.drafts]
    taken = [f"incident id {i!r} also comes from {claimed[i]}" for i in ids if claimed.get(i, path) != path]
    if taken:
        return FileOutcome(path=path, status=FileStatus.REJECTED, incident_ids=ids, reason="; ".join(taken))
    claimed.update(dict.fromkeys(ids, path))
    return None


async def _checked(
    store: MemoryStore | None, file: FoundFile, parsed: ParsedFile, *, update: bool, on_row: RowProgress
) -> FileOutcome:
    """A dry run's outcome: the fields found, and the conflicts the import would meet (read only)."""
    found: dict[str, None] = {}
    for n, draft in enumerate(parsed.drafts, 1):
        if store is None:
            on_row(n, len(parsed.drafts))
        found.update(dict.fromkeys(f for f in REVIEWED_FIELDS if getattr(draft, f) not in (None, "", [])))
    outcome = FileOutcome(
        path=str(file.path),
        status=FileStatus.CHECKED,
        incident_ids=[d.incident_id for d in parsed.drafts],
        found=list(found),
        missing=[f for f in REVIEWED_FIELDS if f not in found],
    )
    if store is not None:
        async with store.atomic(read_only=True) as reading:
            would = await _apply(reading, file, parsed, update=update, write=False, on_row=on_row)
        outcome.incident_ids, outcome.created = would.incident_ids, would.created
        if would.status is FileStatus.CONFLICT:
            outcome.status, outcome.reason = FileStatus.CONFLICT, would.reason
    return outcome


RowProgress = Callable[[int, int], None]


class _Undone(Exception):
    """Rolls a file's transaction back, carrying what the file met."""

    def __init__(self, outcome: FileOutcome) -> None:
        self.outcome = outcome


async def _imported(
    store: MemoryStore, file: FoundFile, parsed: ParsedFile, *, update: bool, on_row: RowProgress
) -> FileOutcome:
    """The file in one transaction: a conflict anywhere in it writes none of it."""
    try:
        async with store.atomic() as writing:
            outcome = await _apply(writing, file, parsed, update=update, write=True, on_row=on_row)
            if outcome.status is FileStatus.CONFLICT:
                raise _Undone(outcome)
    except _Undone as undone:
        outcome = undone.outcome
        outcome.reason = f"{outcome.reason}; nothing of this file was written"
        outcome.created, outcome.superseded = 0, []
    return outcome


async def _apply(
    store: MemoryStore, file: FoundFile, parsed: ParsedFile, *, update: bool, write: bool, on_row: RowProgress
) -> FileOutcome:
    """Retain each draft (`write`), or only check what retaining would do; `on_row(n, rows)` as
    each row starts (a large export's progress moves per row, not per file)."""
    path = str(file.path)
    ids = [d.incident_id for d in parsed.drafts]
    created = 0
    conflicts = []
    superseded = []
    before = StoredBefore(store, parsed.legacy)
    for n, draft in enumerate(parsed.drafts):
        on_row(n + 1, len(parsed.drafts))
        if stored_as := await before.holding(draft):
            ids[n] = stored_as
            continue
        try:
            status = (await store.retain(draft)).status if write else await store.check(draft)
        except MemoryConflict as exc:
            try:
                revision = await revise(
                    store, draft, reason=f"re-imported from {file.relative.as_posix()}", update=update and write
                )
            except (MemoryConflict, TruthMoveRefused) as refused:  # a half-made revision from an interrupted run
                conflicts.append(f"{exc.incident_id}: its revisions could not be updated ({refused})")
                continue
            if revision is None and update:  # a dry run of --update: it would be a new revision
                created += 1
            elif revision is None:
                conflicts.append(f"{exc.incident_id} differs from the stored memory in {', '.join(exc.fields)}")
            else:
                ids[n] = revision.incident_id  # the revision that holds it now
                if revision.replaced is not None:
                    created += 1
                    superseded.append(revision.replaced)
            continue
        created += status is RetainStatus.CREATED
    if conflicts:
        reason = "; ".join(conflicts) + " (not overwritten; import with --update to supersede it with this version)"
        return FileOutcome(path=path, status=FileStatus.CONFLICT, incident_ids=ids, created=created, reason=reason)
    status = FileStatus.UPDATED if superseded else FileStatus.IMPORTED if created else FileStatus.UNCHANGED
    return FileOutcome(path=path, status=status, incident_ids=ids, created=created, superseded=superseded)


class StoredBefore:
    """Rows imported before ids came from content were stored as `pm-<file>-<row>`: a row whose
    own id holds nothing is matched to the one of those (any row: rows move) with its content.
    `legacy`: identity.RowIds.legacy of the file."""

    def __init__(self, store: MemoryStore, legacy: dict[str, str]) -> None:
        self._store = store
        self._legacy = legacy
        self._by_content: dict[str, MemoryRecord] | None = None  # content id → memory under an old id

    async def holding(self, draft: MemoryDraft) -> str | None:
        if draft.incident_id not in self._legacy or await self._stored(draft.team_id, draft.incident_id):
            return None
        if self._by_content is None:
            self._by_content = {}
            for old in dict.fromkeys(self._legacy.values()):
                if (memory := await self._stored(draft.team_id, old)) is not None:
                    self._by_content.setdefault(content_incident_id(memory), memory)
        memory = self._by_content.get(draft.incident_id)
        return memory.incident_id if memory is not None and same_content(draft, memory) else None

    async def _stored(self, team_id: str, incident_id: str) -> MemoryRecord | None:
        try:
            return await self._store.get(team_id, incident_id)
        except MemoryNotFound:
            return None
