"""Postmortems written in Markdown or exported as plain text → one memory each, with where every
field came from.

    the shape (front matter, title, sections by meaning)     bot/importer/document.py
    a section's text and its sentences                       bot/importer/section_text.py
    what a heading means                                     bot/data/postmortem_sections.json
    metadata lines and which date is the incident's          bot/importer/metadata.py
    timelines: entries                                       bot/importer/timeline.py
    root cause and fix when no section names them            bot/importer/cause_fix.py
    the fix and attempts that failed, cause sentences         bot/reader (narrative.py, cues.py)
    reading a date                                           bot/importer/dates.py

Fields come from the sections of their kind; when there is none, the fix comes from the timeline
entries that resolved or rolled back, the root cause from the summary's sentences that say what
caused it. Only a file that does not report an incident (a template, an index) is refused, as
`NotAnIncident` with the reason.
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any

from bot.importer.alerts import alerts_from, alerts_in_section
from bot.importer.cause_fix import (
    MODEL_POLICY,
    cause_before_the_mechanism,
    fix_beside_the_section,
    fix_without_section,
    root_cause_without_section,
    sentence_candidates,
    with_model,
)
from bot.importer.document import Document, logical_lines, parse_document, plain, title_from_name
from bot.importer.drafts import WHY_SEPARATOR, NotAnIncident, Rejected, is_placeholder, seed_draft
from bot.importer.identity import GENERIC_NAMES
from bot.importer.metadata import (
    FoundFields,
    is_field_line,
    is_incident_record,
    read_dates,
    read_metadata,
    read_prose_details,
)
from bot.importer.section_text import LIST_ITEM, join_lines, section_text, sections_text, units
from bot.importer.timeline import Entry, headless_timeline, read_timeline
from bot.importer.vocabulary import normalize_heading
from bot.models import MAX_TEXT, MemoryDraft
from bot.reader.cues import DETECTION_HEADING, INCIDENT_WORDS
from bot.reader.fix import without_non_causes, without_non_fixes
from bot.reader.found import how_found
from bot.reader.metadata_time import cause_without_how_long, cause_without_when
from bot.reader.narrative import failed_in_prose, failed_in_text, is_critique
from bot.reader.narrative_timeline import failed_in_timeline
from bot.reader.notice import is_planned_work_notice
from bot.reader.read import without_metadata, without_unknown_cause

EXTRACTOR = "markdown-sections/2"

_WHY_LABEL = re.compile(r"^(?:why(?: it failed)?|because)\s{0,40}:?\s{0,40}", re.I)
# "{{ service }}" is a blank to fill; "{{ 06:10 }}" is one filled in (a figure in the braces); a Hugo shortcode
# ("{{< track … >}}", "{{% note %}}", and as a web page's text escapes it, "{{&lt; …") is the site's markup. Each
# closes within 200 characters: a crafted line of "[todo " with none closed was read to its end from each (0.8 s for 40k)
_PLACEHOLDER_TEXT = re.compile(
    r"\{\{(?!\s{0,40}(?:<|%|&lt;))[^{}\d]{0,200}\}\}|\[(?:insert|add|describe|link|todo|tbd|enter|your|name|date|title)[^\]]{0,200}\]|"
    r"<(?:insert|add|describe|link|todo|tbd|enter|your|name|date|title|service|team|description)[^>]{0,200}>|"
    r"\b(?:YYYY-MM-DD|HH:MM|XX:XX|MM/DD/YYYY|lorem ipsum)\b",
    re.I,
)
_TEMPLATE_TITLE = re.compile(
    r"^(?:incident|issue|postmortem|post mortem|outage|event)?\s{0,40}(?:title|name|template|summary)(?: here)?$|template",
    re.I,
)
_INDEX_NAMES = {"readme", "index", "contributing", "license", "changelog", "code of conduct", "security"}


def _named_as_index(stem: str) -> bool:
    """A folder's index by its name: "README.md", "ops-readme.md", "postmortems-index.md". "index" is
    also what an incident is about ("2023-05-index-outage.md", "broken-elasticsearch-index.md"), so it
    names an index only beside words that say nothing else. "readme" names an index when it ends the name
    (the README of what comes before it: "kubernetes-test-infra-readme.md"); inside a name it is a
    project's word ("github-readme-stats-2281-stats-card-rate-limit.md", a badge service's outage)."""
    words = stem.split()
    if stem in _INDEX_NAMES or words[-1:] == ["readme"]:
        return True
    return "index" in words and all(w in GENERIC_NAMES or w.removesuffix("s") in GENERIC_NAMES for w in words)


def _explicit_attempts(text: str) -> list[dict[str, str]]:
    """One attempt per top-level list item of a "What didn't work" section (or per paragraph)."""
    items: list[list[str]] = []
    for line in text.splitlines():
        item = LIST_ITEM.match(line)
        if item and not item.group(1):
            items.append([item.group(2)])
        elif items and line.strip():
            nested = LIST_ITEM.match(line)
            items[-1].append(nested.group(2) if nested else line.strip())
    if not items:
        items = [[p] for p in re.split(r"\n\s*\n", text) if p.strip()]
    attempts = []
    for parts in items:
        action, why = parts[0], " ".join(_WHY_LABEL.sub("", p) for p in parts[1:])
        if is_critique(action):
            continue  # "it took us 9 hours to notice": about the response, not an attempt
        split = WHY_SEPARATOR.split(action, maxsplit=1)
        if len(split) == 2:
            action, why = split[0], " ".join(x for x in (split[1], why) if x)
        attempts.append({"action": plain(" ".join(action.split())), "why_it_failed": plain(why)})
    return attempts


def _failed_attempts(
    doc: Document, entries: list[Entry], timeline_prose: str
) -> tuple[list[dict[str, str]], list[str]]:
    attempts: list[dict[str, str]] = []
    origins: list[str] = []
    for section in doc.of_kind("failed_attempts"):
        found = _explicit_attempts(section_text(section))
        attempts += found
        origins += [section.label] * len(found)
    for entry, attempt in failed_in_timeline(entries):
        attempts.append(attempt)
        origins.append(f"timeline entry {entry.when!r}")
    for attempt in failed_in_text(timeline_prose):
        attempts.append(attempt)
        origins.append("the timeline's prose")
    # the text under the title tells the story when no section does: read as a summary is
    told = [line for line in doc.preamble if not is_field_line(line) and not line.lstrip().startswith(">")]
    found = failed_in_prose(join_lines(told))
    attempts += found
    origins += ["the text under the title"] * len(found)
    for section in doc.sections:
        if section.kind in ("resolution", "diagnosis"):  # they tell what was done: every sentence counts
            found = failed_in_text(section_text(section))
        elif section.kind in ("summary", None):  # they mostly tell what the system did
            # quoted chat logs ("> alice [5:13 PM] ...") are not the story of what was tried
            told = [line for line in section.lines if not line.lstrip().startswith(">")]
            found = failed_in_prose(section_text(section) if len(told) == len(section.lines) else join_lines(told))
        else:
            continue
        attempts += found
        origins += [section.label] * len(found)
    seen: set[str] = set()
    kept, kept_origins = [], []
    for attempt, origin in zip(attempts, origins, strict=True):
        key = " ".join(attempt["action"].lower().split())[:120]
        if key and key not in seen and not any(key in s or s in key for s in seen):
            seen.add(key)
            kept.append({"action": attempt["action"][:MAX_TEXT], "why_it_failed": attempt["why_it_failed"][:MAX_TEXT]})
            kept_origins.append(origin)
    return kept, kept_origins


def _refuse_non_incidents(doc: Document, name: str, text: str) -> None:
    content = [line for line in text.splitlines() if line.strip()]
    placeholders = sum(1 for line in content if _PLACEHOLDER_TEXT.search(line))
    title = normalize_heading(doc.title or "")
    if _TEMPLATE_TITLE.search(title) or "template" in PurePath(name).stem.lower():
        if placeholders or "template" in PurePath(name).stem.lower() or "template" in title:
            raise NotAnIncident(f"a postmortem template, not an incident report (title {doc.title!r})")
    if placeholders >= 3 and placeholders >= 0.2 * len(content):
        raise NotAnIncident(f"a postmortem template, not an incident report ({placeholders} placeholders)")
    stem = normalize_heading(PurePath(name).stem.replace("_", " ").replace("-", " "))
    told = ("root_cause", "contributing", "resolution", "timeline", "failed_attempts")
    substantive = [s for s in doc.sections if s.kind in told]
    if _named_as_index(stem) and not substantive:
        raise NotAnIncident(
            f"{PurePath(name).name} is an index, not an incident report (no root cause, fix or timeline)"
        )
    body = "\n".join([join_lines(doc.preamble), *(section_text(s) for s in doc.sections)])
    if len(body.strip()) < 20:
        raise NotAnIncident("nothing but a title: no text to remember")
    if is_planned_work_notice(doc.title or "", body):
        raise NotAnIncident(
            "a notice of planned work (maintenance announced ahead, no failure reported), not an incident"
        )
    known = [s for s in doc.sections if s.kind not in (None, "metadata")]
    # a status page's entry (front matter "severity", "affected", "resolved") is an incident, however it is worded
    if not known and not is_incident_record(doc) and not INCIDENT_WORDS.search(f"{doc.title or ''}\n{body}"):
        raise NotAnIncident("no postmortem sections and no word of an incident (outage, error, failure, root cause...)")


# timeline entries read for how it was found: the first ones tell it ("13:00 @dma noticed the queue backing up")
FOUND_ENTRIES = 10
_NOT_FOUND_IN = ("lesson", "action_items", "metadata", "failed_attempts", "resolution", "timeline")


def _how_found(doc: Document, entries: list[Entry], timeline_prose: str = "") -> tuple[str, str]:
    """The sentences that say how the incident was found, preferring a "Detection" section's, then
    the text under the title and the summary's, then the timeline's first entries and its prose (a
    timeline told in paragraphs: "At 11:17 UTC … Our monitoring fired"), then the rest."""
    detection = [s for s in doc.sections if DETECTION_HEADING.search(s.heading or "")]
    told: list[tuple[str, str]] = [(u, s.label) for s in detection for u in units(section_text(s))]
    told += [
        (u, "the text under the title") for u in units(join_lines([ln for ln in doc.preamble if not is_field_line(ln)]))
    ]
    told += [
        (u, s.label)
        for s in doc.sections
        if s.kind in ("summary", "symptoms") and s not in detection
        for u in units(section_text(s))
    ]
    told += [(u, f"timeline entry {e.when!r}") for e in entries[:FOUND_ENTRIES] for u in units(e.text)]
    told += [(u, "the timeline's prose") for u in units(timeline_prose)]
    told += [
        (u, s.label)
        for s in doc.sections
        if s.kind not in (*_NOT_FOUND_IN, "summary", "symptoms") and s not in detection
        for u in units(section_text(s))
    ]
    found = how_found(u for u, _ in told)
    origin = {u: o for u, o in reversed(told)}
    return " ".join(found), " + ".join(dict.fromkeys(f"sentences of {origin[u]}" for u in found))


_SERVICE_TAG = re.compile(r"^(?:service|component|system|app)\s{0,40}[:/=]\s{0,40}(\S.*)$", re.I)


def _coerced(found: dict[str, Any]) -> dict[str, Any]:
    """Front matter values as the memory holds them: tags a list of strings, the rest text."""
    values = dict(found)
    if "tags" in values:
        raw = values["tags"]
        items = raw if isinstance(raw, list) else re.split(r"[,;]", str(raw).strip().strip("[]"))
        values["tags"] = [t[:100] for t in (plain(str(i)) for i in items) if t][:50]
        named = [m.group(1) for t in values["tags"] if (m := _SERVICE_TAG.match(t))]
        if named and "service" not in values:  # a tag "service:checkout" names the service
            values["service"] = ", ".join(named)
    for key in ("service", "severity", "incident_id", "verified_by", "error_message"):
        if isinstance(values.get(key), list):
            values[key] = ", ".join(str(v) for v in values[key])
        elif key in values and not isinstance(values[key], str):
            values[key] = str(values[key])
    return values


def incident_document(text: str, name: str) -> Document:
    """The postmortem's shape, or `NotAnIncident` (empty, a template, an index, planned work): what
    import decides before it reads any field (about a fiftieth of the reading's time)."""
    doc = parse_document(text)
    if not text.strip():
        raise NotAnIncident("the file is empty")
    read_prose_details(doc)
    _refuse_non_incidents(doc, name, text)
    return doc


def titled_document(text: str, name: str) -> tuple[Document, str | None]:
    """incident_document, its title left from a template ("# ISSUE NAME") replaced by the text's first
    short line (taken out of the text under the title): the document every field is read from, and
    its title (None: none found, the file name's is used)."""
    doc = incident_document(text, name)
    title = doc.title
    if title and _TEMPLATE_TITLE.search(normalize_heading(title)):  # "# ISSUE NAME" left from the template
        title = next((plain(line) for line in doc.preamble if plain(line) and len(plain(line)) <= 150), None)
        doc.preamble = doc.preamble[1:] if title else doc.preamble
    return doc, title


def timeline_of(doc: Document) -> tuple[list[Entry], str]:
    """The timeline's entries (its sections', else one told in the text under the title: "1436 -
    alert that …") and the prose between them: what the fields of a story are read from (the
    failed attempts, how it was found, the fix)."""
    timelines = [
        read_timeline(logical_lines(s.lines), status_updates=s.status_updates) for s in doc.of_kind("timeline")
    ]
    entries = [e for found, _ in timelines for e in found]
    if not timelines:
        entries = headless_timeline(doc.title or "", logical_lines(doc.preamble))
    return entries, "\n\n".join(prose for _, prose in timelines if prose)


def parse_markdown(text: str, *, team_id: str, incident_id: str, name: str = "postmortem.md") -> MemoryDraft:
    """One postmortem → one seed draft with its provenance; `incident_id` when the file names none."""
    doc, title = titled_document(text, name)
    fields = FoundFields()
    title = title or title_from_name(name)
    fields.put("title", title[:300], {"front matter": "front matter 'title'", "heading": "the first heading",
                                      "first line": "the first line"}.get(doc.title_from, "the file name"))  # fmt: skip
    inline: dict[str, list[tuple[str, str]]] = {}
    read_metadata(doc, fields, inline)
    fields.put("alerts", alerts_from(doc.meta.get("alerts")), "front matter 'alerts'")

    def take(kind: str) -> tuple[str, str]:
        text, origin = sections_text(doc.of_kind(kind))
        extra = inline.get(kind, [])
        if extra:
            text = "\n\n".join(x for x in (text, *(v for v, _ in extra)) if x)
            origin = " + ".join(x for x in (origin, *(o for _, o in extra)) if x)
        return text, origin

    # else an "Alerts" section, else an "Alerts: A, B{x=1}" line: the first that names any
    for listed, listed_from in [sections_text(doc.of_kind("alerts")), *inline.get("alerts", [])]:
        fields.put("alerts", alerts_in_section(listed), listed_from)
    preamble_prose = join_lines([line for line in doc.preamble if not is_field_line(line)])
    summary, summary_from = take("summary")
    if not summary and preamble_prose:
        summary, summary_from = preamble_prose, "the text under the title"
    elif preamble_prose and len(preamble_prose) > 40:
        summary, summary_from = f"{preamble_prose}\n\n{summary}", f"the text under the title + {summary_from}"
    symptoms, symptoms_from = take("symptoms")
    impact, impact_from = take("impact")
    fields.put(
        "symptoms",
        "\n\n".join(x for x in (summary, symptoms, impact and f"Impact: {impact}") if x),
        " + ".join(x for x in (summary_from, symptoms_from, impact_from) if x),
    )
    entries, timeline_prose = timeline_of(doc)
    other = "\n\n".join(section_text(s) for s in doc.sections if s.kind in (None, "diagnosis", "impact"))
    for kind in ("error_message", "root_cause", "diagnosis", "resolution"):
        said, origin = take(kind)
        if kind == "diagnosis":  # how it was found first, then the section that tells the investigation
            found, found_from = _how_found(doc, entries, timeline_prose)
            if found and found not in said:
                said = f"{found}\n\n{said}".strip()
                origin = " + ".join(x for x in (found_from, origin) if x)
        if kind in ("root_cause", "resolution"):  # a duration or an impact count is never the fix or the cause
            said = without_metadata(said)
            said = "" if is_placeholder(said) else said
        fields.put(kind, said, origin)
    candidates = sentence_candidates(doc, title, entries) if set(MODEL_POLICY.values()) != {"rules"} else []
    if fields.origins.get("root_cause", "").startswith("section"):  # a section's mechanism: what broke first
        before = cause_before_the_mechanism(doc, summary, fields.values["root_cause"])
        if before:
            fields.values["root_cause"] = " ".join(before) + "\n\n" + fields.values["root_cause"]
            fields.origins["root_cause"] = f"sentences of {summary_from} + {fields.origins['root_cause']}"
    if "root_cause" not in fields.values:
        rules = root_cause_without_section(doc, title, summary, summary_from, other)
        fields.put("root_cause", *with_model("cause", rules, candidates))
    if candidates and MODEL_POLICY["fix"] != "rules" and fields.origins.get("resolution", "").startswith("section"):
        # a resolution section the fix head reads no step in: the step it is sure of elsewhere follows the section's text
        beside = [t for t in fix_beside_the_section(candidates) if t not in fields.values["resolution"]]
        if beside:
            fields.values["resolution"] += "\n\n" + " ".join(beside)
            fields.origins["resolution"] += " + sentences of other sections (sentence model)"
    if "resolution" not in fields.values:
        rules = fix_without_section(summary, summary_from, entries, timeline_prose, other)
        fields.put("resolution", *with_model("fix", rules, candidates))
    for kind in ("root_cause", "resolution"):  # whichever way they were found: no metadata line in them
        if kind in fields.values:
            fields.values[kind] = without_metadata(fields.values[kind])
            if kind == "root_cause":  # "unable to establish root cause" is no cause; how long or when, none either
                fields.values[kind] = without_non_causes(
                    without_unknown_cause(cause_without_when(cause_without_how_long(fields.values[kind])))
                )
            else:  # "we are working to restore service", "restarting did not help": no step that fixed it
                fields.values[kind] = without_non_fixes(fields.values[kind])
            if not fields.values[kind]:  # nothing left: no field, and no origin for it
                del fields.values[kind], fields.origins[kind]
    attempts, attempt_origins = _failed_attempts(doc, entries, timeline_prose)
    fields.put("failed_attempts", attempts, "; ".join(dict.fromkeys(attempt_origins)))
    lesson, lesson_from = take("lesson")
    actions, actions_from = take("action_items")
    fields.put(
        "lesson",
        "\n\n".join(x for x in (lesson, actions and f"Action items:\n{actions}") if x),
        " + ".join(x for x in (lesson_from, actions_from) if x),
    )
    body = "\n".join(section_text(s) for s in doc.sections if s.kind not in ("lesson", "action_items"))
    read_dates(doc, fields, name, entries, "\n".join((join_lines(doc.preamble), summary, body))[:20_000])
    values = _coerced(fields.values)
    values.setdefault("incident_id", incident_id)
    provenance = {"file": name, "extractor": EXTRACTOR, "fields": dict(fields.origins)}
    return seed_draft(values, team_id=team_id, labels=fields.origins, provenance=provenance)


def parse_bounded(text: str, *, team_id: str, incident_id: str, name: str, max_chars: int) -> list[MemoryDraft]:
    """A postmortem's text (a web page or Word file's too, once made Markdown), refused past `max_chars`."""
    _refuse_too_long(text, max_chars)
    return [parse_markdown(text, team_id=team_id, incident_id=incident_id, name=name)]


def refusal(text: str, *, name: str, max_chars: int) -> str | None:
    """Why import would keep nothing of this postmortem text (too long, or not an incident), or None;
    without reading its fields: a cheap check of many documents (tests/test_eval_first_reports.py)."""
    try:
        _refuse_too_long(text, max_chars)
        incident_document(text, name)
    except Rejected as exc:  # NotAnIncident too
        return str(exc)
    return None


def _refuse_too_long(text: str, max_chars: int) -> None:
    if len(text) > max_chars:  # refused, not cut: half a postmortem would be a wrong memory
        raise Rejected(
            f"longer than {max_chars:,} characters ({len(text):,}); split it, or raise IMPORT_MAX_DOCUMENT_CHARS"
        )
