"""Stable incident ids for postmortems that do not carry one.

The id comes from the file's name (plus the row for CSV and JSON Lines), never from the folder
it was imported from: importing `archive/` and then `archive/2021/` gives the same ids, so a
re-import is a no-op and a changed file is a conflict (or, with `--update`, a new revision).
A generic name ("README.md", "postmortem.md") is qualified by the folder it sits in.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path, PurePath

PREFIX = "pm-"
MAX_ID = 200
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


GENERIC_NAMES = frozenset(
    {"readme", "index", "postmortem", "post-mortem", "postmortem-report", "incident", "report", "notes"}
)


def identity_name(path: Path) -> PurePath:
    """The part of a file's path its ids come from: its name, or `folder/name` when the name alone
    says nothing ("2021-05-outage/README.md")."""
    name = PurePath(path.name)
    if name.stem.lower() in GENERIC_NAMES and path.resolve().parent.name:
        return PurePath(path.resolve().parent.name) / name
    return name


def derived_incident_id(relative: PurePath, row: int | None = None) -> str:
    """`pm-<folders-and-name>[-<row>]`, lower-case; the extension is left out so ids read well."""
    stem = relative.with_suffix("") if relative.suffix else relative
    slug = _NOT_SLUG.sub("-", stem.as_posix().lower()).strip("-") or "postmortem"
    suffix = f"-{row}" if row is not None else ""
    budget = MAX_ID - len(PREFIX) - len(suffix)
    if len(slug) > budget:
        # keep it readable and still unique: a prefix of the slug plus a digest of the whole path
        digest = hashlib.sha256(relative.as_posix().encode()).hexdigest()[:10]
        slug = slug[: budget - len(digest) - 1].rstrip("-") + "-" + digest
    return f"{PREFIX}{slug}{suffix}"
