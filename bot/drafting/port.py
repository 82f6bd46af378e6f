"""The drafter port: what any resolution drafter must do."""

from __future__ import annotations

from typing import Protocol

from bot.drafting.models import Mark, ResolutionDraft
from bot.models import IncidentRecord, TimelineEntry


class Drafter(Protocol):
    async def draft(
        self, incident: IncidentRecord, timeline: list[TimelineEntry], marks: list[Mark]
    ) -> ResolutionDraft:
        """A draft from the CURRENT incident's own channel. Never raises: a drafter that cannot
        answer falls back to the offline rules and says why in `notes`."""
        ...

    async def aclose(self) -> None:
        """Release what the drafter holds (an HTTP client); called once at shutdown."""
        ...
