"""The investigation domain: what an investigator answers, free of Slack and Anthropic.

`Findings` is what a model may write (the tool's input schema is derived from it);
`Investigation` adds what only we know: who answered, with which model, at what cost, and what
the guard changed. CURRENT evidence and PAST memories stay in separate fields throughout.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import Field, StringConstraints

from bot.models import (
    Identifier,
    RequiredText,
    Strict,
    Text,
    TimelineEntry,  # noqa: F401 - re-exported: the investigation reads timelines
)

MAX_ITEMS = 20

MemoryId = Identifier
# T1, T2… for the channel timeline (as numbered in the prompt), or a declared field's name.
EvidenceRef = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
DECLARED_FIELDS = ("title", "service", "severity", "symptoms", "error_message", "started_at")


class HypothesisStatus(StrEnum):
    NEEDS_EVIDENCE = "needs_evidence"
    SUPPORTED = "supported"


class Check(Strict):
    action: RequiredText = Field(description="what to inspect now in the CURRENT incident")
    why: Text = Field(default="", description="why this check is worth doing, from the cited memories")
    memory_ids: list[MemoryId] = Field(
        default_factory=list,
        max_length=MAX_ITEMS,
        description="ids of the PAST memories that suggest this check; empty only if current evidence alone does",
    )


class Hypothesis(Strict):
    statement: RequiredText = Field(description="a possible explanation of the CURRENT incident, not a verdict")
    current_evidence: list[Text] = Field(
        default_factory=list,
        max_length=MAX_ITEMS,
        description="exact quotes from the CURRENT incident (declared fields or timeline) that support it",
    )
    related_memory_ids: list[MemoryId] = Field(default_factory=list, max_length=MAX_ITEMS)
    status: HypothesisStatus = Field(
        default=HypothesisStatus.NEEDS_EVIDENCE,
        description="'supported' only when current_evidence quotes the current incident",
    )


class PreviousAction(Strict):
    """Something that worked in a past incident."""

    action: RequiredText
    memory_id: MemoryId


class FailedPreviousAction(Strict):
    """Something that did not work in a past incident, always with why."""

    action: RequiredText
    why_it_failed: Text = ""
    memory_id: MemoryId


class Conflict(Strict):
    memory_ids: list[MemoryId] = Field(min_length=2, max_length=MAX_ITEMS)
    description: RequiredText = Field(description="how these memories disagree")
    evidence_needed: Text = Field(default="", description="what CURRENT evidence would tell them apart")


class NowStatement(Strict):
    """One thing that is happening now, tied to the CURRENT evidence it rests on."""

    statement: RequiredText = Field(description="what the CURRENT incident shows; nothing from a past memory")
    evidence: list[EvidenceRef] = Field(
        default_factory=list,
        max_length=MAX_ITEMS,
        description="the CURRENT evidence it rests on: T1, T2… for channel messages, or a declared field: "
        + ", ".join(DECLARED_FIELDS),
    )


class _Sections(Strict):
    """What both kinds of answer share: checks, hypotheses, the past's outcomes, conflicts, questions."""

    checks_to_run: list[Check] = Field(default_factory=list, max_length=MAX_ITEMS)
    hypotheses: list[Hypothesis] = Field(default_factory=list, max_length=MAX_ITEMS)
    successful_previous_actions: list[PreviousAction] = Field(default_factory=list, max_length=MAX_ITEMS)
    failed_previous_actions: list[FailedPreviousAction] = Field(default_factory=list, max_length=MAX_ITEMS)
    conflicts: list[Conflict] = Field(default_factory=list, max_length=MAX_ITEMS)
    open_questions: list[Text] = Field(default_factory=list, max_length=MAX_ITEMS)


class ModelAnswer(_Sections):
    """What a model writes (the tool's input schema): what is happening now as grounded statements."""

    happening_now: list[NowStatement] = Field(
        default_factory=list,
        max_length=MAX_ITEMS,
        description="what is happening NOW, one statement per item, each citing the CURRENT evidence it rests on",
    )


class Findings(_Sections):
    """The structured answer as shown: the guard's repair of a model's answer, or the offline one."""

    current_summary: Text = Field(description="what is happening NOW, from current evidence only; no past incident")


class KnownPatternNote(Strict):
    """An approved rule that fired on this incident, as the investigation was given it: PAST
    context for what to check, under the same rules as past memories."""

    rule_id: Identifier
    headline: RequiredText = Field(description="Known pattern R-… (reviewed by … on …, from INC-…)")
    checks: list[RequiredText] = Field(default_factory=list, max_length=MAX_ITEMS)
    dead_ends: list[RequiredText] = Field(default_factory=list, max_length=MAX_ITEMS)


class InvestigatorKind(StrEnum):
    ANTHROPIC = "anthropic"
    OFFLINE = "offline"


class FallbackReason(StrEnum):
    """Why the model's answer was not used and the offline answer was given instead."""

    PRIVACY = "privacy"  # a private channel or memory: nothing was sent
    PRIVACY_CHECK_FAILED = "privacy_check_failed"
    TIMEOUT = "timeout"
    RATE_LIMITED = "rate_limited"
    OVERLOADED = "overloaded"
    API_ERROR = "api_error"
    UNREACHABLE = "unreachable"
    MALFORMED = "malformed"
    REFUSED_BY_GUARD = "refused_by_guard"
    UNEXPECTED = "unexpected"


class TokenUsage(Strict):
    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
        )


class Investigation(Findings):
    """Findings plus provenance: what the Slack layer shows."""

    investigator: InvestigatorKind
    model: str | None = Field(default=None, description="the model asked, if any (also on a fallback after a call)")
    usage: TokenUsage | None = None
    note: str | None = Field(default=None, description="set when a fallback happened, saying why")
    fallback_reason: FallbackReason | None = Field(
        default=None, description="set when a fallback happened: why, as data"
    )
    guard_flags: list[str] = Field(default_factory=list, description="what the guard changed in the answer")
    happening_now: list[NowStatement] = Field(
        default_factory=list,
        description="the statements current_summary is made of, each with its evidence (model answers)",
    )
    guard_model: str | None = Field(default=None, description="the model asked for a second opinion on claims, if any")
    guard_usage: TokenUsage | None = None
    guard_note: str | None = Field(
        default=None, description="why the second opinion was not had (the rules decided alone)"
    )
    context_notes: list[str] = Field(default_factory=list, description="what the model was not shown, and why")
    left_out: str | None = Field(default=None, description="channel messages the investigation did not read, and why")
    known_patterns: list[KnownPatternNote] = Field(
        default_factory=list, description="approved rules that fired on the incident (context, never a verdict)"
    )
