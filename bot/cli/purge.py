"""`incident-memory purge ID`: forget an incident for good — its memory (corrections, truth
history, feedback) and, when the bot tracked it in a channel, the incident and every channel
message on its timeline. Asks first (unless --yes), and refuses without a terminal to ask on; a
memory that supersedes others waits to be told what becomes of them; each store records who
purged which id and when, never what it said."""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from bot.config import Settings
from bot.errors import PurgeRefused
from bot.memory.port import SupersededHandling
from bot.policy import Actor
from bot.services.purge import PurgePlan, PurgeResult, PurgeService


class PurgeNotConfirmed(Exception):
    """Nothing was purged, and the message says why (no terminal, not confirmed, successors)."""


def operator(args: argparse.Namespace) -> Actor:
    """Who runs a command, as the audit records them: `cli:<--as, else the login name>`."""
    try:
        user = args.operator or getpass.getuser()
    except (KeyError, OSError):  # no login name (a container with no passwd entry)
        user = os.environ.get("USER") or "unknown"
    return Actor.operator(user)


def add_purge_command(add: Callable[..., argparse.ArgumentParser], as_help: str) -> None:
    p = add("purge", cmd_purge, "delete a memory (and its incident's timeline) for good, after asking")
    p.add_argument("id")
    p.add_argument("--yes", action="store_true", help="do not ask (needed without a terminal)")
    p.add_argument("--as", dest="operator", metavar="USER", help=as_help)
    successors = p.add_mutually_exclusive_group()
    successors.add_argument(
        "--restore-superseded", action="store_true",
        help="memories it superseded go back to the state they had before (audited)",
    )  # fmt: skip
    successors.add_argument("--purge-superseded", action="store_true", help="memories it superseded are purged too")


async def cmd_purge(args: argparse.Namespace, settings: Settings) -> int:
    from bot.memory.database import open_incident_store, open_store

    by = operator(args)
    handling = (
        SupersededHandling.RESTORE if args.restore_superseded
        else SupersededHandling.PURGE if args.purge_superseded
        else SupersededHandling.REFUSE
    )  # fmt: skip
    async with open_store(settings) as store, open_incident_store(settings) as incidents:
        purges = PurgeService(store, incidents)
        plan = await purges.plan(args.team, args.id)
        if plan.superseded and handling is SupersededHandling.REFUSE:  # said before asking
            raise PurgeNotConfirmed(f"{PurgeRefused(args.id, plan.superseded)}. Pass --restore-superseded to give "
                                    "them back the state they had, or --purge-superseded to purge them too")  # fmt: skip
        if not args.yes:
            _confirm(plan, handling)
        done = await purges.purge(plan, by=by, superseded=handling)
    payload: dict[str, Any] = {
        "purged": args.id, "memory": bool(done.purged), "memories_purged": done.purged, "restored": done.restored,
        "timeline_messages": done.timeline_messages, "purged_by": by.id,
    }  # fmt: skip
    print(json.dumps(payload, indent=2) if args.json else what_went(args.id, done, by.id))
    return 0


def _confirm(plan: PurgePlan, handling: SupersededHandling) -> None:
    """Ask on the terminal; without one (a script, a pipe) refuse: --yes says it was meant."""
    if not sys.stdin.isatty():
        raise PurgeNotConfirmed("purge deletes for good and asks first, but there is no terminal to ask on: pass --yes")
    print(what_goes(plan, handling), file=sys.stderr)
    if input(f"Type {plan.incident_id} to purge it: ").strip() != plan.incident_id:
        raise PurgeNotConfirmed("not confirmed; nothing was purged")


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
