"""A sequence of statements → typed findings with their quotes (bot/reader/findings.py).

    read(statements, mode="narrative")   postmortem timeline entries and prose (the importer)
    read(statements, mode="chat")        channel messages (the drafter's read_chat, as typed findings)

Precision first: a statement the cues cannot place gives no finding (an empty field beats a
wrong one). Work is bounded: at most MAX_STATEMENTS statements of MAX_STATEMENT_CHARS each are
read (a note says what was not), and every cue is a linear pattern over one sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Literal

from bot.reader.chat import ChatFinding, ChatMessage, read_chat
from bot.reader.cues import CAUSE, CAUSE_HEDGE, CAUSE_NEGATED, CRITIQUE, FIX
from bot.reader.cues_metadata import (
    ALERT_LINE,
    BARE_VALUE,
    CAUSE_UNKNOWN,
    EDITOR_NOTE,
    FIELD_WITH_BARE_VALUE,
    FIGURES_ASIDE,
    METADATA_CLAUSE_BREAK,
    METADATA_ESTIMATE,
    METADATA_FIGURE,
    METADATA_IMPACT,
    METADATA_SAID,
    METADATA_SHARE,
    METADATA_SPAN,
    NOTE_AT_THE_END,
    PHASE_ONLY,
    RECURRENCE,
    STATE_ONLY,
    STATUS_BOILERPLATE,
    THINGS,
    TIME_NOTE,
    WHEN_LEAD,
)
from bot.reader.cues_metadata_field import (
    FIELD,
    FIELD_ABOUT_MAX_WORDS,
    FIELD_KEY_ABOUT_THE_HARM,
    FIELD_KEY_ABOUT_THE_INCIDENT,
    FIELD_KEY_IS_PROSE,
    FIELD_KEY_NAMES_A_FINDING,
    FIELD_SHORT_VALUE_WORDS,
    FIELD_VALUE_IS_A_REFERENCE,
    FIELD_VALUE_LEADS_WITH_A_FIGURE,
    FIGURE_WORD,
    METADATA_LINE,
    TABLE_HEADER_CELL,
)
from bot.reader.cues_metadata_shape import (
    AFFECTED_ONLY,
    CAUSE_FOUND_UNTOLD,
    COUNT_OF_HARM,
    DOWNTIME_TALLY,
    DURATION_CELL,
    HARM_IN_THE_SPAN,
    IMPACT_FORECAST,
    PHASE_AT_TIME,
    REPORT_NOTE,
    STATE_THEN_ASK,
    STATE_WORD_ONLY,
    SYMPTOM_SEEN,
    TALK_ONLY,
    TELLING_USERS,
    TICKED_ITEM,
    VOLUME_TOLD,
)
from bot.reader.cues_metadata_state import (
    CONSEQUENCE_ONLY,
    READING_MOVED,
    REFERENCE_ONLY,
    STATE_FORECAST,
    STATE_OF_A_PART,
)
from bot.reader.findings import Finding, Kind, Outcome, Quote, Reading, Stance, Statement, quote
from bot.reader.found import how_found
from bot.reader.narrative import failed_in_prose, failed_in_text, resolving
from bot.reader.narrative_timeline import NAMED_LATER_WITHIN, failed_in_timeline
from bot.reader.text import (
    LINE_SENTENCE_BREAK,
    SENTENCE_BREAK,
    TRAILING_SHORTCODE,
    UPDATE_MARKUP,
    plain,
    split_after_shortcodes,
)
from bot.text_limits import DRAFT_MESSAGES, MESSAGE_CHARS, SENTENCE_CHARS

MAX_STATEMENTS = DRAFT_MESSAGES * 4  # a long postmortem's timeline and paragraphs, or a channel's window
MAX_STATEMENT_CHARS = MESSAGE_CHARS
_TOLD_AS_ACTIONS = ("resolution", "diagnosis")  # sections that tell what was done: every sentence counts
_TOLD_AS_SYSTEM = ("summary", None)  # sections that mostly tell what the system did


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_BREAK.split(text) if s.strip()]


_FIGURES_WORDS = 60  # the words of a line looked at to tell it is mostly figures
STATE_ONLY_CHARS = 240  # a status page's word on the state is one short sentence


def says_status_boilerplate(line: str) -> bool:
    """A status page's stock words ("We apologize for the inconvenience", "We are investigating") in the line's
    first `SENTENCE_CHARS` characters: a sentence is read that far (bot/text_limits.py). The pattern's ~50
    alternatives tried at every word of a 40,000-character line without a full stop were a quarter of the
    importer's work on it (docs/BENCHMARKS.md, "Reading crafted text")."""
    return STATUS_BOILERPLATE.search(line[:SENTENCE_CHARS]) is not None


def _is_metadata_line(sentence: str) -> bool:
    """A whole line about the incident: a field whose value is only a figure or a blank, a quoted
    alert, an author's note left to fill in, a status page's boilerplate or its word on the state
    ("All services back to normal."), a line mostly of figures (a table row of readings)."""
    return bool(
        METADATA_LINE.match(sentence)
        or BARE_VALUE.match(sentence)
        or FIELD_WITH_BARE_VALUE.match(sentence)
        or (NOTE_AT_THE_END.search(sentence) and FIELD_WITH_BARE_VALUE.match(NOTE_AT_THE_END.sub("", sentence)))
        or ALERT_LINE.match(sentence)
        or EDITOR_NOTE.match(sentence)
        or PHASE_ONLY.match(sentence)
        or TIME_NOTE.match(sentence)
        or says_status_boilerplate(sentence)
        or (
            len(sentence) <= STATE_ONLY_CHARS
            and (STATE_ONLY.match(sentence) or STATE_OF_A_PART.match(sentence) or STATE_FORECAST.match(sentence))
        )
        or REFERENCE_ONLY.match(sentence)
        or CONSEQUENCE_ONLY.match(sentence)
        or READING_MOVED.match(sentence)
        or mostly_figures(sentence)
        or _is_field_about_the_incident(sentence)
        or is_table_header_or_figures_row(sentence)
        or DOWNTIME_TALLY.search(sentence[:FIGURE_CHARS])
    )


_WHEN_WORDS = ("date", "time", "at", "on", "when")
FIELD_CHARS = 400  # a field is one short line; a longer one is prose that happens to hold a colon


def field_key(field: re.Match[str]) -> str:
    """A `Key: value` line's key in words: resolvedDate, resolved_on → "resolved Date", "resolved on"."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])|_", " ", field.group("key")).strip(" .-")


def _is_field_about_the_incident(line: str) -> bool:
    """A `Key: value` line by its shape, whose key names no finding: a key about the incident with a
    phrase for its value ("Additional Impact: frontend latency", "Affected contract: the KHYPE pool"), or
    any other key whose value is a figure, a date, a reference or a few words ("Attacker profit:
    146,577 USDC", "Ref: https://…", "Region: LON2", `resolved_on: 2020-11-15 18:30:00`)."""
    if len(line) > FIELD_CHARS or ":" not in line and "=" not in line:
        return False
    match = FIELD.match(line)
    if match is None:
        return False
    key = field_key(match)
    value = match.group("value").strip(" *_")
    when = key.lower().rsplit(" ", 1)[-1] in _WHEN_WORDS  # "Resolution date:", "resolved_on:" tell when, not how
    if not value or FIELD_KEY_IS_PROSE.search(key) or (FIELD_KEY_NAMES_A_FINDING.search(key) and not when):
        return False
    words = len(value.split())
    if FIELD_KEY_ABOUT_THE_HARM.search(key) and words <= FIELD_ABOUT_MAX_WORDS:
        return True
    sentence = value.endswith(".") and len(value.split()[-1]) > 2  # "Priya N." is a name, not a sentence
    if FIELD_KEY_ABOUT_THE_INCIDENT.search(key) and not sentence:
        return words <= FIELD_ABOUT_MAX_WORDS // 2
    return bool(
        FIELD_VALUE_LEADS_WITH_A_FIGURE.match(value)
        or FIELD_VALUE_IS_A_REFERENCE.match(value)
        or (words <= FIELD_SHORT_VALUE_WORDS and not sentence)
    )


def is_table_header_or_figures_row(line: str) -> bool:
    """A table's row of column names ("| Time | Block | Event |"), or one whose cells after the first are
    all figures ("| **Total** | | **25,622.41** | **1,473.58** |")."""
    if not line.startswith("|") or len(line) > FIELD_CHARS:
        return False
    cells = [c.strip() for c in line.strip("|").split("|")]
    filled = [c for c in cells if c.strip("*_` ")]
    if len(filled) < 2:
        return False
    if all(TABLE_HEADER_CELL.match(c) and not any(ch.isdigit() for ch in c) for c in filled):
        return True
    return all(FIGURE_WORD.match(c) for c in filled[1:])


_FIGURE_SPLIT = re.compile(r"[\s|;]+")  # a table's cells and a CSV row's fields are words too
_FIGURES_SHARE = 0.6  # a line this much figures, and at least _MIN_FIGURES of them, is a table row or a reading
_MIN_FIGURES = 3


def mostly_figures(sentence: str) -> bool:
    """A line that is mostly numbers, amounts, durations, times or hashes (at least three of them): a
    reading or a table row, not a finding. A timeline's leading date and time do not count
    ("2021-08-24 10:00 — released 1.10.8" is an action)."""
    words = [w for w in _FIGURE_SPLIT.split(sentence, maxsplit=_FIGURES_WORDS)[:_FIGURES_WORDS] if w.strip("-–—*_`>")]
    figures = [bool(FIGURE_WORD.match(w)) for w in words]
    lead = next((i for i, figure in enumerate(figures) if not figure), 0)
    figures = figures[lead:]
    return sum(figures) >= _MIN_FIGURES and sum(figures) >= _FIGURES_SHARE * len(figures)


def is_metadata(sentence: str) -> bool:
    """A line about the incident (a duration, an impact count, a date, a field whose value is only a
    figure or a blank, a quoted alert, a status page's boilerplate), never a fix or a cause."""
    sentence = sentence.strip()
    return _is_metadata_line(sentence) or _holds_a_figure(sentence)


def _is_metadata_by_shape(line: str) -> bool:
    """What the users could not do while it lasted ("During this period, ticket submission failed"), who or what it
    hit said with "affected" ("Multiple DE accounts are affected."), telling the users about it ("notifying the
    community of the app outage"), a note on the report itself ("Timestamps are
    approximate."), a ticked item ("- ✅ Cluster 100% healthy"), a status label and a bare state ("*Update* Resolved."), or an impact table's row ending in how
    long ("| seerr | completely unavailable | ~31m |"): metadata whatever the words."""
    shapes = (
        HARM_IN_THE_SPAN,
        REPORT_NOTE,
        TELLING_USERS,
        SYMPTOM_SEEN,
        CAUSE_FOUND_UNTOLD,
        IMPACT_FORECAST,
        STATE_THEN_ASK,
    )
    if any(p.match(line) for p in shapes):
        return True
    # who it hit, unless the line also says what broke or what was done in the vocabulary's cause or fix words ("The
    # primary database ran out of disk and every write was affected" is a root cause section's cause; "The cron job
    # deleted the index and search was affected" too): precision first, a cause kept beats an impact line cut
    if (AFFECTED_ONLY.match(line) or TICKED_ITEM.match(line)) and not (CAUSE.search(line) or FIX.search(line)):
        return True
    if len(line) <= STATE_ONLY_CHARS and STATE_WORD_ONLY.match(line):
        return True
    if not line.startswith("|") or len(line) > FIELD_CHARS:
        return False
    filled = [c.strip("*_` ") for c in line.strip("|").split("|") if c.strip("*_` ")]
    return len(filled) >= 3 and bool(DURATION_CELL.match(filled[-1]))


# a figure is looked for in a sentence's first 1,000 characters (as fix.py, found.py and the sentence
# model read it): a 40,000-character "sentence" of "$1$1…" took METADATA_FIGURE 150 ms a search
FIGURE_CHARS = 1_000


def _holds_a_figure(text: str, in_words: bool = True, shapes: bool = False) -> bool:
    """A figure about the incident: how long, how many, who it hit (`in_words`: said in prose too, METADATA_SAID)."""
    text = text[:FIGURE_CHARS]
    return bool(
        METADATA_FIGURE.search(text)
        or METADATA_IMPACT.search(text)
        or METADATA_SPAN.search(text)
        or METADATA_ESTIMATE.search(text)
        or METADATA_SHARE.search(text)
        or (in_words and METADATA_SAID.search(text))
        or (shapes and _said_by_shape(text))
    )


# a share of what it hit, whatever follows ("tokens for <0.01% of Replit users, stemming from …"): METADATA_SHARE
# also asks for the harm said after it ("5% of users were affected")
SHARE_OF_THINGS = re.compile(
    r"(?<![\d.,])\d{1,6}(?:[.,]\d{1,6})?\s?% of (?:[\w-]{1,40}\s){0,3}?" + THINGS + r"\b", re.I
)


def holds_a_figure(text: str) -> bool:
    """A sentence that says a figure about the incident anywhere in it (how long, how many, a share of the users),
    in prose or by its shape, even where no clause of it can be cut off alone."""
    text = text[:FIGURE_CHARS]
    return _holds_a_figure(text, in_words=True, shapes=True) or SHARE_OF_THINGS.search(text) is not None


def _said_by_shape(text: str) -> bool:
    """A status page's talk, a count of what it hit or left waiting, a volume of data and what became of it, a phase of
    the response with its time, how often it has happened (a clause of its own), whatever the words."""
    return bool(
        TALK_ONLY.match(text)
        or COUNT_OF_HARM.match(text)
        or VOLUME_TOLD.search(text)
        or PHASE_AT_TIME.search(text)
        or RECURRENCE.match(text)
    )


MIN_CLAUSE_WORDS = 3  # what is left of a sentence once its figures are out: fewer words, nothing left
# what is left may be only the link to what was cut ("As a result of this incident, approximately 5 Petabytes of data have
# been deleted"): nothing of its own, nothing left
_ONLY_A_LINK = re.compile(
    r"(?:as a (?:result|consequence)(?: of (?:this|the|that) \w{1,30})?|consequently|because of this)", re.I
)


def strip_metadata(sentence: str, in_words: bool = True, shapes: bool = False) -> str:
    """`sentence` without what is metadata in it: "" for a metadata line; a sentence that holds a
    figure in a clause of its own ("we were the target of a DDoS attack, approximately 75Gbit/s in
    size") keeps its other clauses. `in_words=False`: harm and duration said in prose (METADATA_SAID)
    stay, for the sentence model's candidates, which it was fitted on without that cut (the stored
    fields lose them afterwards all the same: `without_metadata`). `shapes`: bot/reader/cues_metadata_shape.py's
    shapes cut too, for what is stored only (`without_metadata`): the sentences the fix and the cause are chosen
    from stay those the sentence model and the cue words were tuned on."""
    sentence = FIGURES_ASIDE.sub("", sentence).strip() if shapes else sentence.strip()
    if _is_metadata_line(sentence) or (shapes and _is_metadata_by_shape(sentence)):
        return ""
    if not _holds_a_figure(sentence, in_words, shapes):
        return sentence
    kept = [c for c in METADATA_CLAUSE_BREAK.split(sentence) if c and not _holds_a_figure(c, in_words, shapes)]
    if sum(len(c.split()) for c in kept) < MIN_CLAUSE_WORDS or _ONLY_A_LINK.fullmatch(" ".join(kept).strip(" ,;:.")):
        return ""
    said = re.sub(r"[\s,;:—–-]+(?:but|and|or|so)?$", "", " ".join(kept).rstrip(" ,;:-—–."))  # no dangling "…, but"
    return said + ("." if sentence.endswith(".") else "")


def without_metadata(text: str) -> str:
    """`text` without its metadata lines and sentences ("Time to resolve: 31 minutes", "it lasted
    two hours"): what is left may be a fix or a cause; nothing left, nothing to store."""
    kept_lines = []
    for line in text.split("\n"):
        if UPDATE_MARKUP.search(line):  # a status site's update markup: its state and time, never a fix or a cause
            line = " ".join(UPDATE_MARKUP.sub(" ", line).split())
        kept = _kept_of_line(line)
        lead = WHEN_LEAD.match(line) if kept == line else None
        if lead:  # a timeline entry: its words judged without its time ("2013-02-06 12:20 UTC — Incident closed.")
            words = line[lead.end() :]
            told = _kept_of_line(words)
            if told != words:  # some of its words are metadata: keep the time only before what is left
                kept = lead.group(0) + told if told else ""
        if kept:
            kept_lines.append(kept)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept_lines)).strip()


def _metadata_before_a_shortcode(sentence: str) -> bool:
    """A metadata sentence a site's shortcode closes (`*Resolved* - The behavior is no longer exhibiting. {{< track
    "…" >}}`): judged without the shortcode, cut with it. A shortcode alone is no sentence: judged as before."""
    said = TRAILING_SHORTCODE.sub("", sentence)
    return said != sentence and bool(said.strip()) and not strip_metadata(said, shapes=True)


def _kept_of_line(line: str) -> str:
    """One line without its metadata sentences: the line itself when none is, "" when all are."""
    parts = [piece for part in LINE_SENTENCE_BREAK.split(line) for piece in split_after_shortcodes(part)]
    kept = ["" if _metadata_before_a_shortcode(p) else strip_metadata(p, shapes=True) for p in parts]
    if kept == [p.strip() for p in parts]:
        return line
    return " ".join(k for k in kept if k)


def without_unknown_cause(text: str) -> str:
    """A cause's text without the sentences that say the cause is not known ("the provider was
    unable to establish root cause"): they are about the investigation, not what caused it."""
    if not CAUSE_UNKNOWN.search(text):
        return text
    lines = [
        " ".join(p for p in LINE_SENTENCE_BREAK.split(line) if not CAUSE_UNKNOWN.search(p)) for line in text.split("\n")
    ]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def is_hedged(sentence: str) -> bool:
    """A cause said with doubt or denied ("we suspect …", "it was not the cache"): never stored as THE cause."""
    return stance(sentence) is not Stance.ASSERTED


def stance(sentence: str) -> Stance:
    if CAUSE_NEGATED.search(sentence):
        return Stance.NEGATED
    return Stance.HEDGED if CAUSE_HEDGE.search(sentence) else Stance.ASSERTED


def _bounded(statements: Sequence[Statement]) -> tuple[list[Statement], list[str]]:
    notes = []
    if len(statements) > MAX_STATEMENTS:
        notes.append(f"{len(statements) - MAX_STATEMENTS} statements past the first {MAX_STATEMENTS} were not read.")
    kept = list(statements[:MAX_STATEMENTS])
    if any(len(s.text) > MAX_STATEMENT_CHARS for s in kept):
        notes.append(f"Statements longer than {MAX_STATEMENT_CHARS:,} characters were read up to that.")
        kept = [
            s
            if len(s.text) <= MAX_STATEMENT_CHARS
            else Statement(s.text[:MAX_STATEMENT_CHARS], s.ref, s.author, s.at, s.section)
            for s in kept
        ]
    return kept, notes


def read(statements: Sequence[Statement], *, mode: Literal["narrative", "chat"] = "narrative") -> Reading:
    kept, notes = _bounded(statements)
    findings = _narrative(kept) if mode == "narrative" else _chat(kept)
    order = {id(f): i for i, f in enumerate(findings)}
    findings.sort(key=lambda f: (f.quotes[0].statement if f.quotes else 0, order[id(f)]))
    return Reading(findings, notes)


def _sentence_findings(statements: list[Statement], index: int) -> list[Finding]:
    """Causes, critiques and metadata, sentence by sentence."""
    found = []
    for sentence in sentences(statements[index].text):
        words = quote(statements, index, sentence)
        if is_metadata(sentence):
            found.append(Finding(Kind.METADATA, sentence, (words,)))
        elif CRITIQUE.search(sentence):
            found.append(Finding(Kind.CRITIQUE, sentence, (words,)))
        elif CAUSE.search(sentence):
            found.append(Finding(Kind.CAUSE, sentence, (words,), stance=stance(sentence)))
    return found


def _narrative(statements: list[Statement]) -> list[Finding]:
    findings: list[Finding] = []
    timeline = [i for i, s in enumerate(statements) if s.section == "timeline"]
    entries = [statements[i] for i in timeline]
    position = {id(e): i for i, e in zip(timeline, entries, strict=True)}
    order = {id(e): n for n, e in enumerate(entries)}
    for entry, attempt in failed_in_timeline(entries):
        i = position[id(entry)]
        quotes = [quote(statements, i)]
        if attempt["why_it_failed"] and attempt["why_it_failed"] not in entry.text:
            # the outcome came from a later entry: the next one, or one a few entries on ("still failing")
            at = order[id(entry)] + 1
            told = _told_in(entries[at : at + NAMED_LATER_WITHIN], attempt["why_it_failed"])
            if told is not None:
                quotes.append(quote(statements, position[id(told)]))
            elif i + 1 < len(statements):
                quotes.append(quote(statements, i + 1))
        findings.append(
            Finding(Kind.ACTION, attempt["action"], tuple(quotes), Outcome.DID_NOT_WORK, attempt["why_it_failed"])
        )
    for entry in resolving(entries):
        findings.append(Finding(Kind.FIX, entry.text, (quote(statements, position[id(entry)]),)))
    for i, statement in enumerate(statements):
        if statement.section != "timeline":
            if statement.section in _TOLD_AS_ACTIONS:
                attempts = failed_in_text(statement.text)
            elif statement.section in _TOLD_AS_SYSTEM:
                attempts = failed_in_prose(statement.text)
            else:
                attempts = []
            findings += [
                Finding(Kind.ACTION, a["action"], (quote(statements, i),), Outcome.DID_NOT_WORK, a["why_it_failed"])
                for a in attempts
            ]
        findings += _sentence_findings(statements, i)
    return findings + _found(statements)


def _told_in(later: list[Statement], why: str) -> Statement | None:
    """The first of the later entries whose words hold the why (no further than the reader looks
    for an outcome, so the work stays linear in the entries)."""
    opening = " ".join(why.split())[:60]
    return next((e for e in later if opening in " ".join(plain(e.text).split())), None)


def _found(statements: list[Statement]) -> list[Finding]:
    """How it was found: the first sentences that say so (an alert fired, users reported, …),
    chosen by the one routine the importer uses too (bot/reader/found.py), each quoted where first said."""
    first_said: dict[str, int] = {}

    def told() -> Iterator[str]:
        for i, statement in enumerate(statements):
            for sentence in sentences(statement.text):
                first_said.setdefault(sentence, i)
                yield sentence

    return [Finding(Kind.FOUND, s, (quote(statements, first_said[s], s),)) for s in how_found(told())]


def _chat(statements: list[Statement]) -> list[Finding]:
    """Channel messages: the drafter's reading (bot/reader/chat.py read_chat), as typed findings."""
    reading = read_chat([ChatMessage(s.author, s.text, s.at) for s in statements])

    def quotes(found: ChatFinding) -> tuple[Quote, ...]:
        return tuple(Quote(q.message, statements[q.message].ref, q.words) for q in found.quotes)

    findings = [
        Finding(Kind.ACTION, a.text, quotes(a), Outcome.DID_NOT_WORK, a.why) for a in reading.attempts if a.quotes
    ]
    for kind, found in (
        (Kind.CAUSE, reading.root_cause),
        (Kind.FIX, reading.fix),
        (Kind.FOUND, reading.found),
        (Kind.FOLLOW_UP, reading.lesson),
    ):
        if found is not None and found.quotes:
            stance_of = Stance.HEDGED if found.hedged else Stance.ASSERTED
            findings.append(Finding(kind, found.text, quotes(found), stance=stance_of))
    return findings
