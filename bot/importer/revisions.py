"""An edited postmortem imported again: a new revision that supersedes the stored one.

The first import of `pm-outage` keeps that id; an edited file imported with `--update` becomes
`pm-outage~r2` (then `~r3`, ...), and the revision it replaces moves to `superseded` naming it,
through the store's audited, one-way truth machine. Importing a file whose content is already
the latest revision changes nothing, with or without `--update`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.memory.port import MemoryStore
from bot.models import MemoryDraft, MemoryRecord, TruthState

REVISION_MARK = "~r"
MAX_REVISIONS = 1000
ACTOR = "import --update"
# what a revision may differ in without being other content: its id and what happened to it since
_NOT_CONTENT = {"incident_id", "truth_state", "superseded_by", "verified_at", "provenance"}


@dataclass(frozen=True, slots=True)
class Revision:
    incident_id: str  # the latest revision, holding the draft's content
    replaced: str | None  # the revision it superseded now, or None when it was already the latest


def same_content(draft: MemoryDraft, memory: MemoryRecord) -> bool:
    stored = MemoryDraft.model_validate({f: getattr(memory, f) for f in MemoryDraft.model_fields})
    return draft.model_dump(mode="json", exclude=_NOT_CONTENT) == stored.model_dump(mode="json", exclude=_NOT_CONTENT)


async def _latest(store: MemoryStore, team_id: str, incident_id: str) -> tuple[MemoryRecord, int]:
    """The newest revision in the chain that starts at `incident_id`, and its number (1: the first)."""
    memory = await store.get(team_id, incident_id)
    number = 1
    while memory.superseded_by and number < MAX_REVISIONS:
        memory = await store.get(team_id, memory.superseded_by)
        number += 1
    return memory, number


async def revise(store: MemoryStore, draft: MemoryDraft, *, reason: str, update: bool) -> Revision | None:
    """After a conflict on `draft.incident_id`: the revision that holds its content (made now when
    `update`), or None when it is other content and `update` was not asked for."""
    latest, number = await _latest(store, draft.team_id, draft.incident_id)
    if same_content(draft, latest):
        return Revision(latest.incident_id, None)
    if not update:
        return None
    base = draft.incident_id
    successor = f"{base[: 200 - len(REVISION_MARK) - 4]}{REVISION_MARK}{number + 1}"
    await store.retain(draft.model_copy(update={"incident_id": successor}))
    if latest.truth_state is not TruthState.SUPERSEDED:
        await store.transition(
            draft.team_id, latest.incident_id, TruthState.SUPERSEDED, actor=ACTOR, reason=reason, successor_id=successor
        )
    return Revision(successor, latest.incident_id)
