"""Seeding memory from the postmortems a team already wrote (`incident-memory import`).

Parsers (markdown with document/metadata/timeline/dates, csv_, jsonl) are pure: text in, seed
drafts with their provenance, or a reason out. `service` retains the drafts and reports per file;
it never overwrites a stored memory (with `--update`, `revisions` supersedes it with a new one).
`model_extract` is the optional model reading (`--with-model`); `scoring` is how the import is
measured against a truth file (bench/import_postmortems.py).
"""

from bot.importer.formats import SUPPORTED, find_postmortems
from bot.importer.service import FileOutcome, FileStatus, ImportReport, import_postmortems

__all__ = ["SUPPORTED", "FileOutcome", "FileStatus", "ImportReport", "find_postmortems", "import_postmortems"]
