"""The root cause and the fix of a postmortem when no section names them: the summary's sentences
that say what caused or fixed it, "Contributing factors", "What went wrong", the timeline entries
that restored service, and the sentence model (bot/reader/sentences.py) joined to these cue words by
the policy chosen on the tuning fold."""

from __future__ import annotations

import re

from bot.importer.document import Document, parse_document, title_from_name
from bot.importer.metadata import is_field_line, read_prose_details
from bot.importer.section_text import LIST_ITEM, join_lines, section_text, sections_text, unit_parts, units
from bot.importer.timeline import Entry, read_timeline
from bot.importer.vocabulary import names_the_cause
from bot.reader.cues import ANAPHOR, CAUSE, FIX, STARTS_WITH_WE, WENT_WRONG
from bot.reader.cues_fix import (
    CAUSE_AS_SUBJECT,
    CAUSE_OF_THE_INCIDENT,
    CAUSE_RELATED,
    EXPECTED_STATE,
    WE_TOOK_A_STEP,
)
from bot.reader.fix import names_no_step, tells_no_step_taken, tells_the_cause_outright, tells_trouble_not_why
from bot.reader.narrative import is_critique, resolving
from bot.reader.read import holds_a_figure, strip_metadata
from bot.reader.sentences import (
    MAX_CANDIDATES,
    MAX_SENTENCE_CHARS,
    QUOTES_WHAT_WAS_SEEN,
    Candidate,
    best,
    model,
    probability,
)
from bot.reader.text import SITE_MARKUP

CAUSE_SENTENCES = 4  # the cue words' sentences a cause or a fix is made of, at most
# a fix pick's neighbour is stored beside it only when the model calls it more fix than not (its logistic boundary, not
# searched, though set after fold A's 29 neighbours' probabilities had been seen): without the bar, 26 of the 29 it stored
# one organisation out on fold A were no fix (causes, harm, a status page's thanks); with it, the 3 that held the fix
# stay (docs/BENCHMARKS.md, "Root cause and fix, tenth pass")
BESIDE_AT_LEAST = 0.5
_LIST_ITEMS = 40  # a candidate's list items read for what is stored, at most


def _read_unit(parts: list[str], in_words: bool = True) -> str:
    """A unit without what is metadata in it: a figure's clause out, the rest read; a list's items each judged alone,
    as a line of their own is ("Full downtime: - Scheduled: 96 hours = 4.0 days - Unscheduled: …": the items are
    metadata, not the sentence's cause)."""
    return " ".join(x for x in (strip_metadata(p, in_words=in_words) for p in parts) if x)


def _sentences(text: str, pattern: re.Pattern[str], limit: int = CAUSE_SENTENCES) -> list[str]:
    """The sentences that match, with the sentence before one that starts "This ..." (what "this" is);
    for the fix, never one that names no step (bot/reader/fix.py), nor what "this" points at then."""
    parts = unit_parts(text)
    said = [" ".join(p) for p in parts]
    read = [_read_unit(p) for p in parts]

    def says(unit: str) -> bool:  # the cause also when the incident is said to relate to something
        return bool(pattern.search(unit) or (pattern is CAUSE and CAUSE_RELATED.search(unit)))

    fix = pattern in (FIX, WE_TOOK_A_STEP)
    chosen: dict[int, None] = {}
    for i, unit in enumerate(said):
        if fix and names_no_step(unit):
            continue
        judged = EXPECTED_STATE.sub(" ", unit) if fix else unit  # "should be operational": no critique
        if says(unit) and not is_critique(judged):
            if i and ANAPHOR.match(unit):  # "This caused 40min of total outage": what "this" is, even so
                chosen[i - 1] = None
            if read[i] and says(read[i]):
                chosen[i] = None
    # the sentences that name the incident's own cause first ("the outage was caused by …", and what
    # "this" is in "This is because …"), then the others
    named = {i for i in chosen if pattern is CAUSE and CAUSE_OF_THE_INCIDENT.search(said[i])}
    named |= {i - 1 for i in named if i and ANAPHOR.match(said[i]) and i - 1 in chosen}
    order = sorted(chosen, key=lambda i: (i not in named, i))
    return [read[i] for i in order if read[i]][:limit]


def _went_wrong(doc: Document) -> tuple[list[str], str]:
    """The first points of a "What went wrong" part that are not critiques of the response."""
    for section in doc.of_kind("lesson"):
        lines, inside = [], WENT_WRONG.search(section.heading) is not None
        for line in section.lines:
            if line.strip().endswith(":") and not LIST_ITEM.match(line):  # a subsection heading kept in its parent
                inside = WENT_WRONG.search(line) is not None
                continue
            if inside:
                lines.append(line)
        points = [u for u in units(join_lines(lines)) if not is_critique(u) and not STARTS_WITH_WE.match(u)][:2]
        if points:
            return points, f"points of {section.label} (what went wrong)"
    return [], ""


def root_cause_without_section(
    doc: Document, title: str, summary: str, summary_from: str, other: str
) -> tuple[str, str]:
    """The sentences that say what caused it (the title's included), from the summary, else other
    sections, else the system's part of "What went wrong"; a summary that only tells what users
    saw gives no root cause rather than a wrong one."""
    title_cause = title if CAUSE.search(title) else ""
    title_from = "the title" if title_cause else ""
    # "Contributing factors" list what made it worse as well as what caused it ("nobody addressed the
    # alert"): its points that are not critiques of the response, after a cause the summary says
    factors, factors_from = sections_text(doc.of_kind("contributing"))
    points = [u for u in (strip_metadata(u) for u in units(factors)) if u and not is_critique(u)][:3]
    summary_said, summary_origin = _sentences(summary, CAUSE), f"sentences of {summary_from}"
    if 0 < len(summary_said) < CAUSE_SENTENCES:
        # a summary that says a cause word in fewer than four sentences often tells the effect ("… became
        # unreachable, causing new resource creation requests to fail") while a later section tells the cause
        # ("The store height not equalling the historic height is what caused our pruning issue", "The resources
        # were deleted by the cloud vendor before the grace period ran out"): their cause sentences fill the same
        # four, after the summary's (fold A one organisation out: docs/BENCHMARKS.md, r23-cause third pass)
        # (a sentence of theirs that says a figure is left out, as before the mechanism: a count or a share of users
        # is never part of a cause)
        told = [
            u for u in _sentences(other, CAUSE, 2 * CAUSE_SENTENCES) if u not in summary_said and not holds_a_figure(u)
        ]
        if told:
            summary_said = summary_said + told[: CAUSE_SENTENCES - len(summary_said)]
            summary_origin += " + sentences of other sections"
    for said, origin in (
        (summary_said, summary_origin),
        (points, f"points of {factors_from}"),
        (_sentences(other, CAUSE), "sentences of other sections"),
        _went_wrong(doc),
    ):
        if said:
            return " ".join([title_cause, *said]).strip(), " + ".join(x for x in (title_from, origin) if x)
    if not title_cause and (subject := _cause_as_subject(summary)):
        return subject, f"sentences of {summary_from} (what broke, as the subject)"
    return title_cause, title_from


def _cause_as_subject(summary: str) -> str:
    """The first sentence of a status entry that names what broke as its subject ("There is an issue with a legacy
    database …", `CAUSE_AS_SUBJECT`), without the site's markup around it; "" when none does."""
    for unit in (_read_unit(p) for p in unit_parts(summary)):
        said = " ".join(SITE_MARKUP.sub(" ", unit).split()).lstrip("*_ ")
        if said and CAUSE_AS_SUBJECT.search(said) and not is_critique(said):
            return said
    return ""


def cause_before_the_mechanism(doc: Document, summary: str, said: str) -> list[str]:
    """The summary's cause sentences (the incident's own cause first, at most four) to read before a root cause
    section whose heading names no cause (`root_cause_mechanism` in bot/data/postmortem_sections.json): such a section
    tells how it broke at length ("During CALL-variants, `geth` does not copy the input"), the summary what broke
    ("A memory-corruption bug within the EVM can cause a consensus error"). When a heading names the cause, only the
    summary's sentences that tell the cause outright (bot/reader/fix.py `tells_the_cause_outright`). A
    sentence that says a figure ("… exposed tokens for <0.01% of users, stemming from …") is left out: the section
    names the cause already, and a share of users is never part of a cause."""
    sections = doc.of_kind("root_cause")
    if not sections:
        return []
    told = [u for u in _sentences(summary, CAUSE) if u not in said and not holds_a_figure(u)]
    if any(names_the_cause(s.heading) for s in sections):  # only the summary's sentences that tell its cause outright
        return [u for u in told if tells_the_cause_outright(u)]
    return told


def fix_without_section(
    summary: str, summary_from: str, entries: list[Entry], timeline_prose: str, other: str = ""
) -> tuple[str, str]:
    """The summary's "resolved by ..." sentences, the timeline entries that restored service and
    the timeline's sentences that say what fixed it; when none of these says it, the sentences of
    other sections that do ("disabling the CDN's shield resolved the issue" under "Details")."""
    # the summary's fix words, else the steps its writer says they took ("We have moved affected workloads")
    said = " ".join(_sentences(summary, FIX) or _sentences(summary, WE_TOOK_A_STEP, 2))
    # an entry that tells no step taken ("Sam posts that it is restored") is no fix, nor does it make
    # the entry before it one, as a state-only entry would
    fixed = resolving([e for e in entries if not tells_no_step_taken(e.text)])
    told = " ".join(_sentences(timeline_prose, FIX))
    if not (said or fixed or told):
        elsewhere = " ".join(_sentences(other, FIX))
        return elsewhere, "sentences of other sections" if elsewhere else ""
    fixes = [said, *(f"{e.when} — {e.text}" for e in fixed), told]
    origins = [
        f"sentences of {summary_from}" if said else "", *(f"timeline entry {e.when!r}" for e in fixed),
        "sentences of the timeline" if told else "",
    ]  # fmt: skip
    return "\n".join(x for x in fixes if x), " + ".join(x for x in origins if x)


# How the sentence model (bot/reader/sentences.py) joins the cue words when no section names the
# field: "rules" (cue words only), "model" (the model's sentences only), "rules_else_model",
# "model_else_rules", "both". Chosen per field by measurement on the tuning fold
# (bench/fit_reader_sentences.py).
MODEL_POLICY = {"cause": "both", "fix": "both"}
_NOT_CANDIDATES = ("lesson", "action_items", "metadata", "timeline", "failed_attempts")


def sentence_candidates(doc: Document, title: str, entries: list[Entry], said: bool = False) -> list[Candidate]:
    """The sentences of a postmortem that could say its cause or its fix, each with its section:
    the title, the text under it, every section's sentences but lessons, action items and metadata,
    and the timeline's entries; never a metadata line. Harm and duration said in words (METADATA_SAID)
    are kept, as the shipped model was fitted on them (the fields lose them later); `said=True` cuts
    them too (the fitting bench's FIT_CUT_SAID: measured, docs/BENCHMARKS.md r23-fix)."""

    found: list[tuple[list[str], str, str]] = [([title], "title", "the title")]
    preamble = join_lines([line for line in doc.preamble if not is_field_line(line)])
    found += [(p, "summary", "the text under the title") for p in unit_parts(preamble)]
    for section in doc.sections:
        if section.kind not in _NOT_CANDIDATES:
            found += [(p, section.kind or "other", section.label) for p in unit_parts(section_text(section))]
    found += [([e.text], "timeline", f"timeline entry {e.when!r}") for e in entries]
    kept: list[tuple[str, str, str, str]] = []
    for parts, kind, origin in found:  # each cut to the sentence cap before any pattern reads it
        text = strip_metadata(" ".join(parts)[:MAX_SENTENCE_CHARS], in_words=said)
        if len(text) >= 12:
            # the model reads the unit as it was fitted on it; a list's items are judged one by one for what is stored
            stored = _read_unit([p[:MAX_SENTENCE_CHARS] for p in parts[:_LIST_ITEMS]], said) if len(parts) > 1 else ""
            kept.append((text, kind, origin, stored if stored != text else ""))
            if len(kept) >= MAX_CANDIDATES:
                break
    last = max(len(kept) - 1, 1)
    return [Candidate(t, kind, origin, i / last, stored) for i, (t, kind, origin, stored) in enumerate(kept)]


def candidates_of(text: str, name: str, said: bool = False) -> list[Candidate]:
    """The sentence candidates of one postmortem's text (for the fitting bench)."""
    doc = parse_document(text)
    read_prose_details(doc)
    entries = [e for s in doc.of_kind("timeline") for e in read_timeline(s.lines, status_updates=s.status_updates)[0]]
    return sentence_candidates(doc, doc.title or title_from_name(name), entries, said)


def with_model(head: str, rules: tuple[str, str], candidates: list[Candidate]) -> tuple[str, str]:
    policy = MODEL_POLICY.get(head, "rules")
    if policy == "rules" or (policy == "rules_else_model" and rules[0]):
        return rules
    if head == "cause":  # what users saw is no cause, however sure the model is (precision first)
        candidates = [c for c in candidates if not tells_trouble_not_why((c.stored or c.text)[:MAX_SENTENCE_CHARS])]
    chosen = best(candidates, head)
    if head == "fix":
        chosen = _with_the_step_beside(candidates, chosen)
    # a sentence a status page repeats in its timeline: once
    texts = list(dict.fromkeys(c.stored or c.text for c, _ in chosen))
    said = " ".join(texts)
    origin = " + ".join(dict.fromkeys(f"sentences of {c.origin} (sentence model)" for c, _ in chosen))
    if policy == "model" or (policy == "model_else_rules" and said) or (policy == "rules_else_model"):
        return said, origin
    if policy == "both" and said:
        parts = [rules[0]] + [t for t in texts if t not in rules[0]]
        return " ".join(p for p in parts if p).strip(), " + ".join(x for x in (rules[1], origin) if x)
    return rules


def fix_beside_the_section(candidates: list[Candidate]) -> list[str]:
    """The fix head's sure sentences outside the resolution sections (as `with_model` picks them: its keep, with the
    step told beside each), when the head is sure of none of the sections' own sentences: such a section often tells a
    follow-up, a plan or the structural fix made later ("- Spend more time envisioning worst case", "PR #25 … merged on
    2026-05-20") while the story tells the step that restored service ("Manually reverted and migrated relevant ArgoCD
    application manifests."). [] when the head is sure of one of the section's sentences, or of nothing outside it.
    Fold A one organisation out: 201 -> 203 right fixes, 80 -> 78 wrong (docs/BENCHMARKS.md, r23-pmfix)."""
    head = model().heads.get("fix")
    if head is None or any(probability(c, "fix") >= head.threshold for c in candidates if c.section == "resolution"):
        return []
    others = [c for c in candidates if c.section != "resolution"]
    return list(dict.fromkeys(c.stored or c.text for c, _ in _with_the_step_beside(others, best(others, "fix"))))


def _names_a_step(candidate: Candidate) -> bool:
    """A sentence the fix may store: it names a step (bot/reader/fix.py), is no metadata, tells no trouble met without
    its why, and quotes nothing that was seen."""
    said = (candidate.stored or candidate.text)[:MAX_SENTENCE_CHARS]
    return bool(
        said
        and not QUOTES_WHAT_WAS_SEEN.search(candidate.text[:MAX_SENTENCE_CHARS])
        and not names_no_step(said)
        and strip_metadata(said) == said
        and not tells_trouble_not_why(said)
    )


def _with_the_step_beside(candidates: list[Candidate], chosen: list[tuple[Candidate, float]]) -> list:
    """The model's fix sentences, each with the sentence just before and just after it in the same part of the document
    when that one names a step too: a fix is often told over two sentences ("We have implemented a work around and are
    routing mail via another server." beside "The work around has now been rolled back …"; "Once detected we pulled
    routes." after "We are tentatively restoring routes."), and one organisation out the model keeps the one it is
    surer of (fold A: docs/BENCHMARKS.md, r23-fix3). A pick that names no step itself brings none, and a neighbour the
    model does not call more fix than not (`BESIDE_AT_LEAST`) is not stored: "names a step" alone passes a cause, the
    harm or a status page's thanks told beside the fix (r23-cause4)."""
    place = {id(c): i for i, c in enumerate(candidates)}
    taken = {id(c) for c, _ in chosen}
    out = []
    for pick, p in chosen:
        out.append((pick, p))
        i = place.get(id(pick))
        if i is None or not _names_a_step(pick):
            continue
        for j in (i - 1, i + 1):
            beside = candidates[j] if 0 <= j < len(candidates) else None
            if beside is None or id(beside) in taken or (beside.section, beside.origin) != (pick.section, pick.origin):
                continue
            if _names_a_step(beside) and probability(beside, "fix") >= BESIDE_AT_LEAST:  # in the document's order
                taken.add(id(beside))
                out.insert(len(out) - 1 if j < i else len(out), (beside, p))
    return out
