"""The domain: incidents, memories and their truth, free of Slack and Anthropic.

Every model is strict (`extra="forbid"`): an unknown field is an error, never silently dropped.
Free text typed in Slack is bounded at 3,000 characters, as Slack's own inputs are. A memory's
own text may be longer (an imported postmortem's root cause can fill pages): Slack rendering
truncates it with a pointer to `/incident show`, the stored memory keeps all of it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

MAX_TEXT = 3000
MAX_STORED_TEXT = 100_000  # a memory's own text: pages of a postmortem, not a data dump
MAX_FAILED_ATTEMPTS = 100
MAX_TAGS = 50
MAX_ALERTS = 50  # alerts a memory keeps: the distinct ones that fired for its incident
MAX_ALERT_LABELS = 40
# The verification note's start when a resolver marked their own fix as verified: it is kept as
# human_confirmed, never as verified, until someone else verifies it (bot/policy.py).
SELF_VERIFIED = "self-verified"

Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=MAX_TEXT)]
StoredText = Annotated[str, StringConstraints(strip_whitespace=True, max_length=MAX_STORED_TEXT)]
RequiredText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_TEXT)]
Identifier = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Tag = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]


# A memory kept for an incident beside its own (a hypothesis by someone who may not close it, a
# revision replacing its resolution) is named `<incident id>~<what>`: the incident stays findable.
RELATED_MARK = "~"


def incident_of(memory_id: str) -> str:
    """The incident a memory was kept for: its own id, or the part before RELATED_MARK."""
    return memory_id.split(RELATED_MARK, 1)[0] or memory_id


def utcnow() -> datetime:
    return datetime.now(UTC)


def shown_person(person_id: str | None, name: str | None) -> str | None:
    """How an audited person is shown: the name they had then, beside their id ("maya (U123)")."""
    if not person_id:
        return name
    return f"{name} ({person_id})" if name and name != person_id else person_id


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, str_strip_whitespace=True)


class TruthState(StrEnum):
    UNCONFIRMED_HYPOTHESIS = "unconfirmed_hypothesis"
    HUMAN_CONFIRMED = "human_confirmed"
    VERIFICATION_CONFIRMED = "verification_confirmed"
    REJECTED = "rejected"
    SUPERSEDED = "superseded"

    @property
    def reusable(self) -> bool:
        """Only what a human confirmed may be reused as a past outcome."""
        return self in (TruthState.HUMAN_CONFIRMED, TruthState.VERIFICATION_CONFIRMED)


class Source(StrEnum):
    SEED = "seed"
    ENGINEER_SAVED = "engineer_saved"
    ENGINEER_CORRECTION = "engineer_correction"


class FeedbackKind(StrEnum):
    """A responder's vote on a recalled memory."""

    HELPFUL = "helpful"
    NOT_RELEVANT = "not_relevant"


class FailedAttempt(Strict):
    action: RequiredText
    why_it_failed: Text = ""


class Correction(Strict):
    author: Identifier = Field(description="Slack user id, or `cli:<operator>`")
    text: RequiredText
    created_at: datetime = Field(default_factory=utcnow)
    author_name: Text | None = Field(default=None, description="the author's name when they wrote it")

    @property
    def shown_author(self) -> str:
        return shown_person(self.author, self.author_name) or self.author


class TruthTransition(Strict):
    from_state: TruthState
    to_state: TruthState
    actor: Identifier = Field(description="Slack user id, or `cli:<operator>`")
    reason: Text = ""
    at: datetime = Field(default_factory=utcnow)
    successor_id: Identifier | None = None
    actor_name: Text | None = Field(default=None, description="the actor's name when they acted")

    @property
    def shown_actor(self) -> str:
        return shown_person(self.actor, self.actor_name) or self.actor


class MemoryAlert(Strict):
    """An alert that fired for the incident, as its rule named it: what a later alert with the same
    name and identifying labels is recalled by (bot/recall/signals.py)."""

    name: RequiredText
    labels: dict[Annotated[str, StringConstraints(min_length=1, max_length=100)], Text] = Field(
        default_factory=dict, max_length=MAX_ALERT_LABELS
    )

    def shown(self, keys: list[str] | None = None) -> str:
        """`HighErrorRate{service=payments}`: the name and (these of) its labels, sorted."""
        labels = {k: v for k, v in self.labels.items() if keys is None or k in keys}
        inner = ",".join(f"{k}={v}" for k, v in sorted(labels.items()) if k != "alertname")
        return f"{self.name}{{{inner}}}" if inner else self.name


class Incident(Strict):
    """The CURRENT incident as declared or detected in a channel."""

    title: RequiredText
    service: Text | None = None
    severity: Text | None = None
    symptoms: Text | None = None
    error_message: Text | None = None
    channel: Identifier | None = None
    team: Identifier | None = None
    started_at: datetime | None = None


class Provenance(Strict):
    """Where an imported memory's fields came from: the file (relative to the folder imported),
    the extractor that read it, and per field the section, line or timeline entry it was read from."""

    file: Text
    extractor: Identifier
    fields: dict[str, Text] = Field(default_factory=dict)


class FieldOrigin(StrEnum):
    """Where a saved field's text came from, when the resolution modal was drafted."""

    DRAFTED = "drafted"  # drafted from the channel and submitted as drafted (accepted)
    DRAFTED_CHANGED = "drafted_changed"  # drafted, then changed by the person
    DRAFTED_CLEARED = "drafted_cleared"  # drafted, then emptied by the person
    TYPED = "typed"  # not drafted: the person wrote it


class DraftingTrace(Strict):
    """What the drafter proposed and what the person did with it, kept with the memory.

    `fields` names the modal's fields ("root_cause", "diagnosis", "resolution", "lesson") and
    each failed attempt as "failed_attempts[N]" (1-based, as saved); `sources` says, per drafted
    field, which channel messages (their Slack ts) it was drafted from.
    """

    drafter: Identifier
    fields: dict[str, FieldOrigin] = Field(default_factory=dict)
    sources: dict[str, list[Identifier]] = Field(default_factory=dict)


class MemoryDraft(Strict):
    """What a caller retains: the content of one past incident and its outcome.

    `incident_id` is the idempotency key within a team: the same draft again is a no-op, a
    different draft for the same key is a conflict.
    """

    incident_id: Identifier
    team_id: Identifier
    title: RequiredText
    service: Text | None = None
    severity: Text | None = None
    symptoms: StoredText | None = None
    error_message: StoredText | None = None
    root_cause: StoredText | None = None
    diagnosis: StoredText | None = Field(default=None, description="how the root cause was found")
    resolution: StoredText | None = None
    failed_attempts: list[FailedAttempt] = Field(default_factory=list, max_length=MAX_FAILED_ATTEMPTS)
    lesson: StoredText | None = None
    notes: StoredText | None = None
    source: Source = Source.ENGINEER_SAVED
    truth_state: TruthState = TruthState.UNCONFIRMED_HYPOTHESIS
    verified_by: Identifier | None = None
    verified_by_name: Text | None = Field(default=None, description="verified_by's name then (not content)")
    verified_at: datetime | None = None
    verification_note: Text | None = None
    tags: list[Tag] = Field(default_factory=list, max_length=MAX_TAGS)
    alerts: list[MemoryAlert] = Field(
        default_factory=list, max_length=MAX_ALERTS, description="the alerts that fired for the incident"
    )
    channel_id: Identifier | None = None
    is_private: bool = False
    occurred_at: datetime | None = None
    resolved_at: datetime | None = None
    superseded_by: Identifier | None = None
    provenance: Provenance | None = Field(
        default=None, description="imported memories: where each field came from (not part of the content)"
    )
    drafting: DraftingTrace | None = Field(
        default=None, description="saved from a drafted modal: which fields were drafted, which changed (not content)"
    )

    @model_validator(mode="after")
    def _superseded_names_successor(self) -> MemoryDraft:
        if (self.truth_state is TruthState.SUPERSEDED) != (self.superseded_by is not None):
            raise ValueError("superseded_by must be set exactly when truth_state is 'superseded'")
        if self.superseded_by is not None and self.superseded_by == self.incident_id:
            raise ValueError("a memory cannot supersede itself")
        return self

    def content(self) -> dict[str, Any]:
        """The fields that make two drafts 'the same content' (JSON-ready). Provenance is not
        content: a better extractor reading the same fields from the same file changes nothing.
        Nor is a person's name: the same person resolving again under a new display name changes
        nothing; nor what was drafted at resolution (`drafting`)."""
        # No alerts is no field: memories retained before memories kept alerts compare the same.
        exclude = {"provenance", "verified_by_name", "drafting"} | (set() if self.alerts else {"alerts"})
        return self.model_dump(mode="json", exclude=exclude)

    @property
    def shown_verifier(self) -> str | None:
        return shown_person(self.verified_by, self.verified_by_name)

    @property
    def self_verified(self) -> bool:
        """Its resolver marked their own fix as verified, and nobody else has verified it yet."""
        return self.truth_state is TruthState.HUMAN_CONFIRMED and (self.verification_note or "").startswith(
            SELF_VERIFIED
        )


class MemoryRecord(MemoryDraft):
    """A stored memory: the draft plus what the store keeps about it."""

    corrections: list[Correction] = Field(default_factory=list)
    transitions: list[TruthTransition] = Field(default_factory=list)
    created_at: datetime
    updated_at: datetime

    @property
    def reusable(self) -> bool:
        return self.truth_state.reusable

    @property
    def happened_at(self) -> datetime | None:
        """When the incident happened, as far as anyone knows. An imported postmortem without a
        date has none (its import time is not its age); a memory saved at resolution is as old
        as its saving."""
        known = self.occurred_at or self.resolved_at
        if known is not None or self.source is Source.SEED:
            return known
        return self.created_at


class RecallQuery(Strict):
    team_id: Identifier
    text: Text = ""
    title: Text | None = None
    service: Text | None = None
    severity: Text | None = None
    tags: list[Tag] = Field(default_factory=list)
    error_message: Text | None = None
    filter_services: list[Text] = Field(default_factory=list, description="hard filter, unlike `service`")
    filter_severities: list[Text] = Field(default_factory=list)
    filter_tags: list[Tag] = Field(default_factory=list)
    reusable_only: bool = False
    truth_states: list[TruthState] | None = None
    occurred_after: datetime | None = None
    occurred_before: datetime | None = None
    channel_id: Identifier | None = Field(
        default=None, description="where the recall is shown: private memories only in their own channel"
    )
    private: bool = Field(
        default=False, description="the query's text comes from a private channel (kept from embeddings endpoints)"
    )
    isolated: bool = Field(
        default=False, description="`channel_id` is kept to itself: only memories kept from it are recalled there"
    )
    alerts: list[MemoryAlert] = Field(
        default_factory=list, max_length=MAX_ALERTS, description="the incident's alerts: the same one is evidence"
    )
    alert_labels: list[Tag] = Field(
        default_factory=list, description="labels besides `service` that identify an alert (RECALL_ALERT_LABELS)"
    )
    limit: int = Field(default=5, ge=1, le=50)
    exclude_ids: list[Identifier] = Field(
        default_factory=list,
        max_length=200,
        description="memories never to return (the incident's own; replay's target-absent mode)",
    )

    @classmethod
    def for_incident(cls, incident: Incident, team_id: str, **kwargs: Any) -> RecallQuery:
        return cls(
            team_id=team_id,
            title=incident.title,
            text=incident.symptoms or "",
            service=incident.service,
            severity=incident.severity,
            error_message=incident.error_message,
            channel_id=incident.channel,
            **kwargs,
        )


class RecallMatch(Strict):
    memory: MemoryRecord
    score: float = Field(ge=0)
    score_components: dict[str, float]
    reasons: list[str]
    successor_id: str | None = None
    relevance: float = Field(default=0.0, ge=0, le=1)
    """How much the memory is like the query, on an absolute scale (bot/recall/floor.py):
    unlike `score`, comparable between queries, so a floor can say "nothing like this"."""
    probability: float = Field(default=0.0, ge=0, le=1)
    """The judgement's probability that the memory describes the same failure (bot/recall/judgement.py)."""
    tier: Literal["strong", "weak", "below"] = "below"
    """strong: posted in the thread; weak: named in one line; below: not shown (`recall --all`)."""
    rule: str | None = None
    """What put it at its tier when its probability alone did not (a rule of the judgement, the
    sure relevance, the floor filling a posted thread, the weak line's closest few), in words for
    "Why this?"; None when the probability did (Judgement.rule_behind)."""
    weak_probability: float | None = Field(default=None, ge=0, le=1)
    """The weak model's probability (Judgement.weak), which decides the weak line; None without one."""
    evidence: dict[str, float] = Field(default_factory=dict)
    """The judgement's features, shown by "Why this?"."""
    parts: dict[str, float] = Field(default_factory=dict)
    """The fitted model's terms for this memory: each feature the model that judged it reads, times
    its weight, and the intercept; their sum is the log-odds of `probability` ("Why this?")."""


class IncidentStatus(StrEnum):
    OPEN = "open"
    RESOLVED = "resolved"


class IncidentRecord(Incident):
    """An incident the bot tracks in a channel (the CURRENT one until it is resolved)."""

    incident_id: Identifier
    team: Identifier
    channel: Identifier
    channel_name: Text | None = None
    is_private: bool = False
    is_isolated: bool = Field(
        default=False, description="its channel is kept to itself (Slack Connect, or guests): see bot.policy"
    )
    declared_by: Identifier | None = None
    status: IncidentStatus = IncidentStatus.OPEN
    recall_thread_ts: Identifier | None = None
    started_at: datetime
    resolved_at: datetime | None = None


class TimelineEntry(Strict):
    """One message of an incident channel: CURRENT evidence, never history."""

    author: Identifier
    text: Annotated[str, StringConstraints(min_length=1, max_length=40_000)]
    at: datetime
    message_ts: Identifier | None = Field(default=None, description="the Slack message it is: what a draft points to")
    late: bool = Field(default=False, description="posted after the incident was closed: a late note")


class Resolution(Strict):
    """What responders confirm at resolution: the outcome that becomes memory. `symptoms`: what was
    first reported, as they confirmed it (None: the declared symptoms stay)."""

    symptoms: Text | None = None
    root_cause: RequiredText
    diagnosis: Text | None = None
    resolution: RequiredText
    failed_attempts: list[FailedAttempt] = Field(default_factory=list, max_length=5)
    lesson: Text | None = None
    verified: bool = False
    verification_note: Text | None = None
    notes: Text | None = None

    @model_validator(mode="after")
    def _verified_needs_note(self) -> Resolution:
        if self.verified and not self.verification_note:
            raise ValueError("a verified fix needs a verification note saying how it was verified")
        return self
