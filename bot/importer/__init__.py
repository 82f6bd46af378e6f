"""Seeding memory from the postmortems a team already wrote (`incident-memory import`).

Parsers (markdown, csv_, jsonl) are pure: text in, seed drafts or a reason out. `service` retains
the drafts and reports per file; it never overwrites a stored memory.
"""

from bot.importer.formats import SUPPORTED, find_postmortems
from bot.importer.service import FileOutcome, FileStatus, ImportReport, import_postmortems

__all__ = ["SUPPORTED", "FileOutcome", "FileStatus", "ImportReport", "find_postmortems", "import_postmortems"]
