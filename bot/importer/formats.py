"""Which files are postmortems, and which parser reads each one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from bot.importer.confluence import attachment_of, confluence_page
from bot.importer.csv_ import parse_csv
from bot.importer.documents import ARCHIVE, HTML, WORD, read_bytes, read_text_of, read_written, zip_members
from bot.importer.drafts import NotAnIncident, ParsedFile, Rejected
from bot.importer.exports import recognised_csv, recognised_json, tracked_drafts
from bot.importer.identity import RowIds, derived_incident_id, identity_name
from bot.importer.jsonl import parse_memory_records
from bot.importer.markdown import parse_bounded
from bot.importer.notion import PAGE_KIND, notion_database, notion_page_id
from bot.models import MemoryDraft, Provenance
from bot.text_limits import DOCUMENT_CHARS

MARKDOWN = (".md", ".markdown", ".txt", ".text")  # .txt: a Google Docs / Confluence "download as text"
MEMORY_FORMAT = (".json", ".jsonl", ".ndjson")
CSV = (".csv",)
SUPPORTED = (*MARKDOWN, *HTML, *WORD, *MEMORY_FORMAT, *CSV)
FOUND = (*SUPPORTED, *ARCHIVE)  # a zip (a Confluence or Notion export) is read like a folder


@dataclass(frozen=True, slots=True)
class FoundFile:
    path: Path  # as the user named it (folder argument + the path under it)
    relative: PurePath  # under the folder argument, or the bare name: what derived ids come from
    archive: Path | None = None  # the zip it is read from (then `path` is `<zip>/<member>`)
    member: PurePath | None = None


@dataclass(slots=True)
class FoundFiles:
    files: list[FoundFile] = field(default_factory=list)
    missing: list[ParsedFile] = field(default_factory=list)  # named on the command line, unreadable
    skipped: list[Path] = field(default_factory=list)  # in a folder, but not a postmortem format

    def add_zip(self, archive: Path, add: Callable[[FoundFile], None]) -> None:
        try:
            members, others = zip_members(archive, SUPPORTED)
        except Rejected as exc:
            self.missing.append(ParsedFile(archive, error=str(exc)))
            return
        for member in members:
            add(FoundFile(archive / member, PurePath(member), archive, member))
        self.skipped += [archive / other for other in others]


def _hidden(relative: PurePath) -> bool:
    return any(part.startswith(".") for part in relative.parts)


def find_postmortems(arguments: list[str]) -> FoundFiles:
    """Files named, and the supported files under folders named (recursively, sorted, no dot-files)."""
    found = FoundFiles()
    seen: set[Path] = set()

    def add_found(file: FoundFile) -> None:
        key = file.path.resolve() if file.archive is None else file.path
        if key not in seen:
            seen.add(key)
            found.files.append(file)

    def add(path: Path, relative: PurePath) -> None:
        add_found(FoundFile(path, relative))

    for argument in arguments:
        root = Path(argument)
        if root.is_dir():
            for path in sorted(p for p in root.rglob("*") if p.is_file()):
                relative = path.relative_to(root)
                if _hidden(relative):
                    continue
                if path.suffix.lower() in ARCHIVE:
                    found.add_zip(path, add_found)
                elif path.suffix.lower() in SUPPORTED:
                    add(path, relative)
                else:
                    found.skipped.append(path)
        elif root.is_file():
            if root.suffix.lower() in ARCHIVE:
                found.add_zip(root, add_found)
            elif root.suffix.lower() in SUPPORTED:
                add(root, PurePath(root.name))
            else:
                found.missing.append(ParsedFile(root, error=f"not a postmortem format (expected {', '.join(FOUND)})"))
        else:
            found.missing.append(ParsedFile(root, error="no such file or folder"))
    return found


_PROVENANCE_SKIPS = {"team_id", "source", "truth_state", "is_private", "provenance", "failed_attempts", "tags"}


def _with_provenance(drafts: list[MemoryDraft], found: FoundFile, extractor: str, unit: str) -> list[MemoryDraft]:
    """Records read as they were written: each field came from its own column (or JSON field)."""
    out = []
    for draft in drafts:
        if draft.provenance is None:
            given = [k for k, v in draft.model_dump(exclude=_PROVENANCE_SKIPS).items() if v not in (None, "", [])]
            given += [k for k in ("failed_attempts", "tags") if getattr(draft, k)]
            fields = {name: f"{unit} {name!r}" for name in given}
            provenance = Provenance(file=found.relative.as_posix(), extractor=extractor, fields=fields)
            draft = draft.model_copy(update={"provenance": provenance})
        out.append(draft)
    return out


def parse_file(
    found: FoundFile, *, team_id: str, max_chars: int = DOCUMENT_CHARS, column_map: dict[str, str] | None = None
) -> ParsedFile:
    """The file's drafts, or its rejection (or why it is skipped); never raises for bad content.
    A postmortem longer than `max_chars` is rejected; what is read, is read in linear time."""
    suffix = found.path.suffix.lower()
    identity = identity_name(found.path)
    row_id = RowIds(identity)

    kind = None
    text = None
    attachment = attachment_of(found.relative)
    if attachment:
        return ParsedFile(found.path, error=attachment, skipped=True, format="Confluence attachment")
    database = notion_database(found.relative)
    if database:
        return ParsedFile(found.path, error=database, skipped=True, format="Notion database")
    notion_id = notion_page_id(found.relative)
    try:
        if suffix in MARKDOWN or suffix in HTML or suffix in WORD:
            if suffix in MARKDOWN:
                text = read_text_of(found.path, found.archive, found.member)
                kind = PAGE_KIND if notion_id else None
            else:
                page = read_written(suffix, read_bytes(found.path, found.archive, found.member))
                kind = page.kind
                if kind == "Confluence page":
                    page = confluence_page(page, found.relative)
                text = page.with_front_matter()
            drafts = parse_bounded(
                text,
                team_id=team_id,
                incident_id=notion_id or derived_incident_id(identity),
                name=found.relative.as_posix(),
                max_chars=max_chars,
            )
        else:
            content = read_text_of(found.path, found.archive, found.member)
            recognise = recognised_csv if suffix in CSV else recognised_json
            export = recognise(content, column_map or {})
            if export is not None:
                drafts, empty = tracked_drafts(export[1], team_id=team_id, relative=found.relative, max_chars=max_chars)
                kind = export[0] + (f" ({len(empty)} without text skipped: {', '.join(empty[:10])})" if empty else "")
            elif suffix in CSV:
                records = parse_csv(content, team_id=team_id, incident_id_for=row_id, column_map=column_map)
                drafts = _with_provenance(records, found, "csv", "column")
                kind = "CSV with a column map" if column_map else None
            else:
                records = parse_memory_records(content, team_id=team_id, incident_id_for=row_id)
                drafts = _with_provenance(records, found, "memory-format", "field")
    except NotAnIncident as exc:
        return ParsedFile(found.path, error=str(exc), skipped=True, format=kind)
    except Rejected as exc:
        return ParsedFile(found.path, error=str(exc), format=kind)
    return ParsedFile(found.path, drafts=drafts, prose=text is not None, format=kind, text=text, legacy=row_id.legacy)
