"""A rule file's schema: strict, so a typo in a reviewed file is an error, never ignored.

The *substance* of a rule is what it matches and what it recommends (match, root_cause,
checks, fix, dead_ends). Its hash is stamped into the file; a file whose substance no longer
hashes to the stamp was edited by hand since it was last stamped, so it is inert until
`rules replay` bumps its version, clears the approval and replays it.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, date, datetime, time
from enum import StrEnum
from typing import Annotated, Any

from pydantic import Field, StringConstraints, field_validator, model_validator

from bot.models import Identifier, RequiredText, Strict, Tag, Text

RuleId = Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^R-[a-z0-9][a-z0-9-]{0,80}$")]
MAX_ITEMS = 20


class RuleMatch(Strict):
    """When a new incident triggers the rule: its service is one of `services` (any, when
    empty) and its error has one of `error_signatures` or its text names every concept."""

    services: list[Tag] = Field(default_factory=list, max_length=MAX_ITEMS)
    error_signatures: list[RequiredText] = Field(default_factory=list, max_length=MAX_ITEMS)
    concepts: list[Tag] = Field(default_factory=list, max_length=MAX_ITEMS)

    @model_validator(mode="after")
    def _matches_something(self) -> RuleMatch:
        if not self.error_signatures and not self.concepts:
            raise ValueError("a rule must match error_signatures or concepts (or both)")
        return self


class RootCause(Strict):
    """What the contributing incidents confirmed. Replay counts a past incident as sharing it
    when its diagnosis names every concept and its cause and fix use enough of the terms."""

    summary: RequiredText
    concepts: list[Tag] = Field(default_factory=list, max_length=MAX_ITEMS)
    terms: list[Tag] = Field(min_length=1, max_length=MAX_ITEMS)


class DeadEnd(Strict):
    action: RequiredText
    why_it_failed: Text = ""
    seen_in: list[Identifier] = Field(default_factory=list)


class Provenance(Strict):
    team: Identifier
    incidents: list[Identifier] = Field(min_length=1)
    min_episodes: int = Field(ge=1)
    generated_at: datetime
    bank: RequiredText

    @model_validator(mode="after")
    def _enough_distinct_incidents(self) -> Provenance:
        if len(set(self.incidents)) != len(self.incidents):
            raise ValueError("incidents are listed twice")
        if len(self.incidents) < self.min_episodes:
            raise ValueError(f"{len(self.incidents)} incidents, fewer than min_episodes ({self.min_episodes})")
        return self


class ReplayResult(Strict):
    version: int = Field(ge=1, description="the rule version replayed")
    ran_at: datetime
    sources: list[RequiredText] = Field(min_length=1)
    hits: list[Identifier] = Field(default_factory=list, description="fired, and the root cause is the rule's")
    false_fires: list[Identifier] = Field(default_factory=list, description="fired on another confirmed root cause")
    misses: list[Identifier] = Field(default_factory=list, description="the rule's root cause, but it did not fire")
    unjudged: list[Identifier] = Field(default_factory=list, description="fired where no root cause is confirmed")


class Decision(StrEnum):
    NONE = ""
    APPROVED = "approved"
    REJECTED = "rejected"


class Rule(Strict):
    id: RuleId
    version: int = Field(ge=1)
    title: RequiredText
    match: RuleMatch
    root_cause: RootCause
    checks: list[RequiredText] = Field(min_length=1, max_length=MAX_ITEMS)
    fix: RequiredText
    dead_ends: list[DeadEnd] = Field(default_factory=list, max_length=MAX_ITEMS)
    provenance: Provenance
    content_hash: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
    replay: ReplayResult | None = None
    reviewed_by: Text = ""
    approved_at: datetime | None = None
    decision: Decision = Decision.NONE

    @field_validator("reviewed_by", "decision", mode="before")
    @classmethod
    def _blank_is_empty(cls, value: object) -> object:
        return "" if value is None else value  # `reviewed_by:` left blank in YAML

    @field_validator("approved_at", mode="before")
    @classmethod
    def _a_day_is_midnight_utc(cls, value: object) -> object:
        # a reviewer writes `approved_at: 2026-11-30`, which YAML reads as a date
        if isinstance(value, date) and not isinstance(value, datetime):
            return datetime.combine(value, time(0), tzinfo=UTC)
        return value

    def substance(self) -> dict[str, Any]:
        """What the rule matches and recommends: the part a review approves."""
        return self.model_dump(mode="json", include={"match", "root_cause", "checks", "fix", "dead_ends"})

    def computed_hash(self) -> str:
        canonical = json.dumps(self.substance(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    @property
    def edited(self) -> bool:
        """Changed by hand since its hash was stamped (the version no longer says what it is)."""
        return self.computed_hash() != self.content_hash

    def inert_because(self) -> str | None:
        """Why the bot must not use this rule, or None when it may."""
        if self.edited:
            return (
                f"edited since version {self.version} was stamped (what it matches or recommends changed); "
                f"`incident-memory rules replay {self.id}` bumps it to version {self.version + 1}, "
                "clears the approval and replays it"
            )
        if self.replay is None or self.replay.version != self.version:
            return f"not replayed at version {self.version}"
        if self.decision is Decision.REJECTED:
            return f"rejected by {self.reviewed_by or 'its reviewer'}"
        if self.decision is not Decision.APPROVED or not self.reviewed_by or self.approved_at is None:
            return f"version {self.version} is not reviewed and approved (reviewed_by, approved_at, decision)"
        return None

    @property
    def active(self) -> bool:
        return self.inert_because() is None

    def known_pattern_line(self) -> str:
        """How the bot introduces an approved rule: who reviewed it, when, and from what."""
        on = f" on {self.approved_at:%Y-%m-%d}" if self.approved_at else ""
        return (
            f"Known pattern {self.id} (reviewed by {self.reviewed_by or 'nobody'}{on}, "
            f"from {', '.join(self.provenance.incidents)})"
        )

    def stamped(self, **changes: Any) -> Rule:
        """A copy with `changes` applied and the hash of its substance stamped."""
        rule = self.model_copy(update=changes)
        return rule.model_copy(update={"content_hash": rule.computed_hash()})

    def bumped(self) -> Rule:
        """The next version of an edited rule: approval and replay cleared, hash restamped."""
        return self.stamped(
            version=self.version + 1, replay=None, reviewed_by="", approved_at=None, decision=Decision.NONE
        )
