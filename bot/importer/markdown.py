"""Postmortems written in Markdown, the way teams usually write them.

    ---                                  optional front matter: flat `key: value` lines
    incident_id: INC-2024-031
    ---
    # Redis eviction storm on the session cache     the title: the first `# ` heading
    - **Service:** sessions                         metadata: `Key: value` lines before the first
    - **Severity:** SEV2                            section (or in a `## Metadata` section)
    - **Confirmed by:** Maya Chen
    ## Summary / Impact / Symptoms                  → symptoms
    ## Root cause                                   → root_cause
    ## Resolution                                   → resolution
    ## What didn't work                             → failed_attempts, one per list item,
    - Restarted Redis — the cache refilled ...        "action — why it failed"
    ## Lessons learned / Action items               → lesson

Sections with other names (Timeline, What went well, ...) are not imported. Every heading alias
is in SECTIONS; every metadata key in METADATA.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from bot.importer.drafts import WHY_SEPARATOR, Rejected, is_placeholder, read_text, seed_draft
from bot.models import MemoryDraft

# normalized heading → what it holds
SECTIONS: dict[str, str] = {
    **dict.fromkeys(
        ["summary", "executive summary", "incident summary", "overview", "description", "what happened"], "summary"
    ),
    **dict.fromkeys(["impact", "customer impact", "user impact", "business impact"], "impact"),
    **dict.fromkeys(["symptoms", "symptom", "detection", "symptoms and detection"], "symptoms"),
    **dict.fromkeys(["error", "errors", "error message", "error messages"], "error_message"),
    **dict.fromkeys(
        ["root cause", "root causes", "root cause analysis", "cause", "causes", "contributing factors", "trigger"],
        "root_cause",
    ),
    **dict.fromkeys(
        ["diagnosis", "investigation", "troubleshooting", "how it was found", "how we found it",
         "how the root cause was found"],
        "diagnosis",
    ),  # fmt: skip
    **dict.fromkeys(
        ["resolution", "fix", "the fix", "remediation", "mitigation", "recovery", "resolution and recovery",
         "what fixed it", "what worked", "how it was fixed"],
        "resolution",
    ),  # fmt: skip
    **dict.fromkeys(
        ["what went wrong", "what didn't work", "what did not work", "what we tried that didn't work",
         "what we tried that did not work", "failed attempts", "things that didn't work", "dead ends"],
        "failed_attempts",
    ),  # fmt: skip
    **dict.fromkeys(
        ["lessons learned", "lessons", "lesson", "lesson learned", "what we learned", "learnings", "takeaways",
         "key takeaways"],
        "lesson",
    ),  # fmt: skip
    **dict.fromkeys(
        ["action items", "actions", "follow ups", "followups", "follow up actions", "next steps",
         "corrective actions"],
        "action_items",
    ),  # fmt: skip
    **dict.fromkeys(["metadata", "details", "incident details", "incident metadata"], "metadata"),
}

# normalized metadata key → memory field
METADATA: dict[str, str] = {
    **dict.fromkeys(["incident id", "incident", "id", "incident number"], "incident_id"),
    **dict.fromkeys(["title"], "title"),
    **dict.fromkeys(["service", "services", "affected service", "affected services", "component", "system"], "service"),
    **dict.fromkeys(["severity", "sev", "severity level"], "severity"),
    **dict.fromkeys(
        ["date", "incident date", "started", "started at", "start", "start time", "occurred", "occurred at"],
        "occurred_at",
    ),
    **dict.fromkeys(["resolved", "resolved at", "ended", "end time", "recovered"], "resolved_at"),
    **dict.fromkeys(["confirmed by", "verified by"], "verified_by"),
    **dict.fromkeys(["tags", "labels"], "tags"),
    **dict.fromkeys(["error message"], "error_message"),
}

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_LIST_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$")
_WHY_LABEL = re.compile(r"^(?:why(?: it failed)?|because)\s*:?\s*", re.I)
_ISO_PREFIX = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}:\d{2}))?")
_DATE_FORMATS = ("%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y")


def _normalize(name: str) -> str:
    name = name.lower().replace("’", "'").replace("-", " ").replace("_", " ")
    name = re.sub(r"^[\d.\s]+", "", name)  # "2. Root cause"
    return " ".join(re.sub(r"[^a-z' ]+", " ", name).split())


def _plain(text: str) -> str:
    """Without emphasis markers and surrounding quotes: `**Service:**` and `"x"` say the same."""
    return text.replace("**", "").replace("__", "").strip().strip("`").strip().strip("'\"").strip()


def _clean(lines: list[str]) -> str:
    """The section's text with hard-wrapped paragraphs joined (Markdown reads a single newline as
    a space; Slack would not), list items and code kept on their own lines, fences dropped."""
    out: list[str] = []
    joinable = False  # whether the last line is prose that a wrapped line continues
    in_fence = False
    for line in _COMMENT.sub("", "\n".join(lines)).splitlines():
        if _FENCE.match(line):
            in_fence, joinable = not in_fence, False
            continue
        stripped = line.strip()
        code = in_fence or (line.startswith(("    ", "\t")) and not joinable)
        if code:
            out.append(line.rstrip())
        elif stripped and joinable and not _LIST_ITEM.match(line) and not stripped.startswith(("|", "#", ">")):
            out[-1] += " " + stripped
        else:
            out.append(stripped)
        joinable = bool(stripped) and not code
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()


def _key_value(line: str) -> tuple[str, str] | None:
    item = _LIST_ITEM.match(line)
    body = item.group(2) if item else line
    key, sep, value = body.partition(":")
    if not sep or len(key) > 40:
        return None
    return _normalize(_plain(key)), _plain(value.lstrip("*_ "))


def _front_matter(lines: list[str]) -> tuple[dict[str, str | list[str]], list[str]]:
    """Flat `key: value` front matter (and `key:` followed by `- item` lines) and the rest."""
    if not lines or lines[0].strip() != "---":
        return {}, lines
    for end in range(1, len(lines)):
        if lines[end].strip() in ("---", "..."):
            break
    else:
        raise Rejected("front matter opened with '---' is never closed")
    found: dict[str, str | list[str]] = {}
    last_key = None
    for line in lines[1:end]:
        item = re.match(r"^\s+-\s+(.*)$", line)
        if item and last_key is not None:
            previous = found.get(last_key)
            found[last_key] = [*(previous if isinstance(previous, list) else []), _plain(item.group(1))]
            continue
        pair = _key_value(line) if not line.startswith((" ", "\t", "#")) else None
        if pair:
            last_key, value = pair
            found[last_key] = value
    return found, lines[end + 1 :]


def _date(label: str, value: str) -> datetime:
    text = re.sub(r"\s*(UTC|GMT|Z)$", "", value.strip(), flags=re.I)
    candidates = [lambda: datetime.fromisoformat(text)]
    candidates += [lambda f=f: datetime.strptime(text, f) for f in _DATE_FORMATS]
    prefix = _ISO_PREFIX.match(text)
    if prefix:  # "2024-03-04 10:02–11:40 UTC": the start
        candidates.append(lambda: datetime.fromisoformat(" ".join(p for p in prefix.groups() if p)))
    for parse in candidates:
        try:
            moment = parse()
        except ValueError:
            continue
        return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
    raise Rejected(f"{label}: {value!r} is not a date (write YYYY-MM-DD or an ISO 8601 time)")


def _tags(value: str | list[str]) -> list[str]:
    items = value if isinstance(value, list) else re.split(r"[,;]", value.strip().strip("[]"))
    return [t for t in (_plain(i) for i in items) if t]


def failed_attempts(text: str) -> list[dict[str, str]]:
    """One attempt per top-level list item (or per paragraph when there is no list)."""
    items: list[list[str]] = []
    for line in text.splitlines():
        item = _LIST_ITEM.match(line)
        if item and not item.group(1):
            items.append([item.group(2)])
        elif items and line.strip():
            nested = _LIST_ITEM.match(line)
            items[-1].append(nested.group(2) if nested else line.strip())
    if not items:
        items = [[p] for p in re.split(r"\n\s*\n", text) if p.strip()]
    attempts = []
    for parts in items:
        action, why = parts[0], " ".join(_WHY_LABEL.sub("", p) for p in parts[1:])
        split = WHY_SEPARATOR.split(action, maxsplit=1)
        if len(split) == 2:
            action, why = split[0], " ".join(x for x in (split[1], why) if x)
        attempts.append({"action": _plain(" ".join(action.split())), "why_it_failed": _plain(why)})
    return attempts


def _metadata_line(line: str, meta: dict[str, Any], labels: dict[str, str]) -> bool:
    pair = _key_value(line)
    if not pair or pair[0] not in METADATA:
        return False
    meta.setdefault(pair[0], pair[1])  # front matter first, then the first line that says it
    labels.setdefault(METADATA[pair[0]], f"metadata {pair[0]!r}")
    return True


def _labels(headings: dict[str, list[str]]) -> dict[str, str]:
    """Which headings each field came from, so an error names the section to fix."""
    sources = {"symptoms": ("summary", "symptoms", "impact"), "lesson": ("lesson", "action_items")}
    labels = {}
    for name in ("symptoms", "error_message", "root_cause", "diagnosis", "resolution", "failed_attempts", "lesson"):
        found = [h for kind in sources.get(name, (name,)) for h in headings.get(kind, [])]
        labels[name] = "section " + " + ".join(repr(h) for h in found) if found else "the text under the title"
    return labels


def parse_markdown(text: str, *, team_id: str, incident_id: str) -> MemoryDraft:
    """One postmortem → one draft; `incident_id` is used when the file names none."""
    meta, lines = _front_matter(text.splitlines())
    meta_labels = {METADATA[k]: f"front matter {k!r}" for k in meta if k in METADATA}
    title: str | None = None
    sections: dict[str, list[str]] = {}
    headings: dict[str, list[str]] = {}  # what → headings it came from, to name them in errors
    preamble: list[str] = []
    current: list[str] | None = None  # None: before the first section
    in_fence = False
    for line in lines:
        if _FENCE.match(line):
            in_fence = not in_fence
        heading = None if in_fence else _HEADING.match(line)
        if heading and len(heading.group(1)) == 1 and title is None:
            title = _plain(heading.group(2))
            continue
        if heading:
            kind = SECTIONS.get(_normalize(_plain(heading.group(2))))
            if kind is not None or len(heading.group(1)) == 2:
                current = sections.setdefault(kind or "ignored", [])
                if kind:
                    current.append("")  # a blank line between two sections of the same kind
                    headings.setdefault(kind, []).append(_plain(heading.group(2)))
                continue
        (preamble if current is None else current).append(line)

    prose = []  # text under the title that is not metadata: the summary, when there is no section for it
    for line in preamble:
        if not _metadata_line(line, meta, meta_labels):
            prose.append(line)
    for line in sections.get("metadata", []):
        _metadata_line(line, meta, meta_labels)

    title = title or (str(meta["title"]) if meta.get("title") else None)
    if not title:
        raise Rejected("no title: expected a '# ' heading (or `title:` in front matter)")
    known = set(sections) - {"ignored", "metadata"}
    if not known:
        raise Rejected("no postmortem sections: expected headings like '## Summary', '## Root cause', '## Resolution'")

    def body(kind: str) -> str:
        return _clean(sections.get(kind, []))

    summary = body("summary") or _clean(prose)
    impact = body("impact")
    actions = body("action_items")
    fields: dict[str, Any] = {
        "incident_id": incident_id,
        "title": title,
        "symptoms": "\n\n".join(x for x in (summary, body("symptoms"), impact and f"Impact: {impact}") if x),
        "error_message": body("error_message"),
        "root_cause": body("root_cause"),
        "diagnosis": body("diagnosis"),
        "resolution": body("resolution"),
        "failed_attempts": failed_attempts(body("failed_attempts")),
        "lesson": "\n\n".join(x for x in (body("lesson"), actions and f"Action items:\n{actions}") if x),
    }
    fields = {k: v for k, v in fields.items() if v not in ("", [])}
    for key, value in meta.items():
        name = METADATA.get(key)
        if name is None or value in ("", []) or is_placeholder(value):
            continue  # authors, status, links...: not part of a memory; "TBD": not said yet
        if name in ("occurred_at", "resolved_at"):
            fields[name] = _date(key, str(value))
        elif name == "tags":
            fields[name] = _tags(value)
        else:
            fields[name] = value if isinstance(value, str) else ", ".join(value)
    return seed_draft(fields, team_id=team_id, labels=_labels(headings) | meta_labels)


def read_markdown(path: Path, *, team_id: str, incident_id: str) -> list[MemoryDraft]:
    return [parse_markdown(read_text(path), team_id=team_id, incident_id=incident_id)]
