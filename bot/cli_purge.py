"""`incident-memory purge`: its arguments, the question it asks first, and what it says it did.
The command itself is in bot/cli.py."""

from __future__ import annotations

import argparse
import sys

from bot.memory.port import SupersededHandling
from bot.services.purge import PurgePlan


class PurgeNotConfirmed(Exception):
    """Nothing was purged: no terminal to ask on without --yes, or the answer was not the id."""


def add_purge_arguments(p: argparse.ArgumentParser, as_help: str) -> None:
    p.add_argument("--yes", action="store_true", help="do not ask (needed without a terminal)")
    p.add_argument("--as", dest="operator", metavar="USER", help=as_help)
    successors = p.add_mutually_exclusive_group()
    successors.add_argument(
        "--restore-superseded", action="store_true",
        help="memories it superseded go back to the state they had before (audited)",
    )  # fmt: skip
    successors.add_argument("--purge-superseded", action="store_true", help="memories it superseded are purged too")


def superseded_handling(args: argparse.Namespace) -> SupersededHandling:
    """What happens to the memories the purged one superseded (refused unless said)."""
    if args.restore_superseded:
        return SupersededHandling.RESTORE
    return SupersededHandling.PURGE if args.purge_superseded else SupersededHandling.REFUSE


def confirm_purge(plan: PurgePlan, handling: SupersededHandling) -> None:
    """Ask on the terminal; without one (a script, a pipe) refuse: --yes says it was meant."""
    if not sys.stdin.isatty():
        raise PurgeNotConfirmed("purge deletes for good and asks first, but there is no terminal to ask on: pass --yes")
    going = []
    if plan.memory is not None:
        going.append(f"the memory {plan.incident_id!r} ({plan.memory.title}) with {len(plan.memory.corrections)} "
                     "corrections and its truth history")  # fmt: skip
    if plan.superseded:
        verb = "restored to their earlier state" if handling is SupersededHandling.RESTORE else "purged too"
        going.append(f"the memories it superseded, {verb}: {', '.join(plan.superseded)}")
    if plan.incident:
        going.append("the incident and every channel message of its timeline")
    print("This deletes for good:\n  - " + "\n  - ".join(going), file=sys.stderr)
    if input(f"Type {plan.incident_id} to purge it: ").strip() != plan.incident_id:
        raise PurgeNotConfirmed("not confirmed; nothing was purged")


def purge_summary(done, incident_id: str) -> list[str]:  # noqa: ANN001 - the purge service's outcome
    """What was purged or restored, in words."""
    said: list[str] = []
    if done.purged:
        said.append("the memory with its corrections, truth history and feedback")
    if done.purged[1:]:
        said.append(f"the memories it superseded: {', '.join(done.purged[1:])}")
    if done.restored:
        said.append(f"restored {', '.join(done.restored)} to the state before {incident_id} superseded them")
    if done.timeline_messages is not None:
        n = done.timeline_messages
        said.append(f"the incident and the {n} channel message{'s' if n != 1 else ''} of its timeline")
    return said
