"""The investigator port: what any investigator must do."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.investigation.models import Investigation, TimelineEntry
from bot.models import Incident, RecallMatch
from bot.rules.model import Rule


class Investigator(Protocol):
    async def investigate(
        self,
        incident: Incident,
        timeline: list[TimelineEntry],
        memories: list[RecallMatch],
        *,
        channel_is_private: bool | None = None,
        known_patterns: Sequence[Rule] = (),
    ) -> Investigation:
        """Investigate the CURRENT incident with PAST memories as context. Never raises.

        `channel_is_private`: whether the incident's channel is private; None means unknown,
        which privacy treats as private. `known_patterns`: approved rules that fired on the
        incident, PAST context like the memories (never a verdict).
        """
        ...

    async def aclose(self) -> None:
        """Release what the investigator holds (an HTTP client); called once at shutdown."""
        ...
