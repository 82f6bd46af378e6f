"""Drafting the resolution modal from the incident's channel, and keeping what the person did
with the draft. The draft is a proposal: nothing becomes memory until a person submits."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

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


class DraftingService:
    def __init__(self, drafter: Drafter, incidents: IncidentStore, drafts: DraftStore) -> None:
        self._drafter = drafter
        self._incidents = incidents
        self._drafts = drafts
        self._running: dict[tuple[str, str], asyncio.Task[SavedDraft]] = {}

    async def draft(self, incident: IncidentRecord) -> SavedDraft:
        """Draft from the incident's timeline and the messages people marked; the draft is kept
        so the submission can be compared with it. One draft per incident at a time: a second
        request while one runs gets that draft, with a note saying it joined it."""
        key = (incident.team, incident.incident_id)
        running = self._running.get(key)
        if running is not None:
            saved = await asyncio.shield(running)
            note = "This draft was already being made for someone else's resolution form; it is shown here too."
            return SavedDraft(saved.draft_id, saved.draft.model_copy(update={"notes": [*saved.draft.notes, note]}))
        task = asyncio.ensure_future(self._draft(incident))
        self._running[key] = task
        task.add_done_callback(lambda _: self._running.pop(key, None))  # the only task of its key
        # shielded: a caller cancelled (its modal closed) does not cancel the draft others joined
        return await asyncio.shield(task)

    async def _draft(self, incident: IncidentRecord) -> SavedDraft:
        timeline = await self._incidents.timeline(incident.team, incident.incident_id)
        marks = await self._drafts.marks(incident.team, incident.incident_id)
        draft = await self._drafter.draft(incident, timeline, marks)
        return SavedDraft(await self._drafts.save_draft(incident.team, incident.incident_id, draft), draft)

    async def trace(self, team_id: str, draft_id: int | None, resolution: Resolution) -> DraftingTrace | None:
        """Which saved fields were drafted-then-accepted, changed, cleared or typed (None: the
        modal showed no stored draft)."""
        if draft_id is None:
            return None
        draft = await self._drafts.get_draft(team_id, draft_id)
        return drafting_trace(draft, resolution) if draft is not None else None

    async def mark(self, team_id: str, channel_id: str, mark: Mark) -> IncidentRecord | None:
        """Mark a channel message for the draft of the channel's incident (its open one, else its
        latest); None when the channel never had an incident."""
        incident = await self._incidents.latest_in_channel(team_id, channel_id)
        if incident is None or not await self._drafts.mark(team_id, incident.incident_id, mark):
            return None
        return incident

    async def aclose(self) -> None:
        await self._drafter.aclose()
