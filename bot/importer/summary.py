"""The import report as a person reads it in a terminal: problems last, right above the counts."""

from __future__ import annotations

from bot.importer.service import FileStatus, ImportReport

_ORDER = (
    FileStatus.CHECKED, FileStatus.IMPORTED, FileStatus.UPDATED, FileStatus.UNCHANGED, FileStatus.SKIPPED,
    FileStatus.CONFLICT, FileStatus.REJECTED,
)  # fmt: skip


def summary_text(report: ImportReport) -> str:
    lines = []
    for status in _ORDER:
        for f in report.with_status(status):
            if status is FileStatus.CHECKED:
                missing = ", ".join(f.missing) or "nothing"
                what = f"  {', '.join(f.incident_ids)}\n           found: {', '.join(f.found)}\n           missing: {missing}"
            elif status is FileStatus.UPDATED:
                what = f"  {', '.join(f.incident_ids)} (supersedes {', '.join(f.superseded)})"
            else:
                what = f": {f.reason}" if f.reason else f"  {', '.join(f.incident_ids)}"
            lines.append(f"{status.value:<9}  {f.path}{what}")
            if f.format:
                lines.append(f"           read as: {f.format}")
            if f.model:
                lines.append(f"           {f.model}")
    memories = sum(f.created for f in report.files)
    if report.with_status(FileStatus.CHECKED):
        checked = "" if report.conflicts_checked else "; conflicts not checked: the database could not be read"
        counts = [f"{len(report.with_status(FileStatus.CHECKED))} checked (dry run: nothing written{checked})"]
    else:
        counts = [f"{len(report.with_status(FileStatus.IMPORTED))} imported ({memories} new memories)"]
    if report.with_status(FileStatus.UPDATED):
        counts.append(f"{len(report.with_status(FileStatus.UPDATED))} updated (new revisions)")
    counts += [
        f"{len(report.with_status(FileStatus.UNCHANGED))} unchanged",
        f"{len(report.with_status(FileStatus.CONFLICT))} in conflict",
        f"{len(report.with_status(FileStatus.REJECTED))} rejected",
    ]
    if report.with_status(FileStatus.SKIPPED):
        counts.append(f"{len(report.with_status(FileStatus.SKIPPED))} not incident reports")
    if report.skipped:
        counts.append(f"{len(report.skipped)} skipped (not .md, .txt, .html, .docx, .json, .jsonl, .csv or .zip)")
    whole = "" if report.with_status(FileStatus.CHECKED) else "\n(each file is imported whole or not at all)"
    return "\n".join([*lines, "", "files: " + ", ".join(counts) + whole])
