"""Investigation of the CURRENT incident with PAST memories as context (never as verdict)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from bot.config import Settings
from bot.investigation import Investigation, Investigator, build_investigator
from bot.jobs.reading import INLINE, ReadingPool
from bot.models import IncidentRecord, RecallMatch, TimelineEntry
from bot.observability import Metrics, bind
from bot.rules.model import Rule


class InvestigationService:
    def __init__(self, investigator: Investigator, *, metrics: Metrics | None = None) -> None:
        self._investigator = investigator
        self._metrics = metrics

    @classmethod
    def from_settings(
        cls, settings: Settings, *, metrics: Metrics | None = None, reading: ReadingPool = INLINE
    ) -> InvestigationService:
        return cls(
            build_investigator(
                api_key=settings.anthropic_api_key,
                model=settings.anthropic_model,
                base_url=settings.anthropic_base_url,
                timeout_s=settings.investigation_timeout_s,
                private_with_model=settings.investigate_private_with_model,
                guard_model=settings.anthropic_guard_model or None,
                guard_budget_s=settings.investigation_guard_timeout_s,
                reading=reading,
            ),
            metrics=metrics,
        )

    async def investigate(
        self,
        incident: IncidentRecord,
        timeline: list[TimelineEntry],
        memories: list[RecallMatch],
        known_patterns: Sequence[Rule] = (),
    ) -> Investigation:
        """Never raises: a model failure comes back as the offline answer with a note."""
        bind(incident=incident.incident_id)
        start = time.perf_counter()
        investigation = await self._investigator.investigate(
            incident, timeline, memories, channel_is_private=incident.is_private, known_patterns=known_patterns
        )
        if self._metrics is not None:
            self._observe(investigation, time.perf_counter() - start)
        return investigation

    async def aclose(self) -> None:
        await self._investigator.aclose()

    def _observe(self, investigation: Investigation, seconds: float) -> None:
        metrics = self._metrics
        assert metrics is not None
        metrics.investigation_latency.labels(investigator=investigation.investigator.value).observe(seconds)
        if investigation.fallback_reason is not None:  # the model's answer was not used
            metrics.investigation_fallbacks.labels(reason=investigation.fallback_reason.value).inc()
        if investigation.usage is not None:
            model = investigation.model or "unknown"
            metrics.model_tokens.labels(model=model, direction="input").inc(investigation.usage.input_tokens)
            metrics.model_tokens.labels(model=model, direction="output").inc(investigation.usage.output_tokens)
        if investigation.guard_model is not None:
            # the second opinion's cost, apart from the investigation's own
            outcome = "unavailable" if investigation.guard_note else "ok"
            metrics.guard_second_opinions.labels(outcome=outcome).inc()
            usage = investigation.guard_usage
            if usage is not None:
                metrics.guard_tokens.labels(model=investigation.guard_model, direction="input").inc(usage.input_tokens)
                metrics.guard_tokens.labels(model=investigation.guard_model, direction="output").inc(
                    usage.output_tokens
                )
