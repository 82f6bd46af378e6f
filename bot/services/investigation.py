"""Investigation of the CURRENT incident with PAST memories as context (never as verdict)."""

from __future__ import annotations

from bot.config import Settings
from bot.investigation import Investigation, Investigator, build_investigator
from bot.models import IncidentRecord, RecallMatch, TimelineEntry


class InvestigationService:
    def __init__(self, investigator: Investigator) -> None:
        self._investigator = investigator

    @classmethod
    def from_settings(cls, settings: Settings) -> "InvestigationService":
        return cls(
            build_investigator(
                api_key=settings.anthropic_api_key,
                model=settings.anthropic_model,
                base_url=settings.anthropic_base_url,
                timeout_s=settings.investigation_timeout_s,
                private_with_model=settings.investigate_private_with_model,
            )
        )

    async def investigate(
        self, incident: IncidentRecord, timeline: list[TimelineEntry], memories: list[RecallMatch]
    ) -> Investigation:
        """Never raises: a model failure comes back as the offline answer with a note."""
        return await self._investigator.investigate(
            incident, timeline, memories, channel_is_private=incident.is_private
        )
