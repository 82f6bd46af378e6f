"""Privacy: what may leave the workspace for the model.

By default nothing from a private channel is sent: neither a private incident nor a memory
that was kept from one. Unknown channel privacy counts as private (fail closed).
"""

from __future__ import annotations

from bot.models import Incident, RecallMatch
from bot.policy import private_by_id


def privacy_blockers(incident: Incident, memories: list[RecallMatch], channel_is_private: bool | None) -> list[str]:
    """Why this investigation must not go to the model; empty when it may."""
    blockers: list[str] = []
    if channel_is_private or private_by_id(incident.channel):
        blockers.append("the incident's channel is private")
    elif channel_is_private is None:
        blockers.append("the incident channel's privacy is unknown")
    private_ids = [m.memory.incident_id for m in memories if m.memory.is_private]
    if private_ids:
        blockers.append(f"memories from private channels were recalled ({', '.join(private_ids)})")
    return blockers


def privacy_note(blockers: list[str]) -> str:
    return (
        "Nothing was sent to the model because "
        + "; ".join(blockers)
        + ". Offline answer from the memories alone (INVESTIGATE_PRIVATE_WITH_MODEL is off)."
    )
