"""Resolution: the responders' confirmed outcome becomes a memory, never silently overwritten.

Closing belongs to the incident's channel (bot/policy.py): a resolution by someone who may not
close the incident is kept as an unconfirmed hypothesis beside it (`<id>~by-<user>`) and the
incident stays open. The declarer, a reviewer or an admin replaces a wrong resolution by a
superseding revision (`<id>~r<n>`), audited as a truth move. A resolver who ticks "verified"
verifies their own fix: kept as human_confirmed with the note "self-verified".
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum

from bot.config import Settings
from bot.errors import MemoryConflict, MemoryNotFound
from bot.memory.port import MemoryStore, RetainStatus
from bot.models import (
    RELATED_MARK,
    SELF_VERIFIED,
    DraftingTrace,
    IncidentRecord,
    MemoryAlert,
    MemoryDraft,
    MemoryRecord,
    Resolution,
    Source,
    TruthState,
    shown_person,
)
from bot.policy import Act, Actor, kept_to_home, may
from bot.services.access import Access


class ResolutionStatus(StrEnum):
    SAVED = "saved"
    UNCHANGED = "unchanged"
    CONFLICT = "conflict"
    HYPOTHESIS = "hypothesis"  # kept unconfirmed: the resolver may not close the incident
    REVISED = "revised"  # a new revision superseded the incident's resolution


MAX_REVISIONS = 50


@dataclass(frozen=True, slots=True)
class ResolutionOutcome:
    status: ResolutionStatus
    memory: MemoryRecord | None
    conflicting_fields: tuple[str, ...] = ()
    replaced: str | None = None  # REVISED: the memory the revision superseded


def draft_for(
    incident: IncidentRecord,
    resolution: Resolution,
    *,
    resolved_by: str,
    resolved_by_name: str | None = None,
    drafting: DraftingTrace | None = None,
    closing: bool = True,
    memory_id: str | None = None,
    alerts: list[MemoryAlert] | None = None,
) -> MemoryDraft:
    """The memory a resolution makes. A human filled the modal: human_confirmed when they may
    close the incident (their own "verified" kept as self-verified), else an unconfirmed
    hypothesis that names who proposed it."""
    note = None
    if closing and resolution.verified and resolution.verification_note:
        note = f"{SELF_VERIFIED}: {resolution.verification_note}"[:3000]
    notes = resolution.notes
    if not closing:
        proposed = f"Proposed by {shown_person(resolved_by, resolved_by_name)}, who may not close this incident."
        notes = f"{proposed}\n{notes}" if notes else proposed
    return MemoryDraft(
        incident_id=memory_id or incident.incident_id,
        team_id=incident.team,
        title=incident.title,
        service=incident.service,
        severity=incident.severity,
        # what was first reported as the person confirmed it; a cleared field keeps the declared ones
        symptoms=resolution.symptoms or incident.symptoms,
        error_message=incident.error_message,
        root_cause=resolution.root_cause,
        diagnosis=resolution.diagnosis,
        resolution=resolution.resolution,
        failed_attempts=resolution.failed_attempts,
        lesson=resolution.lesson,
        notes=notes,
        source=Source.ENGINEER_SAVED,
        truth_state=TruthState.HUMAN_CONFIRMED if closing else TruthState.UNCONFIRMED_HYPOTHESIS,
        verified_by=resolved_by if closing else None,
        verified_by_name=resolved_by_name if closing else None,
        verification_note=note,
        channel_id=incident.channel,
        # kept to its channel: a private one's, and an isolated one's (bot.policy.kept_to_home)
        is_private=kept_to_home(is_private=incident.is_private, is_isolated=incident.is_isolated),
        occurred_at=incident.started_at,
        drafting=drafting,
        alerts=alerts or [],
    )


@dataclass(frozen=True, slots=True)
class CorrectionLimits:
    """MEMORY_CORRECTIONS_MAX per memory, MEMORY_CORRECTIONS_PER_PERSON per person per memory:
    corrections are unverified additions, and a flood of them must not bury the memory."""

    max_total: int = 10
    per_person: int = 3

    @classmethod
    def of(cls, settings: Settings) -> CorrectionLimits:
        return cls(settings.memory_corrections_max, settings.memory_corrections_per_person)


class ResolutionService:
    def __init__(
        self,
        memory: MemoryStore,
        *,
        access: Access | None = None,
        corrections: CorrectionLimits | None = None,
        alerts: Callable[[str, str], Awaitable[list[MemoryAlert]]] | None = None,
    ) -> None:
        self._memory = memory
        self._alerts = alerts  # the alerts that joined an incident's timeline (team, incident id)
        self._access = access
        self._corrections = corrections or CorrectionLimits()

    @property
    def access(self) -> Access:
        if self._access is None:
            raise RuntimeError("this ResolutionService was built without the access policy")
        return self._access

    async def resolve(
        self,
        incident: IncidentRecord,
        resolution: Resolution,
        *,
        by: Actor,
        in_channel: bool = False,
        drafting: DraftingTrace | None = None,
    ) -> ResolutionOutcome:
        """Retain the outcome (with what the person did with the draft, if the modal was drafted)
        and close the incident, in one transaction, when `by` may close it (`in_channel`: Slack
        says they are in its channel); else keep it as a hypothesis and leave the incident open.
        Resolving as verified is NotAllowed unless the policy lets `by`. Storage errors propagate
        (nothing was written): the caller keeps the modal open with what was typed."""
        incident = await self.access.take_declarer_rights(incident, by.id, in_channel=in_channel)
        if resolution.verified:
            self.access.require_for_incident(by, Act.RESOLVE_VERIFIED, incident)
        fired = await self._alerts(incident.team, incident.incident_id) if self._alerts is not None else []
        if not self.access.may_close(by, incident, in_channel=in_channel):
            hypothesis = f"{incident.incident_id}{RELATED_MARK}by-{by.id}"
            return await self._keep(
                draft_for(incident, resolution, resolved_by=by.id, resolved_by_name=by.name, drafting=drafting,
                          closing=False, memory_id=hypothesis, alerts=fired),
                ResolutionStatus.HYPOTHESIS,
            )  # fmt: skip
        draft = draft_for(
            incident, resolution, resolved_by=by.id, resolved_by_name=by.name, drafting=drafting, alerts=fired
        )
        try:
            outcome = await self._memory.resolve_incident(draft)
        except MemoryConflict as conflict:
            if may(by, Act.REVISE, declared_by=incident.declared_by):
                return await self._revise(incident, draft, by)
            existing = await self._memory.get(incident.team, incident.incident_id)
            return ResolutionOutcome(ResolutionStatus.CONFLICT, existing, tuple(conflict.fields))
        status = ResolutionStatus.SAVED if outcome.status is RetainStatus.CREATED else ResolutionStatus.UNCHANGED
        return ResolutionOutcome(status, outcome.memory)

    async def _keep(self, draft: MemoryDraft, status: ResolutionStatus) -> ResolutionOutcome:
        try:
            outcome = await self._memory.retain(draft)
        except MemoryConflict as conflict:
            existing = await self._memory.get(draft.team_id, draft.incident_id)
            return ResolutionOutcome(ResolutionStatus.CONFLICT, existing, tuple(conflict.fields))
        kept = status if outcome.status is RetainStatus.CREATED else ResolutionStatus.UNCHANGED
        return ResolutionOutcome(kept, outcome.memory)

    async def _revise(self, incident: IncidentRecord, draft: MemoryDraft, by: Actor) -> ResolutionOutcome:
        """The declarer, a reviewer or an admin resolves a resolved incident again with other
        content: a revision supersedes the latest resolution (kept, with who replaced it)."""
        head = await self._memory.get(incident.team, incident.incident_id)
        n = 2  # the incident's own memory is its first resolution; revisions count from 2
        while head.truth_state is TruthState.SUPERSEDED and head.superseded_by and n <= MAX_REVISIONS:
            head = await self._memory.get(incident.team, head.superseded_by)
            n += 1
        if head.incident_id != incident.incident_id:  # the same revision again changes nothing
            try:
                same = await self._memory.retain(draft.model_copy(update={"incident_id": head.incident_id}))
                return ResolutionOutcome(ResolutionStatus.UNCHANGED, same.memory)
            except MemoryConflict:
                pass
        revision_id = f"{incident.incident_id}{RELATED_MARK}r{n}"
        try:  # a revision id already taken (a race, an old purge): the next free one
            while n <= MAX_REVISIONS + 1:
                await self._memory.get(incident.team, revision_id)
                n += 1
                revision_id = f"{incident.incident_id}{RELATED_MARK}r{n}"
        except MemoryNotFound:
            pass
        revised = await self._memory.retain(draft.model_copy(update={"incident_id": revision_id}))
        await self._memory.transition(
            incident.team, head.incident_id, TruthState.SUPERSEDED, actor=by.id, actor_name=by.name,
            reason="replaced by a revised resolution", successor_id=revision_id,
        )  # fmt: skip
        return ResolutionOutcome(ResolutionStatus.REVISED, revised.memory, replaced=head.incident_id)

    async def add_correction(
        self, team_id: str, incident_id: str, author: Actor, text: str, *, channel_id: str | None
    ) -> MemoryRecord:
        """Anyone may correct a memory they can see from `channel_id` (else MemoryNotFound), within
        the limits (else CorrectionRefused, saying which)."""
        await self.access.memory(team_id, incident_id, channel_id)
        return await self._memory.add_correction(
            team_id, incident_id, author.id, text, author_name=author.name,
            max_total=self._corrections.max_total, max_per_author=self._corrections.per_person,
        )  # fmt: skip
