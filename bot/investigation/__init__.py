"""Investigation: CURRENT evidence and PAST memories kept apart, by a model or offline, then guarded.

The investigation service (`bot/services/investigation.py`) builds one investigator with
`build_investigator` and calls
`await investigator.investigate(incident, timeline, memories, channel_is_private=...)`.
"""

from __future__ import annotations

from bot.investigation.anthropic_investigator import DEFAULT_MODEL, DEFAULT_TIMEOUT_S, AnthropicInvestigator
from bot.investigation.models import (
    Check,
    Conflict,
    FailedPreviousAction,
    FallbackReason,
    Findings,
    Hypothesis,
    HypothesisStatus,
    Investigation,
    InvestigatorKind,
    ModelAnswer,
    NowStatement,
    PreviousAction,
    TimelineEntry,
    TokenUsage,
)
from bot.investigation.offline import OfflineInvestigator
from bot.investigation.port import Investigator
from bot.investigation.second_opinion import DEFAULT_BUDGET_S as DEFAULT_GUARD_BUDGET_S
from bot.investigation.second_opinion import DEFAULT_GUARD_MODEL
from bot.jobs.reading import INLINE, ReadingPool


def build_investigator(
    *,
    api_key: str | None,
    model: str = DEFAULT_MODEL,
    base_url: str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    private_with_model: bool = False,
    guard_model: str | None = DEFAULT_GUARD_MODEL,
    guard_budget_s: float = DEFAULT_GUARD_BUDGET_S,
    reading: ReadingPool = INLINE,
) -> Investigator:
    """The model when a key is set, else the offline investigator. No guard model: the guard's rules alone."""
    if not api_key:
        return OfflineInvestigator()
    return AnthropicInvestigator(
        api_key=api_key, model=model, base_url=base_url, timeout_s=timeout_s, private_with_model=private_with_model,
        guard_model=guard_model, guard_budget_s=guard_budget_s, reading=reading,
    )  # fmt: skip


__all__ = [
    "AnthropicInvestigator",
    "Check",
    "Conflict",
    "FailedPreviousAction",
    "FallbackReason",
    "Findings",
    "Hypothesis",
    "HypothesisStatus",
    "Investigation",
    "Investigator",
    "InvestigatorKind",
    "ModelAnswer",
    "NowStatement",
    "OfflineInvestigator",
    "PreviousAction",
    "TimelineEntry",
    "TokenUsage",
    "build_investigator",
]
