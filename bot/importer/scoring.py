"""How an import is scored against a truth file (eval/postmortems/truth.jsonl): the one place the
rule lives, used by bench/import_postmortems.py and tests/test_import_corpus.py.

A truth line: {"file", "source", "org", "date": "YYYY-MM-DD" | null, "root_cause_keywords": [..],
"fix_keywords": [..], "failed_attempts": [{"action_keywords": [..], "why"}], "service" | null,
"not_an_incident": bool}.

The rule:
- a **keyword is in a text** when, case-insensitively, it is a substring of it, or its words,
  each cut to a crude stem (-s / -es / -ed / -ing / -ly dropped), appear next to each other and
  in that order among the text's stemmed words ("restarting servers" is in "we restarted
  servers", not in "servers were restarted").
- a **field is right** when its text holds at least half of the truth's keywords (2 of 3, 1 of 2,
  1 of 1). Files whose truth has no keywords for that field are not scored for it.
- **imported**: an incident report (not `not_an_incident`) that became a memory; a file that is
  not an incident report should be skipped.
- **date right**: `occurred_at` within ±1 day of the truth's date (files with a date only).
- **service right**: the extracted service and the truth's contain one another, case-insensitively.
- **failed attempts**: a stored attempt (its action and why, as one text) is *real* when it holds
  at least half of one truth attempt's action keywords. precision = real stored / stored;
  recall = truth attempts matched by some stored attempt / truth attempts.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from bot.models import MemoryDraft

_WORD = re.compile(r"[a-z0-9]+")
_SUFFIXES = ("ings", "ing", "ies", "ied", "es", "ed", "ly", "s")


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _stems(text: str) -> list[str]:
    return [_stem(w) for w in _WORD.findall(text.lower())]


def keyword_in(keyword: str, text: str) -> bool:
    if keyword.lower() in text.lower():
        return True
    wanted, words = _stems(keyword), _stems(text)
    if not wanted:
        return False
    n = len(wanted)
    return any(words[i : i + n] == wanted for i in range(len(words) - n + 1))


def holds_half(text: str | None, keywords: list[str]) -> bool:
    if not keywords or not text:
        return False
    hits = sum(keyword_in(k, text) for k in keywords)
    return hits * 2 >= len(keywords)


@dataclass(frozen=True, slots=True)
class Truth:
    file: str
    date: date | None
    root_cause_keywords: list[str]
    fix_keywords: list[str]
    failed_attempts: list[list[str]]  # each attempt's action keywords
    service: str | None
    not_an_incident: bool

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Truth:
        return cls(
            file=obj["file"],
            date=date.fromisoformat(obj["date"]) if obj.get("date") else None,
            root_cause_keywords=list(obj.get("root_cause_keywords") or []),
            fix_keywords=list(obj.get("fix_keywords") or []),
            failed_attempts=[list(a.get("action_keywords") or []) for a in obj.get("failed_attempts") or []],
            service=obj.get("service"),
            not_an_incident=bool(obj.get("not_an_incident")),
        )


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

    def as_json(self) -> dict[str, Any]:
        return {
            name: {"right": r.right, "total": r.total, "value": round(r.value, 3), "misses": r.misses}
            for name, r in (
                ("imported", self.imported), ("not_incidents_skipped", self.not_incidents_skipped),
                ("date", self.date), ("root_cause", self.root_cause), ("fix", self.fix),
                ("service", self.service), ("attempts_real", self.attempts_real),
                ("attempts_found", self.attempts_found),
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
        stored = [f"{a.action} {a.why_it_failed}" for a in draft.failed_attempts] if draft else []
        for i, text in enumerate(stored):
            real = any(holds_half(text, keywords) for keywords in truth.failed_attempts)
            scores.attempts_real.add(real, f"{truth.file} #{i + 1}: {text[:80]}")
        for keywords in truth.failed_attempts:
            found_it = any(holds_half(text, keywords) for text in stored)
            scores.attempts_found.add(found_it, f"{truth.file}: {' / '.join(keywords)}")
    return scores
