"""What the reader finds in a sequence of statements, typed, each finding with its quotes.

A statement is one postmortem timeline entry, one channel message or one paragraph of prose. A
finding says what one or more of them tell:

- ACTION: something responders did during the incident, with its OUTCOME (worked, did not work,
  unknown) and the why; the outcome may come from a later statement that refers back ("12:05
  restarted the hub" … "12:20 still 503s").
- CAUSE: what caused it, ASSERTED, HEDGED ("we suspect …": offered as a hypothesis, labelled so)
  or NEGATED ("it was not the cache").
- FOUND: how the incident or its cause was found.
- FIX: what resolved or mitigated it.
- PLAN, FOLLOW_UP, CRITIQUE: proposed, later, or a judgement of the response; never an attempt.
- METADATA: a line about the incident (a duration, an impact count, a date); never a fix or cause.

Pure: no Slack, no storage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class Kind(StrEnum):
    ACTION = "action"
    CAUSE = "cause"
    FOUND = "found"
    FIX = "fix"
    PLAN = "plan"
    FOLLOW_UP = "follow_up"
    CRITIQUE = "critique"
    METADATA = "metadata"


class Outcome(StrEnum):
    WORKED = "worked"
    DID_NOT_WORK = "did_not_work"
    UNKNOWN = "unknown"


class Stance(StrEnum):
    ASSERTED = "asserted"
    HEDGED = "hedged"
    NEGATED = "negated"


@dataclass(frozen=True, slots=True)
class Statement:
    """One thing someone wrote: a timeline entry, a message, a paragraph.

    `ref` names it for the person (a message's ts, "timeline entry '12:05'", a section's label);
    `section` is the postmortem section kind it sits in ("timeline", "resolution", "summary", …;
    None for a channel message or prose outside any known section)."""

    text: str
    ref: str = ""
    author: str = ""
    at: datetime | None = None
    section: str | None = None


@dataclass(frozen=True, slots=True)
class Quote:
    """The words of one statement a finding rests on; `statement` is its index in the input."""

    statement: int
    ref: str
    text: str


@dataclass(frozen=True, slots=True)
class Finding:
    kind: Kind
    text: str  # the field's text: for an ACTION, what was done
    quotes: tuple[Quote, ...]
    outcome: Outcome = Outcome.UNKNOWN  # ACTION only
    why: str = ""  # ACTION: why it did not work (or the words that say it worked)
    stance: Stance = Stance.ASSERTED  # CAUSE only
    score: float = 1.0  # how sure the reader is (1.0 for a cue-word rule); below its threshold, not returned


@dataclass(slots=True)
class Reading:
    """The findings of one read, in the order of the statements they quote."""

    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was not read (caps) and why

    def of(self, kind: Kind) -> list[Finding]:
        return [f for f in self.findings if f.kind is kind]

    def failed_attempts(self) -> list[Finding]:
        return [f for f in self.of(Kind.ACTION) if f.outcome is Outcome.DID_NOT_WORK]

    def fixes(self) -> list[Finding]:
        return self.of(Kind.FIX)

    def causes(self, stance: Stance | None = None) -> list[Finding]:
        return [f for f in self.of(Kind.CAUSE) if stance is None or f.stance is stance]


def quote(statements: Sequence[Statement], index: int, words: str | None = None) -> Quote:
    statement = statements[index]
    return Quote(index, statement.ref, " ".join((words or statement.text).split()))
