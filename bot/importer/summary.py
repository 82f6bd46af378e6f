"""The import report as a person reads it in a terminal: problems last, right above the counts."""

from __future__ import annotations

from bot.importer.service import FileStatus, ImportReport

_ORDER = (FileStatus.IMPORTED, FileStatus.UNCHANGED, FileStatus.CONFLICT, FileStatus.REJECTED)


def summary_text(report: ImportReport) -> str:
    lines = []
    for status in _ORDER:
        for f in report.with_status(status):
            what = f": {f.reason}" if f.reason else f"  {', '.join(f.incident_ids)}"
            lines.append(f"{status.value:<9}  {f.path}{what}")
    memories = sum(f.created for f in report.files)
    counts = [
        f"{len(report.with_status(FileStatus.IMPORTED))} imported ({memories} new memories)",
        f"{len(report.with_status(FileStatus.UNCHANGED))} unchanged",
        f"{len(report.with_status(FileStatus.CONFLICT))} in conflict",
        f"{len(report.with_status(FileStatus.REJECTED))} rejected",
    ]
    if report.skipped:
        counts.append(f"{len(report.skipped)} skipped (not .md, .json, .jsonl or .csv)")
    return "\n".join([*lines, "", "files: " + ", ".join(counts)])
