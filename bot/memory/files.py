"""Reading memories from JSON or JSON Lines files (the memory format of docs/REPLAY.md).

Every record is validated before anything is written, and every problem names its line and field.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.models import MemoryDraft, Source, TruthState

MAX_FILE_BYTES = 200 * 1024 * 1024


class MemoryFileError(Exception):
    """A file that cannot be read as memories; the message names the line and field."""


@dataclass(frozen=True, slots=True)
class LoadedDraft:
    line: int
    draft: MemoryDraft


# What a nested object looks like, for errors that would otherwise name a Python class
SHAPES = {
    "FailedAttempt": '{"action": "what was tried", "why_it_failed": "why it did not work"}',
    "Correction": '{"author": "who", "text": "the correction"}',
}


def expected_shape(err: Any) -> str | None:
    """For an error that would name a Python class ("instance of FailedAttempt"): the shape."""
    shape = SHAPES.get(str((err.get("ctx") or {}).get("class_name", "")))
    if shape is None:
        return None
    given = err.get("input")
    return f"expected an object like {shape}, got {type(given).__name__} {given!r:.60}"


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "record"
        msg = err["msg"]
        if shape := expected_shape(err):
            msg = shape
        elif err["type"] == "string_too_long":
            msg = f"too long ({len(str(err.get('input', '')))} characters; at most {err['ctx']['max_length']})"
        parts.append(f"{where}: {msg}")
    return "; ".join(parts)


def draft_from_json(
    obj: Any, *, team_id: str, source: Source | None = None, ignore_unknown: bool = False
) -> MemoryDraft:
    """A draft from one memory object; `id` is accepted for `incident_id`, as corpora write it."""
    if not isinstance(obj, dict):
        raise ValueError(f"expected an object, got {type(obj).__name__}")
    data = dict(obj)
    if "id" in data and "incident_id" not in data:
        data["incident_id"] = data.pop("id")
    if data.get("truth_state") is None and data.get("verified_by"):
        # a record that names who confirmed it is confirmed, through `retain` as through `import`
        data["truth_state"] = TruthState.HUMAN_CONFIRMED.value
    data.setdefault("team_id", team_id)
    if source is not None:
        data.setdefault("source", source.value)
    if ignore_unknown:
        data = {k: v for k, v in data.items() if k in MemoryDraft.model_fields}
    if data.get("truth_state") is None:
        data.pop("truth_state", None)
    return MemoryDraft.model_validate(data)


def parse_records(text: str, name: str) -> list[tuple[int, Any]]:
    """(line number, object) pairs from a JSON document (object or list) or JSON Lines."""
    stripped = text.lstrip()
    if not stripped:
        raise MemoryFileError(f"{name}: the file is empty")
    if stripped[0] == "[":
        try:
            items = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MemoryFileError(f"{name}: broken JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from exc
        return [(i + 1, item) for i, item in enumerate(items)]
    if stripped[0] == "{":
        try:
            return [(1, json.loads(text))]
        except json.JSONDecodeError:
            pass  # not one object: read it as JSON Lines
    out: list[tuple[int, Any]] = []
    # JSON Lines ends a record at "\n" only: U+2028, U+0085 or a form feed inside a string (valid
    # JSON, common in text pasted from web pages) are not line ends, as str.splitlines() has them
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            out.append((number, json.loads(line)))
        except json.JSONDecodeError as exc:
            raise MemoryFileError(f"{name}: broken JSON on line {number}, column {exc.colno}: {exc.msg}") from exc
    return out


# An id-less record is validated under UNNAMED, then named by `IdFor(row, draft)` (the importer's
# identity.RowIds: from its title, date and service).
UNNAMED = "pm-unnamed"
IdFor = Callable[[int, MemoryDraft], str]


def same_content_id(incident_id: str, first_line: int) -> str:
    return (f"{incident_id} (from its title, date and service) is also line {first_line}'s, with other content: "
            "give one of them an incident_id")  # fmt: skip


def load_drafts(
    path: Path,
    *,
    team_id: str,
    source: Source | None = None,
    incident_id_for: IdFor | None = None,
) -> list[LoadedDraft]:
    """Every draft in the file, or MemoryFileError listing every invalid record (nothing half-read)."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise MemoryFileError(f"{path}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise MemoryFileError(f"{path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise MemoryFileError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    return drafts_from_text(text, str(path), team_id=team_id, source=source, incident_id_for=incident_id_for)


def drafts_from_text(
    text: str,
    path: str,
    *,
    team_id: str,
    source: Source | None = None,
    incident_id_for: IdFor | None = None,
) -> list[LoadedDraft]:
    """As load_drafts, from text already read (standard input); `path` names it in errors."""
    if len(text) > MAX_FILE_BYTES:
        raise MemoryFileError(f"{path}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    loaded: list[LoadedDraft] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for line, obj in parse_records(text, path):
        unnamed = incident_id_for is not None and isinstance(obj, dict) and not obj.get("incident_id", obj.get("id"))
        try:
            draft = draft_from_json({**obj, "incident_id": UNNAMED} if unnamed else obj, team_id=team_id, source=source)
            if unnamed:  # as `import` names it
                draft = draft.model_copy(update={"incident_id": incident_id_for(line, draft)})
        except ValidationError as exc:
            problems.append(f"{path}:{line}: {_describe(exc)}")
            continue
        except ValueError as exc:
            problems.append(f"{path}:{line}: {exc}")
            continue
        if draft.incident_id in seen and loaded[seen[draft.incident_id]].draft != draft:
            first = loaded[seen[draft.incident_id]].line
            said = same_content_id(draft.incident_id, first) if unnamed else (
                f"incident_id {draft.incident_id!r} appears again with other content")  # fmt: skip
            problems.append(f"{path}:{line}: {said}")
            continue
        seen.setdefault(draft.incident_id, len(loaded))
        loaded.append(LoadedDraft(line, draft))
    if problems:
        shown = problems[:20]
        more = f"\n… and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise MemoryFileError("invalid memories, nothing was written:\n" + "\n".join(shown) + more)
    return loaded
