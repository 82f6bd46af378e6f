"""Drafting the resolution modal from the incident's channel, and keeping what the person did
with the draft. The draft is a proposal: nothing becomes memory until a person submits."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass

from bot.drafting.first_report import dropped_note, first_report
from bot.drafting.models import Mark, ResolutionDraft
from bot.drafting.origins import drafting_trace
from bot.drafting.port import Drafter
from bot.memory.drafts import DraftStore
from bot.memory.incidents import IncidentStore
from bot.models import DraftingTrace, IncidentRecord, Resolution


@dataclass(frozen=True, slots=True)
class SavedDraft:
    draft_id: int | None  # None: the incident went away meanwhile (nothing to compare with later)
    draft: ResolutionDraft


JOINED = "This draft was already being made for someone else's resolution form; it is shown here too."
# A drafting process holds an incident's lease this long at most: past the draft job's attempt
# (120 s), so only a process that died leaves it, and then the next request drafts.
LEASE_S = 150.0
POLL_S = 0.25


class DraftingService:
    def __init__(
        self, drafter: Drafter, incidents: IncidentStore, drafts: DraftStore, *, lease_s: float = LEASE_S
    ) -> None:
        self._drafter = drafter
        self._incidents = incidents
        self._drafts = drafts
        self._lease_s = lease_s
        self._running: dict[tuple[str, str], asyncio.Task[tuple[SavedDraft, bool]]] = {}

    async def draft(self, incident: IncidentRecord) -> SavedDraft:
        """Draft from the incident's timeline and the messages people marked; the draft is kept
        so the submission can be compared with it. One draft per incident at a time, across every
        process: a second request while one runs gets that draft, with a note saying it joined it."""
        key = (incident.team, incident.incident_id)
        running = self._running.get(key)
        joined = running is not None
        if running is None:
            running = self._running[key] = asyncio.ensure_future(self._draft_once(incident))
            running.add_done_callback(lambda _: self._running.pop(key, None))  # the only task of its key
        # shielded: a caller cancelled (its modal closed) does not cancel the draft others joined
        saved, elsewhere = await asyncio.shield(running)
        if not (joined or elsewhere):
            return saved
        return SavedDraft(saved.draft_id, saved.draft.model_copy(update={"notes": [*saved.draft.notes, JOINED]}))

    async def _draft_once(self, incident: IncidentRecord) -> tuple[SavedDraft, bool]:
        """The draft, made here under the incident's lease or by the process holding it (then True)."""
        team, incident_id = incident.team, incident.incident_id
        holder = uuid.uuid4().hex
        while True:
            other = await self._drafts.claim_drafting(team, incident_id, holder, self._lease_s)
            if other is None:
                saved: SavedDraft | None = None
                try:
                    saved = await self._draft(incident)
                    return saved, False
                finally:
                    await self._drafts.finish_drafting(team, incident_id, holder, saved.draft_id if saved else None)
            while other is not None and other.running and other.draft_id is None:
                await asyncio.sleep(POLL_S)
                other = await self._drafts.drafting(team, incident_id)
            if other is not None and other.draft_id is not None:
                draft = await self._drafts.get_draft(team, other.draft_id)
                if draft is not None:
                    return SavedDraft(other.draft_id, draft), True
            # the other process ended without a draft (it failed, or died): draft here

    async def _draft(self, incident: IncidentRecord) -> SavedDraft:
        timeline = await self._incidents.timeline(incident.team, incident.incident_id)
        marks = await self._drafts.marks(incident.team, incident.incident_id)
        draft = await self._drafter.draft(incident, timeline, marks)
        if not incident.symptoms:  # none declared: the channel's first report is offered as the symptoms
            first = await self._incidents.first_message(incident.team, incident.incident_id)
            draft = draft.model_copy(update={"symptoms": first_report([first] if first else [])})
            if first is None:  # none said yet, or dropped past the cap: then the note says why it is empty
                kept, dropped = await self._incidents.timeline_size(incident.team, incident.incident_id)
                if dropped:
                    draft = draft.model_copy(update={"notes": [*draft.notes, dropped_note(kept)]})
        return SavedDraft(await self._drafts.save_draft(incident.team, incident.incident_id, draft), draft)

    async def trace(
        self, team_id: str, draft_id: int | None, resolution: Resolution, *, declared_symptoms: str | None = None
    ) -> DraftingTrace | None:
        """Which saved fields were drafted-then-accepted, changed, cleared or typed (None: the
        modal showed no stored draft); symptoms kept as declared are none of these."""
        if draft_id is None:
            return None
        draft = await self._drafts.get_draft(team_id, draft_id)
        return drafting_trace(draft, resolution, declared_symptoms) if draft is not None else None

    async def mark(self, team_id: str, channel_id: str, mark: Mark) -> IncidentRecord | None:
        """Mark a channel message for the draft of the channel's incident (its open one, else its
        latest); None when the channel never had an incident."""
        incident = await self._incidents.latest_in_channel(team_id, channel_id)
        if incident is None or not await self._drafts.mark(team_id, incident.incident_id, mark):
            return None
        return incident

    async def aclose(self) -> None:
        await self._drafter.aclose()
