"""Rule files: the one place that reads and writes them (YAML, one rule a file, `<id>.yaml`).

A file that does not fit the schema is refused with its name and the field at fault; nothing
in it is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import ValidationError

from bot.rules.model import Rule

SUFFIX = ".yaml"  # what `rules propose` writes
SUFFIXES = (SUFFIX, ".yml")  # what is read: YAML's two usual extensions
MAX_FILE_BYTES = 1024 * 1024
HEADER = """\
# An incident-memory rule, proposed from confirmed incidents (see README: from memories to rules).
# It is inert until a reviewer approves this version: reviewed_by, approved_at, decision: approved.
# Editing what it matches or recommends (match, root_cause, checks, fix, dead_ends) makes it
# inert again until `incident-memory rules replay <id>` bumps the version and replays it.
"""


class RuleFileError(Exception):
    """A rule file that cannot be used; the message names the file and the field."""


@dataclass(frozen=True, slots=True)
class RuleFile:
    path: Path
    rule: Rule


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "file"
        if err["type"] == "extra_forbidden":
            parts.append(f"{where}: unknown field")
        elif err["type"] == "missing":
            parts.append(f"{where}: missing")
        else:
            parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def read_rule(path: Path) -> Rule:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise RuleFileError(f"{path}: larger than {MAX_FILE_BYTES // 1024} KiB; not a rule file")
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RuleFileError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise RuleFileError(f"{path}: not UTF-8 text") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise RuleFileError(f"{path}: not valid YAML{where}: {getattr(exc, 'problem', None) or exc}") from exc
    if not isinstance(data, dict):
        raise RuleFileError(f"{path}: expected a mapping of rule fields, found {type(data).__name__}")
    try:
        rule = Rule.model_validate(data)
    except ValidationError as exc:
        raise RuleFileError(f"{path}: {_describe(exc)}") from exc
    if path.stem != rule.id or path.suffix not in SUFFIXES:
        raise RuleFileError(f"{path}: rule {rule.id} must be kept in {rule.id}{SUFFIX} (or .yml)")
    return rule


def rule_path(folder: Path, rule_id: str) -> Path:
    """Where the rule is kept: its .yml file when that is what the folder has, else .yaml."""
    kept = folder / f"{rule_id}.yml"
    return kept if kept.is_file() and not (folder / f"{rule_id}{SUFFIX}").exists() else folder / f"{rule_id}{SUFFIX}"


def write_rule(folder: Path, rule: Rule) -> Path:
    """Write atomically (a half-written rule file is never read)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = rule_path(folder, rule.id)
    body = yaml.safe_dump(
        rule.model_dump(mode="json"), sort_keys=False, allow_unicode=True, width=100, default_flow_style=False
    )
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(HEADER + body, encoding="utf-8")
    partial.replace(path)
    return path


def rule_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES and p.is_file() and not p.name.startswith("."))


def other_files(folder: Path) -> list[Path]:
    """Files of a rules folder that are not read as rules (named, so a misnamed one is noticed)."""
    if not folder.is_dir():
        return []
    return sorted(
        p for p in folder.iterdir() if p.suffix not in SUFFIXES and p.is_file() and not p.name.startswith(".")
    )


def load_rules(folder: Path) -> tuple[list[RuleFile], list[RuleFileError]]:
    """Every rule file of the folder: those that fit the schema, and why the others do not."""
    loaded: list[RuleFile] = []
    refused: list[RuleFileError] = []
    if not folder.is_dir():
        return loaded, refused
    for path in rule_files(folder):
        try:
            loaded.append(RuleFile(path, read_rule(path)))
        except RuleFileError as exc:
            refused.append(exc)
    return loaded, refused
