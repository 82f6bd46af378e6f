"""The memory store port: what any memory adapter must do (tests/contract holds the proof)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from pydantic import Field

from bot.memory.vectors import MemoryVectors
from bot.models import FeedbackKind, MemoryDraft, MemoryRecord, RecallQuery, Strict, TruthState
from bot.recall.candidates import Candidate
from bot.recall.concepts import Vocabulary
from bot.recall.document import QueryTerms
from bot.recall.meaning import QueryMeaning


class RetainStatus(StrEnum):
    CREATED = "created"
    UNCHANGED = "unchanged"


class RetainOutcome(Strict):
    status: RetainStatus
    memory: MemoryRecord


class SupersededHandling(StrEnum):
    """What purging a memory does to the memories it superseded (their pointer would dangle)."""

    REFUSE = "refuse"  # purge nothing; name them
    RESTORE = "restore"  # each goes back to the state it had before it was superseded (audited)
    PURGE = "purge"  # they are purged too (and theirs, down the chain)


class PurgeOutcome(Strict):
    incident_id: str
    purged: list[str] = Field(description="incident ids purged, the asked-for one first")
    restored: list[str] = Field(default_factory=list, description="superseded memories given their state back")


class MemoryPage(Strict):
    memories: list[MemoryRecord]
    total: int = Field(ge=0)


class MemoryStore(Protocol):
    async def retain(self, draft: MemoryDraft) -> RetainOutcome:
        """Store a memory once. Same content again: UNCHANGED. Other content: MemoryConflict."""
        ...

    async def check(self, draft: MemoryDraft) -> RetainStatus:
        """What `retain(draft)` would do, writing nothing: CREATED, UNCHANGED, or MemoryConflict."""
        ...

    def atomic(self, *, read_only: bool = False) -> AbstractAsyncContextManager[MemoryStore]:
        """The store in one transaction: the block's writes commit together, or none do."""
        ...

    async def resolve_incident(self, draft: MemoryDraft) -> RetainOutcome:
        """One unit of work for a resolution: retain `draft` as `retain` does AND mark the
        incident (draft.team_id, draft.incident_id) resolved, in one transaction — both or
        neither. MemoryConflict changes nothing (the incident is not marked)."""
        ...

    async def get(self, team_id: str, incident_id: str) -> MemoryRecord:
        """The memory with its corrections and truth history, or MemoryNotFound."""
        ...

    async def list(
        self,
        team_id: str,
        *,
        service: str | None = None,
        truth_states: list[TruthState] | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> MemoryPage: ...

    async def add_correction(
        self, team_id: str, incident_id: str, author: str, text: str, *, author_name: str | None = None,
        max_total: int | None = None, max_per_author: int | None = None,
    ) -> MemoryRecord:  # fmt: skip
        """Attach a correction by `author` (a user id; `author_name` is their name now); the
        memory's own text is never rewritten. CorrectionRefused when the memory already has
        `max_total` corrections, or `author` already added `max_per_author` to it."""
        ...

    async def transition(
        self,
        team_id: str,
        incident_id: str,
        to_state: TruthState,
        *,
        actor: str,
        actor_name: str | None = None,
        reason: str = "",
        successor_id: str | None = None,
        verification_note: str | None = None,
    ) -> MemoryRecord:
        """Move the truth state if the truth machine allows it, recording who (a user id, with
        their name now beside it), why and when."""
        ...

    async def superseded_by(self, team_id: str, incident_id: str) -> list[str]:
        """Incident ids of the memories that `incident_id` supersedes (directly)."""
        ...

    async def purge(
        self, team_id: str, incident_id: str, *, purged_by: str,
        superseded: SupersededHandling = SupersededHandling.REFUSE,
    ) -> PurgeOutcome:  # fmt: skip
        """Hard-delete a memory with its corrections, transitions and feedback, and keep a
        content-free record (who, which id, when). A memory that supersedes others is refused
        (PurgeRefused) unless `superseded` says what becomes of them."""
        ...

    async def record_feedback(self, team_id: str, incident_id: str, user_id: str, kind: FeedbackKind) -> None:
        """One vote per user and memory; a later vote replaces the earlier one."""
        ...

    @property
    def vocabulary(self) -> Vocabulary:
        """The incident vocabulary the store indexes memories with (queries must use it too)."""
        ...

    async def candidates(
        self, query: RecallQuery, terms: QueryTerms, *, meaning: QueryMeaning | None = None
    ) -> list[Candidate]:
        """Recall's candidate step: the memories that compete for `query` under its hard filters
        (team, truth, privacy, service, time), each with its lexical score and signals. Ranking
        them is the pure pipeline's job (bot/recall); bot/services/recall.py joins the two.
        With `meaning` (the query's vector) and a store that holds vectors, the memories closest
        in meaning compete too and every candidate carries its similarity; a store without
        vectors ignores it."""
        ...

    async def retag(self, team_id: str) -> int:
        """Recompute each memory's stored recall signals (error signature, vocabulary concepts)
        under the store's current vocabulary; how many changed. The memory's text is untouched."""
        ...

    async def teams(self) -> dict[str, int]:
        """team_id → number of memories, for every team that has any (an operator's view)."""
        ...

    async def ping(self) -> bool:
        """Whether the database answers."""
        ...


class MemoryVectorStore(Protocol):
    """Where memories' vectors live (semantic recall, optional): the Postgres adapter with pgvector."""

    async def vectors_ready(self, *, create_from: Path | None = None) -> bool:
        """Whether vectors can be stored; `create_from` (the migrations folder) first creates the
        vector tables if the extension appeared after the migrations ran."""
        ...

    async def unembedded(
        self, model: str, *, dims: int | None = None, include_private: bool = False, after_pk: int = 0,
        limit: int = ...,
    ) -> list[tuple[int, MemoryRecord]]:  # fmt: skip
        """Memories past `after_pk`, in pk order, without a vector of `model` (of `dims` values
        when given), with their pks; memories from private channels only with `include_private`."""
        ...

    async def vector_counts(
        self, model: str, *, dims: int | None = None, include_private: bool = False
    ) -> tuple[int, int, int]:
        """(memories embedded by `model` (with `dims` when given), by another model or size, not at
        all — private ones counted there only with `include_private`)."""
        ...

    async def save_vectors(self, model: str, items: Sequence[MemoryVectors]) -> None:
        """Replace each memory's vectors; a memory purged meanwhile is skipped."""
        ...
