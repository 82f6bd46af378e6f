"""Stable incident ids for postmortems that do not carry one.

A document's id comes from the file's name, never from the folder it was imported from:
importing `archive/` and then `archive/2021/` gives the same ids, so a re-import is a no-op and a
changed file is a conflict (or, with `--update`, a new revision). A generic name ("README.md",
"postmortem.md") is qualified by the folder it sits in.

A record of a CSV or JSON Lines file (or of `retain -`) without an id gets one from what it says,
`pm-<hash of title + date + service>`, not from where it sits: reordering the rows, renaming the
file or piping them in gives the same ids. Ids from before were positional (`pm-<file>-<row>`):
`RowIds` remembers each row's old id so an import can match a memory already stored under it.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.models import MemoryDraft

PREFIX = "pm-"
MAX_ID = 200
CONTENT_DIGEST_CHARS = 12  # 48 bits: a collision needs millions of incidents; one file's is refused
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


def content_incident_id(draft: MemoryDraft) -> str:
    """`pm-<hash>` of the title (case and spacing aside), the day it happened and the service."""
    key = "\n".join((
        " ".join(draft.title.split()).casefold(),
        draft.occurred_at.date().isoformat() if draft.occurred_at else "",
        (draft.service or "").strip().casefold(),
    ))  # fmt: skip
    return PREFIX + hashlib.sha256(key.encode()).hexdigest()[:CONTENT_DIGEST_CHARS]


class RowIds:
    """Names the id-less records of one file (`incident_id_for`) and remembers, for each id given,
    the positional id the record had before (`legacy`: new id → `pm-<file>-<row>`)."""

    def __init__(self, identity: PurePath) -> None:
        self._identity = identity
        self.legacy: dict[str, str] = {}

    def __call__(self, row: int, draft: MemoryDraft) -> str:
        incident_id = content_incident_id(draft)
        self.legacy.setdefault(incident_id, derived_incident_id(self._identity, row))
        return incident_id
