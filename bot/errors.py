"""Errors the memory bank raises; each names what went wrong in words a person can act on."""

from __future__ import annotations


class MemoryError_(Exception):
    """Base class for memory bank errors (named so it does not shadow the builtin)."""


class MemoryNotFound(MemoryError_):
    def __init__(self, incident_id: str, team_id: str) -> None:
        super().__init__(f"no memory {incident_id!r} in team {team_id!r}")
        self.incident_id = incident_id
        self.team_id = team_id


class MemoryConflict(MemoryError_):
    """The same incident_id was retained again with different content."""

    def __init__(self, incident_id: str, fields: list[str]) -> None:
        super().__init__(
            f"memory {incident_id!r} already exists with different content in: {', '.join(fields)}"
            " (nothing was overwritten; add a correction instead)"
        )
        self.incident_id = incident_id
        self.fields = fields


class TruthMoveRefused(MemoryError_):
    def __init__(self, incident_id: str, from_state: str, to_state: str, rule: str) -> None:
        super().__init__(f"memory {incident_id!r}: {from_state} → {to_state} is not allowed: {rule}")
        self.incident_id = incident_id
        self.from_state = from_state
        self.to_state = to_state


class CorrectionRefused(MemoryError_):
    """A memory keeps only so many corrections, and one person adds only so many to it."""

    def __init__(self, incident_id: str, why: str) -> None:
        super().__init__(f"memory {incident_id!r} takes no more corrections: {why}")
        self.incident_id = incident_id


class PurgeRefused(MemoryError_):
    """The memory supersedes others: purging it alone would leave them pointing at nothing."""

    def __init__(self, incident_id: str, superseded: list[str]) -> None:
        super().__init__(
            f"memory {incident_id!r} supersedes {', '.join(superseded)}: say what becomes of "
            f"{'it' if len(superseded) == 1 else 'them'} (restore the previous state, or purge too); nothing was purged"
        )
        self.incident_id = incident_id
        self.superseded = superseded


class StoreUnavailable(MemoryError_):
    """The database did not answer; the caller should keep what the user typed and retry."""


class StoreBusy(StoreUnavailable):
    """The database answers, but every pooled connection stayed in use while we waited: load,
    not an outage (retried the same way, said differently)."""


class StoreFailed(MemoryError_):
    """The database refused an operation (a constraint, a full disk...); nothing was changed."""
