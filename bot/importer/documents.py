"""Written postmortems that are not Markdown: web pages and Word files, read from disk or from
inside an export's zip, each made the Markdown the postmortem reader reads.

A zip (a Confluence space export, a Notion export) is opened in place, never unpacked to disk:
its members are listed like a folder's files, each bounded in size, with a path under the zip's
name ("space.zip/OPS/Outage_123.html") so the report and the derived ids read as for a folder.
"""

from __future__ import annotations

import zipfile
from pathlib import Path, PurePath, PurePosixPath

from bot.importer.docx import read_docx
from bot.importer.drafts import MAX_FILE_BYTES, NotAnIncident, Rejected
from bot.importer.html import Page, read_page

HTML = (".html", ".htm", ".xhtml")
WORD = (".docx",)
ARCHIVE = (".zip",)
MAX_MEMBERS = 50_000


def zip_members(archive: Path, supported: tuple[str, ...]) -> tuple[list[PurePosixPath], list[PurePosixPath]]:
    """(postmortem-format members, the others) of a zip, sorted, without folders and dot-files."""
    try:
        with zipfile.ZipFile(archive) as opened:
            infos = [i for i in opened.infolist() if not i.is_dir()]
    except (OSError, zipfile.BadZipFile) as exc:
        raise Rejected(f"not a readable zip archive ({exc})") from exc
    if len(infos) > MAX_MEMBERS:
        raise Rejected(f"{len(infos):,} files inside (at most {MAX_MEMBERS:,})")
    names = sorted(PurePosixPath(i.filename) for i in infos)
    names = [n for n in names if not any(p.startswith(".") or p == "__MACOSX" for p in n.parts)]
    return [n for n in names if n.suffix.lower() in supported], [n for n in names if n.suffix.lower() not in supported]


def read_bytes(path: Path, archive: Path | None = None, member: PurePath | None = None) -> bytes:
    """A file's bytes, or a zip member's, bounded like every imported file."""
    try:
        if archive is None:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                raise Rejected(f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB ({size:,} bytes)")
            data = path.read_bytes()
        else:
            with zipfile.ZipFile(archive) as opened:
                info = opened.getinfo(PurePosixPath(member or "").as_posix())
                if info.file_size > MAX_FILE_BYTES:
                    raise Rejected(f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB ({info.file_size:,} bytes)")
                data = opened.read(info)
    except (OSError, KeyError, zipfile.BadZipFile) as exc:
        raise Rejected(getattr(exc, "strerror", None) or str(exc)) from exc
    if not data.strip():
        raise NotAnIncident("the file is empty")
    return data


def read_text_of(path: Path, archive: Path | None = None, member: PurePath | None = None) -> str:
    data = read_bytes(path, archive, member)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Rejected(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def read_written(suffix: str, data: bytes) -> Page:
    """A web page or a Word file as the Markdown page the postmortem reader takes."""
    return read_docx(data) if suffix in WORD else read_page(data)
