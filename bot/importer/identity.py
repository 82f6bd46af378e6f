"""Stable incident ids for postmortems that do not carry one.

The id comes from where the file sits under the folder being imported (or its name, when a file
is named on the command line), plus the row for CSV and JSON Lines: importing the same folder
again gives the same ids, so a re-import is a no-op and a changed file is a conflict.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import PurePath

PREFIX = "pm-"
MAX_ID = 200
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


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
