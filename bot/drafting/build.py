"""Which drafter runs: the model when a key is set, else the rules."""

from __future__ import annotations

from bot.drafting.port import Drafter
from bot.drafting.rules import OfflineDrafter
from bot.jobs.reading import INLINE, ReadingPool
from bot.text_limits import ReadLimits


def build_drafter(
    *,
    api_key: str | None,
    model: str,
    base_url: str | None = None,
    timeout_s: float = 20.0,
    private_with_model: bool = False,
    limits: ReadLimits | None = None,
    reading: ReadingPool = INLINE,
) -> Drafter:
    if not api_key:
        return OfflineDrafter(limits, reading)
    from bot.drafting.anthropic_drafter import AnthropicDrafter

    return AnthropicDrafter(
        api_key=api_key,
        model=model,
        base_url=base_url,
        timeout_s=timeout_s,
        private_with_model=private_with_model,
        limits=limits,
        reading=reading,
    )
