"""The investigator port: what any investigator must do."""

from __future__ import annotations

from typing import Protocol

from bot.investigation.models import Investigation, TimelineEntry
from bot.models import Incident, RecallMatch


class Investigator(Protocol):
    async def investigate(
        self,
        incident: Incident,
        timeline: list[TimelineEntry],
        memories: list[RecallMatch],
        *,
        channel_is_private: bool | None = None,
    ) -> Investigation:
        """Investigate the CURRENT incident with PAST memories as context. Never raises.

        `channel_is_private`: whether the incident's channel is private; None means unknown,
        which privacy treats as private.
        """
        ...

    async def aclose(self) -> None:
        """Release what the investigator holds (an HTTP client); called once at shutdown."""
        ...
