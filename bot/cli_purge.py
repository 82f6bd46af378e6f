"""What `incident-memory purge` tells a person: what is about to go (to confirm), and what went."""

from __future__ import annotations

from bot.memory.port import SupersededHandling
from bot.services.purge import PurgePlan, PurgeResult


def what_goes(plan: PurgePlan, handling: SupersededHandling) -> str:
    """The list a person confirms before anything is deleted."""
    going = []
    if plan.memory is not None:
        going.append(f"the memory {plan.incident_id!r} ({plan.memory.title}) with {len(plan.memory.corrections)} "
                     "corrections and its truth history")  # fmt: skip
    if plan.superseded:
        verb = "restored to their earlier state" if handling is SupersededHandling.RESTORE else "purged too"
        going.append(f"the memories it superseded, {verb}: {', '.join(plan.superseded)}")
    if plan.incident:
        going.append("the incident and every channel message of its timeline")
    return "This deletes for good:\n  - " + "\n  - ".join(going)


def what_went(incident_id: str, done: PurgeResult, purged_by: str) -> str:
    said = []
    if done.purged:
        said.append("the memory with its corrections, truth history and feedback")
    if done.purged[1:]:
        said.append(f"the memories it superseded: {', '.join(done.purged[1:])}")
    if done.restored:
        said.append(f"restored {', '.join(done.restored)} to the state before {incident_id} superseded them")
    if done.timeline_messages is not None:
        n = done.timeline_messages
        said.append(f"the incident and the {n} channel message{'s' if n != 1 else ''} of its timeline")
    return f"purged {incident_id}: {'; '.join(said)} (recorded as purged by {purged_by})"
