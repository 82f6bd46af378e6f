"""The Postgres adapter for what resolution drafts are made of and compared with: the drafts
shown in modals, and the channel messages people marked with "Add to incident memory"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.drafting.models import Mark, MarkKind, ResolutionDraft
from bot.memory.pool import acquire


@dataclass(frozen=True, slots=True)
class DraftingLease:
    """Who drafts an incident now (another process), or what they drafted once done."""

    holder: str
    running: bool  # still within its lease
    draft_id: int | None  # set when the holder finished with a draft


class DraftStore(Protocol):
    async def claim_drafting(
        self, team_id: str, incident_id: str, holder: str, lease_s: float
    ) -> DraftingLease | None: ...
    async def drafting(self, team_id: str, incident_id: str) -> DraftingLease | None: ...
    async def finish_drafting(self, team_id: str, incident_id: str, holder: str, draft_id: int | None) -> None: ...
    async def save_draft(self, team_id: str, incident_id: str, draft: ResolutionDraft) -> int | None: ...
    async def get_draft(self, team_id: str, draft_id: int) -> ResolutionDraft | None: ...
    async def mark(self, team_id: str, incident_id: str, mark: Mark) -> bool: ...
    async def marks(self, team_id: str, incident_id: str) -> list[Mark]: ...


class PostgresDraftStore:
    def __init__(self, pool) -> None:  # noqa: ANN001 - asyncpg.Pool
        self._pool = pool

    async def claim_drafting(self, team_id: str, incident_id: str, holder: str, lease_s: float) -> DraftingLease | None:
        """Take the incident's drafting for `lease_s` seconds: None when taken (or when there is
        no such incident), else the lease of the process drafting it now."""
        async with acquire(self._pool) as conn:
            taken = await conn.fetchval(
                """INSERT INTO drafting_leases (incident_pk, holder, until)
                   SELECT pk, $3, now() + make_interval(secs => $4) FROM incidents WHERE team_id = $1 AND incident_id = $2
                   ON CONFLICT (incident_pk) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until, draft_id = NULL
                       WHERE drafting_leases.until <= now()
                   RETURNING true""",
                team_id, incident_id, holder, lease_s,
            )  # fmt: skip
        return None if taken else await self.drafting(team_id, incident_id)

    async def drafting(self, team_id: str, incident_id: str) -> DraftingLease | None:
        async with acquire(self._pool) as conn:
            row = await conn.fetchrow(
                """SELECT l.holder, l.until > now() AS running, l.draft_id FROM drafting_leases l
                   JOIN incidents i ON i.pk = l.incident_pk WHERE i.team_id = $1 AND i.incident_id = $2""",
                team_id, incident_id,
            )  # fmt: skip
        return DraftingLease(row["holder"], row["running"], row["draft_id"]) if row else None

    async def finish_drafting(self, team_id: str, incident_id: str, holder: str, draft_id: int | None) -> None:
        """End the lease, leaving the draft made (None: none was) for those who waited on it."""
        async with acquire(self._pool) as conn:
            await conn.execute(
                """UPDATE drafting_leases l SET until = now(), draft_id = $4 FROM incidents i
                   WHERE i.pk = l.incident_pk AND i.team_id = $1 AND i.incident_id = $2 AND l.holder = $3""",
                team_id, incident_id, holder, draft_id,
            )  # fmt: skip

    async def save_draft(self, team_id: str, incident_id: str, draft: ResolutionDraft) -> int | None:
        """The draft's id, or None when there is no such incident."""
        async with acquire(self._pool) as conn:
            return await conn.fetchval(
                """INSERT INTO resolution_drafts (incident_pk, draft)
                   SELECT pk, $3 FROM incidents WHERE team_id = $1 AND incident_id = $2 RETURNING id""",
                team_id, incident_id, draft.model_dump(mode="json"),
            )  # fmt: skip

    async def get_draft(self, team_id: str, draft_id: int) -> ResolutionDraft | None:
        async with acquire(self._pool) as conn:
            raw = await conn.fetchval(
                """SELECT d.draft FROM resolution_drafts d JOIN incidents i ON i.pk = d.incident_pk
                   WHERE d.id = $2 AND i.team_id = $1""",
                team_id, draft_id,
            )  # fmt: skip
        return ResolutionDraft.model_validate(raw) if raw is not None else None

    async def mark(self, team_id: str, incident_id: str, mark: Mark) -> bool:
        """Keep the mark (marking a message the same way again updates its why); False when there
        is no such incident."""
        async with acquire(self._pool) as conn:
            done = await conn.fetchval(
                """INSERT INTO incident_marks (incident_pk, message_ts, author, text, kind, why, marked_by)
                   SELECT pk, $3, $4, $5, $6, $7, $8 FROM incidents WHERE team_id = $1 AND incident_id = $2
                   ON CONFLICT (incident_pk, message_ts, kind) DO UPDATE
                       SET why = EXCLUDED.why, marked_by = EXCLUDED.marked_by, marked_at = now()
                   RETURNING true""",
                team_id, incident_id, mark.message_ts, mark.author, mark.text, mark.kind.value, mark.why, mark.marked_by,
            )  # fmt: skip
        return bool(done)

    async def marks(self, team_id: str, incident_id: str) -> list[Mark]:
        async with acquire(self._pool) as conn:
            rows = await conn.fetch(
                """SELECT m.message_ts, m.author, m.text, m.kind, m.why, m.marked_by FROM incident_marks m
                   JOIN incidents i ON i.pk = m.incident_pk WHERE i.team_id = $1 AND i.incident_id = $2
                   ORDER BY m.message_ts, m.id""",
                team_id, incident_id,
            )  # fmt: skip
        return [
            Mark(message_ts=r["message_ts"], author=r["author"], text=r["text"], kind=MarkKind(r["kind"]),
                 why=r["why"], marked_by=r["marked_by"])
            for r in rows
        ]  # fmt: skip
