"""Resolution: the responders' confirmed outcome becomes a memory, never silently overwritten."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.errors import MemoryConflict
from bot.memory.port import MemoryStore, RetainStatus
from bot.models import DraftingTrace, IncidentRecord, MemoryDraft, MemoryRecord, Resolution, Source, TruthState
from bot.policy import Act, Actor
from bot.services.access import Access


class ResolutionStatus(StrEnum):
    SAVED = "saved"
    UNCHANGED = "unchanged"
    CONFLICT = "conflict"


@dataclass(frozen=True, slots=True)
class ResolutionOutcome:
    status: ResolutionStatus
    memory: MemoryRecord | None
    conflicting_fields: tuple[str, ...] = ()


def draft_for(
    incident: IncidentRecord,
    resolution: Resolution,
    *,
    resolved_by: str,
    resolved_by_name: str | None = None,
    drafting: DraftingTrace | None = None,
) -> MemoryDraft:
    """The memory a resolution makes. A human filled the modal: at least human_confirmed."""
    verified = resolution.verified
    return MemoryDraft(
        incident_id=incident.incident_id,
        team_id=incident.team,
        title=incident.title,
        service=incident.service,
        severity=incident.severity,
        symptoms=incident.symptoms,
        error_message=incident.error_message,
        root_cause=resolution.root_cause,
        diagnosis=resolution.diagnosis,
        resolution=resolution.resolution,
        failed_attempts=resolution.failed_attempts,
        lesson=resolution.lesson,
        notes=resolution.notes,
        source=Source.ENGINEER_SAVED,
        truth_state=TruthState.VERIFICATION_CONFIRMED if verified else TruthState.HUMAN_CONFIRMED,
        verified_by=resolved_by,
        verified_by_name=resolved_by_name,
        verification_note=resolution.verification_note if verified else None,
        channel_id=incident.channel,
        is_private=incident.is_private,
        occurred_at=incident.started_at,
        drafting=drafting,
    )


class ResolutionService:
    def __init__(self, memory: MemoryStore, *, access: Access | None = None) -> None:
        self._memory = memory
        self._access = access

    @property
    def access(self) -> Access:
        if self._access is None:
            raise RuntimeError("this ResolutionService was built without the access policy")
        return self._access

    async def resolve(
        self, incident: IncidentRecord, resolution: Resolution, *, by: Actor, drafting: DraftingTrace | None = None
    ) -> ResolutionOutcome:
        """Retain the outcome (with what the person did with the draft, if the modal was drafted)
        and close the incident, in one transaction. Anyone may resolve (human_confirmed);
        resolving as verified is NotAllowed unless the policy lets `by`. Storage errors propagate
        (nothing was written): the caller keeps the modal open with what was typed."""
        if resolution.verified:
            self.access.require_for_incident(by, Act.RESOLVE_VERIFIED, incident)
        draft = draft_for(incident, resolution, resolved_by=by.id, resolved_by_name=by.name, drafting=drafting)
        try:
            outcome = await self._memory.resolve_incident(draft)
        except MemoryConflict as conflict:
            existing = await self._memory.get(incident.team, incident.incident_id)
            return ResolutionOutcome(ResolutionStatus.CONFLICT, existing, tuple(conflict.fields))
        status = ResolutionStatus.SAVED if outcome.status is RetainStatus.CREATED else ResolutionStatus.UNCHANGED
        return ResolutionOutcome(status, outcome.memory)

    async def add_correction(
        self, team_id: str, incident_id: str, author: Actor, text: str, *, channel_id: str | None
    ) -> MemoryRecord:
        """Anyone may correct a memory they can see from `channel_id` (else MemoryNotFound)."""
        await self.access.memory(team_id, incident_id, channel_id)
        return await self._memory.add_correction(team_id, incident_id, author.id, text, author_name=author.name)
