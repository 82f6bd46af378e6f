"""Drafting the resolution from the incident's own channel: the offline rules (always there) or
the model (with ANTHROPIC_API_KEY), behind one port. Every drafted field quotes the messages it
came from; a person confirms by submitting, and the memory records what they changed."""

from __future__ import annotations

from bot.drafting.anthropic_drafter import AnthropicDrafter
from bot.drafting.models import DraftedAttempt, DraftedText, Mark, MarkKind, Quote, ResolutionDraft
from bot.drafting.origins import drafting_trace
from bot.drafting.port import Drafter
from bot.drafting.rules import OfflineDrafter


def build_drafter(
    *, api_key: str | None, model: str, base_url: str | None = None, timeout_s: float = 20.0, private_with_model: bool = False
) -> Drafter:
    """The model when a key is set, else the rules."""
    if not api_key:
        return OfflineDrafter()
    return AnthropicDrafter(
        api_key=api_key, model=model, base_url=base_url, timeout_s=timeout_s, private_with_model=private_with_model
    )


__all__ = [
    "AnthropicDrafter",
    "DraftedAttempt",
    "DraftedText",
    "Drafter",
    "Mark",
    "MarkKind",
    "OfflineDrafter",
    "Quote",
    "ResolutionDraft",
    "build_drafter",
    "drafting_trace",
]
