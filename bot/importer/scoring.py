"""How an import is scored against a truth file (eval/postmortems/truth.jsonl): the one place the
rule lives, used by bench/import_postmortems.py and tests/test_import_corpus.py. The failed-attempts rule is
also public (`attempt_text`, `drafted_attempt_text`, `labelled_attempts`, `attempt_is_real`, `attempt_found`):
every bench that scores stored or drafted attempt lines, postmortems or conversations, calls it rather than
writing it again.

A truth line: {"file", "source", "org", "fold": "A" | "B", "date": "YYYY-MM-DD" | null,
"root_cause_keywords": [..], "fix_keywords": [..], "failed_attempts": [{"action_keywords": [..], "why"}],
"found_keywords": [..], "not_attempts": [{"keywords": [..], "kind"}], "service" | null,
"not_an_incident": bool}. The scheme (and the folds) is written down in eval/README.md.

The rule:
- a **keyword is in a text** when, case-insensitively, it is a substring of it, or its words,
  each cut to a crude stem (-s / -es / -ed / -ing / -ly dropped), appear next to each other and
  in that order among the text's stemmed words ("restarting servers" is in "we restarted
  servers", not in "servers were restarted"); or when the keyword without its leading function words
  (`LEADING_WORDS`: a subject pronoun, "there" of "there was" among them, an auxiliary, an article or possessive, "due
  to") is in the text so: "i reran" is in "Reran — still failing", "the logs filled up the disk" in "logs filled up the
  disk", "there was a network issue at our university" in "a network issue at our university"; a rest of one
  word, or one cut of "due to", only where it opens a clause of the text ("it was expired" is not in "references to the
  expired domain"). Labels keep the item's words, subject included; readers and people drop them, and blind readers
  judged such pairs the same (docs/BENCHMARKS.md, "The scorer and a label's leading words").
- a **field is right** when its text holds at least half of the truth's keywords (2 of 3, 1 of 2,
  1 of 1). Files whose truth has no keywords for that field are not scored for it.
- **imported**: an incident report (not `not_an_incident`) that became a memory; a file that is
  not an incident report should be skipped.
- **date right**: `occurred_at` within ±1 day of the truth's date (files with a date only).
- **service right**: the extracted service and the truth's contain one another, case-insensitively.
- **failed attempts**: a stored attempt (its action and why, as one text) is *real* when it holds
  at least half of one truth attempt's action keywords. precision = real stored / stored;
  recall = truth attempts matched by some stored attempt / truth attempts. The why is part of the text on
  purpose: where the reader glues two entries, the why is as often the failed step as a neighbour's, and the
  action alone (or one line per labelled attempt) agreed less with a blind reader's per-line decisions
  (docs/BENCHMARKS.md, "The attempts measure read against a blind annotator").
- **found how**: the stored diagnosis holds half of `found_keywords` (items that have them); **filled →
  right**, the same out of those items whose diagnosis is filled (precision); **where none** (an error count):
  imported items whose label has no `found_keywords` and whose diagnosis is filled (the whole field, with an
  investigation section's text), out of those items.
- **non-attempts stored** (an error count): stored attempts that are not real and hold half of one
  `not_attempts` entry's keywords (a plan, follow-up, critique, recovery step or metadata line
  taken for an attempt), out of all stored attempts.
- **metadata as fix/cause** (an error count): items whose stored root cause or fix holds half of a
  `metadata` `not_attempts` entry (a duration line, an impact count, a quoted alert), out of the
  items that have such an entry. **By kind** (`metadata_by_kind`): each such item counted once under
  every kind of metadata it stored, the kind named by the reader's own detectors
  (bot.reader.metadata_kind) from the stored sentence holding the labelled phrases (duration, impact,
  date or time, status, severity or alert, people or roles, ticket or link, place or system, figures,
  blank or note, other), so an item storing two kinds counts under both; and where: `metadata_in_cause`,
  `metadata_in_fix`. Same denominator; a fold's leaks are told by kind without reading its items.
All are kept as a Ratio of the clean cases, so that `misses` lists the offending ones.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from bot.models import MemoryDraft
from bot.reader.cues_metadata import METADATA_CLAUSE_BREAK
from bot.reader.metadata_kind import METADATA_KINDS, metadata_kind
from bot.reader.read import sentences

_WORD = re.compile(r"[a-z0-9]+")
_SUFFIXES = ("ings", "ing", "ies", "ied", "es", "ed", "ly", "s")


@functools.lru_cache(maxsize=1 << 16)  # a corpus's words come back again and again
def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


@functools.lru_cache(maxsize=1 << 12)  # a document's sentences are read once for each of its labels' phrases
def _stems(text: str) -> tuple[str, ...]:
    return tuple(_stem(w) for w in _WORD.findall(text.lower()))


# Words a label phrase may open with that carry none of its meaning: a subject pronoun (and its contraction; "there",
# the empty subject of "there was a network issue", since the scorer session), an auxiliary, an article or possessive,
# "due to". Chosen on fold A's judged pairs of the second annotation only (a closed list: not "when", "so", "need to",
# "related to", "going through"); measured by bench/scoring_leading_words.py.
LEADING_WORDS = frozenset(
    "i we you they he she it there i've we've you've they've i'm we're you're they're it's he's she's there's i'd we'd "
    "they'd i'll we'll have has had was were is are been the a an my our your their his her its".split()
)
LEADING_PAIRS = frozenset({("due", "to")})


def without_leading_words(keyword: str) -> str | None:
    """The keyword with its leading run of `LEADING_WORDS` cut ("it's been re-enabled" → "re-enabled"); None when it
    opens with none of them, or is nothing else."""
    words = keyword.lower().replace("\u2019", "'").split()
    i = 0
    while i < len(words):
        if words[i] in LEADING_WORDS:
            i += 1
        elif tuple(words[i : i + 2]) in LEADING_PAIRS:
            i += 2
        else:
            break
    return " ".join(words[i:]) if 0 < i < len(words) else None


def _said_in(keyword: str, text: str) -> bool:
    if keyword.lower() in text.lower():
        return True
    wanted, words = _stems(keyword), _stems(text)
    if not wanted:
        return False
    n = len(wanted)
    return any(words[i : i + n] == wanted for i in range(len(words) - n + 1))


# Where a clause starts: sentence and list punctuation, brackets, a dash set off by spaces (never a word's hyphen).
_CLAUSE = re.compile(r"[.;:!?,\n()\u2022*]+|\s[-\u2013\u2014]+\s|[\u2013\u2014]")


def _opens_a_clause(bare: str, text: str) -> bool:
    """`bare` is what one of `text`'s clauses says first, past that clause's own leading words ("a DDoS" opens with
    "ddos"; "use the updated API" does not open with "updated")."""
    wanted = _stems(bare)
    for clause in _CLAUSE.split(text):
        said = _stems(without_leading_words(clause) or clause)
        if wanted and said[: len(wanted)] == wanted:
            return True
    return False


def keyword_in(keyword: str, text: str, *, whole: bool = False) -> bool:
    """The rule (module docstring). `whole`: the keyword with its leading words, as the rule stood before 2026-12-07
    (bench/scoring_leading_words.py compares the two). A cut that leaves one word, or that cut "due to", must open a
    clause of the text (review F1: "it was expired" is not in "…references to the expired domain", nor "due to disk
    space" in "Doubled disk space"); a longer rest may stand anywhere, as the whole keyword may."""
    if _said_in(keyword, text):
        return True
    bare = None if whole else without_leading_words(keyword)
    if bare is None:
        return False
    cut = keyword.lower().split()[: len(keyword.split()) - len(bare.split())]
    if len(bare.split()) == 1 or any(pair in LEADING_PAIRS for pair in zip(cut, cut[1:], strict=False)):
        return _opens_a_clause(bare, text)
    return _said_in(bare, text)


def holds_half(text: str | None, keywords: list[str], *, whole: bool = False) -> bool:
    """`text` holds at least half of `keywords` (`whole`: `keyword_in`'s rule before 2026-12-07)."""
    if not keywords or not text:
        return False
    hits = sum(keyword_in(k, text, whole=whole) for k in keywords)
    return hits * 2 >= len(keywords)


# The failed-attempts measure, in one place: every bench that scores stored or drafted attempt lines calls these.


def attempt_text(action: str, why: str | None) -> str:
    """A stored attempt as the measure reads it: its action and its why as one text (why the why: module docstring)."""
    return f"{action} {why}"


def drafted_attempt_text(action: str, why: str | None) -> str:
    """A drafted attempt (the resolution modal's action and why fields) as the conversation benches read and print
    it: "action — why", the action alone when no why was drafted."""
    return f"{action} — {why}" if why else action


def labelled_attempts(label: dict[str, Any]) -> list[list[str]]:
    """A truth line's failed attempts as the measure reads them: each attempt's action phrases (its why not scored)."""
    return [list(a.get("action_keywords") or []) for a in label.get("failed_attempts") or []]


def attempt_is_real(text: str, labelled: list[list[str]], *, whole: bool = False) -> bool:
    """A stored or drafted attempt (`attempt_text` / `drafted_attempt_text`) is real when it holds half of one labelled
    attempt's action phrases (`labelled`: `Truth.failed_attempts` or `labelled_attempts`; `whole` as `holds_half`)."""
    return any(holds_half(text, keywords, whole=whole) for keywords in labelled)


def attempt_found(keywords: list[str], texts: Iterable[str]) -> bool:
    """One labelled attempt (its action phrases) is found when one of the stored or drafted texts holds half of them."""
    return any(holds_half(text, keywords) for text in texts)


@dataclass(frozen=True, slots=True)
class Truth:
    file: str
    date: date | None
    root_cause_keywords: list[str]
    fix_keywords: list[str]
    failed_attempts: list[list[str]]  # each attempt's action keywords
    service: str | None
    not_an_incident: bool
    org: str | None = None
    fold: str | None = None
    found_keywords: list[str] = field(default_factory=list)
    not_attempts: list[tuple[list[str], str]] = field(default_factory=list)  # (keywords, kind)

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Truth:
        return cls(
            file=obj["file"],
            date=date.fromisoformat(obj["date"]) if obj.get("date") else None,
            root_cause_keywords=list(obj.get("root_cause_keywords") or []),
            fix_keywords=list(obj.get("fix_keywords") or []),
            failed_attempts=labelled_attempts(obj),
            service=obj.get("service"),
            not_an_incident=bool(obj.get("not_an_incident")),
            org=obj.get("org"),
            fold=obj.get("fold"),
            found_keywords=list(obj.get("found_keywords") or []),
            not_attempts=[(list(n.get("keywords") or []), n.get("kind", "")) for n in obj.get("not_attempts") or []],
        )

    @property
    def metadata_keywords(self) -> list[list[str]]:
        return [keywords for keywords, kind in self.not_attempts if kind == "metadata"]


def load_truth(path: Path) -> list[Truth]:
    return [Truth.from_json(json.loads(line)) for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


@dataclass(slots=True)
class Ratio:
    right: int = 0
    total: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, ok: bool, file: str) -> None:
        self.total += 1
        self.right += ok
        if not ok:
            self.misses.append(file)

    @property
    def value(self) -> float:
        return self.right / self.total if self.total else 0.0

    def __str__(self) -> str:
        return f"{self.right}/{self.total} = {self.value:.0%}"


@dataclass(slots=True)
class Scores:
    imported: Ratio = field(default_factory=Ratio)
    not_incidents_skipped: Ratio = field(default_factory=Ratio)
    date: Ratio = field(default_factory=Ratio)
    root_cause: Ratio = field(default_factory=Ratio)
    fix: Ratio = field(default_factory=Ratio)
    service: Ratio = field(default_factory=Ratio)
    attempts_real: Ratio = field(default_factory=Ratio)  # of stored attempts, how many are real
    attempts_found: Ratio = field(default_factory=Ratio)  # of truth attempts, how many were stored
    found: Ratio = field(default_factory=Ratio)  # the diagnosis says how it was found
    # precision of the same field: of the items whose label has it and whose diagnosis is filled, how many hold it
    found_filled_right: Ratio = field(default_factory=Ratio)
    # error counts, kept as the share of clean cases (misses = the offending ones)
    non_attempts_stored: Ratio = field(default_factory=Ratio)  # stored attempts that are not labelled non-attempts
    metadata_as_fix_or_cause: Ratio = field(default_factory=Ratio)  # items with no metadata line in fix/cause
    # the same items, clean of one kind of metadata (bot.reader.metadata_kind), or clean in the cause, in the fix
    metadata_by_kind: dict[str, Ratio] = field(default_factory=lambda: {kind: Ratio() for kind in METADATA_KINDS})
    metadata_in_cause: Ratio = field(default_factory=Ratio)
    metadata_in_fix: Ratio = field(default_factory=Ratio)
    # items whose label says nothing of how it was found, with an empty diagnosis
    found_where_none: Ratio = field(default_factory=Ratio)

    def as_json(self) -> dict[str, Any]:
        return {
            name: {"right": r.right, "total": r.total, "value": round(r.value, 3), "misses": r.misses}
            for name, r in (
                ("imported", self.imported), ("not_incidents_skipped", self.not_incidents_skipped),
                ("date", self.date), ("root_cause", self.root_cause), ("fix", self.fix),
                ("service", self.service), ("attempts_real", self.attempts_real),
                ("attempts_found", self.attempts_found), ("found", self.found),
                ("found_filled_right", self.found_filled_right), ("found_where_none", self.found_where_none),
                ("non_attempts_stored", self.non_attempts_stored),
                ("metadata_as_fix_or_cause", self.metadata_as_fix_or_cause),
                ("metadata_in_cause", self.metadata_in_cause), ("metadata_in_fix", self.metadata_in_fix),
                *((f"metadata_by_kind.{kind}", r) for kind, r in self.metadata_by_kind.items()),
            )
        }  # fmt: skip


def _near(found: datetime | None, truth: date) -> bool:
    return found is not None and abs((found.date() - truth).days) <= 1


def score(truths: list[Truth], drafts: dict[str, MemoryDraft | None]) -> Scores:
    """`drafts`: file name → what the importer made of it (None: skipped or rejected)."""
    scores = Scores()
    for truth in truths:
        draft = drafts.get(truth.file)
        if truth.not_an_incident:
            scores.not_incidents_skipped.add(draft is None, truth.file)
            continue
        scores.imported.add(draft is not None, truth.file)
        if truth.date is not None:
            scores.date.add(draft is not None and _near(draft.occurred_at, truth.date), truth.file)
        if truth.root_cause_keywords:
            scores.root_cause.add(
                draft is not None and holds_half(draft.root_cause, truth.root_cause_keywords), truth.file
            )
        if truth.fix_keywords:
            scores.fix.add(draft is not None and holds_half(draft.resolution, truth.fix_keywords), truth.file)
        if truth.service:
            found = (draft.service or "").lower() if draft else ""
            want = truth.service.lower()
            scores.service.add(bool(found) and (want in found or found in want), truth.file)
        stored = [attempt_text(a.action, a.why_it_failed) for a in draft.failed_attempts] if draft else []
        for i, text in enumerate(stored):
            scores.attempts_real.add(
                attempt_is_real(text, truth.failed_attempts), f"{truth.file} #{i + 1}: {text[:80]}"
            )
        for keywords in truth.failed_attempts:
            scores.attempts_found.add(attempt_found(keywords, stored), f"{truth.file}: {' / '.join(keywords)}")
        diagnosis = (draft.diagnosis or "") if draft else ""
        if truth.found_keywords:
            scores.found.add(holds_half(diagnosis, truth.found_keywords), truth.file)
            if diagnosis:
                scores.found_filled_right.add(
                    holds_half(diagnosis, truth.found_keywords), f"{truth.file}: {diagnosis[:120]}"
                )
        elif draft is not None:
            scores.found_where_none.add(not diagnosis, f"{truth.file}: {diagnosis[:120]}")
        _score_non_attempts(scores, truth, draft, stored)
    return scores


def _score_non_attempts(scores: Scores, truth: Truth, draft: MemoryDraft | None, stored: list[str]) -> None:
    # Error counts kept as a Ratio of clean items, so that `misses` lists the offending ones: a
    # stored attempt that is a labelled non-attempt, an item whose fix or cause holds a metadata line.
    for i, text in enumerate(stored):
        real = attempt_is_real(text, truth.failed_attempts)
        kinds = [] if real else [kind for keywords, kind in truth.not_attempts if holds_half(text, keywords)]
        scores.non_attempts_stored.add(not kinds, f"{truth.file} #{i + 1} ({', '.join(kinds)}): {text[:80]}")
    if not truth.metadata_keywords:
        return
    cause, fix = (draft.root_cause, draft.resolution) if draft is not None else (None, None)
    kinds_in = {
        name: metadata_kinds_held(text, truth.metadata_keywords) for name, text in (("cause", cause), ("fix", fix))
    }
    scores.metadata_as_fix_or_cause.add(not (kinds_in["cause"] or kinds_in["fix"]), truth.file)
    scores.metadata_in_cause.add(not kinds_in["cause"], truth.file)
    scores.metadata_in_fix.add(not kinds_in["fix"], truth.file)
    for kind, ratio in scores.metadata_by_kind.items():
        ratio.add(kind not in kinds_in["cause"] | kinds_in["fix"], truth.file)


def metadata_kinds_held(text: str | None, metadata_keywords: list[list[str]]) -> set[str]:
    """The kinds of the labelled metadata lines `text` holds: each named by the stored sentence holding half of its
    phrases (by the phrases themselves where they are spread over several sentences). The score's one reading of
    "metadata stored as fix or cause"; bench/cause_misses.py classes a missed cause by it too."""
    held = [keywords for keywords in metadata_keywords if holds_half(text, keywords)]
    if not held:
        return set()
    said = sentences(text or "")
    return {
        _kind_of(next((s for s in said if holds_half(s, keywords)), " ".join(keywords)), keywords) for keywords in held
    }


def _kind_of(sentence: str, keywords: list[str]) -> str:
    """The sentence's kind; where that is "other" (a cause told and, in a clause of its own, a figure or a count: "The
    cron job deleted the index; this is the third outage this month."), the kind of the clause holding the phrases."""
    kind = metadata_kind(sentence)
    if kind != "other":
        return kind
    clause = next((c for c in METADATA_CLAUSE_BREAK.split(sentence) if c and holds_half(c, keywords)), "")
    return metadata_kind(clause) if clause and clause != sentence else kind
