"""incident-memory: a memory of past incidents, from the command line.

Every command prints text, or JSON with --json (errors too, as {"error": ...} on stdout).
Exit codes: 0 success; 1 not found, conflict, invalid data or a setting to fix (the message
names it); 2 a usage error; 130 and 143 stopped by Ctrl-C or SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Awaitable, Callable

from pydantic import ValidationError

from bot.cli.importing import cmd_import
from bot.cli.memories import (
    cmd_confirm,
    cmd_correct,
    cmd_embed,
    cmd_list,
    cmd_migrate,
    cmd_recall,
    cmd_reject,
    cmd_retag,
    cmd_retain,
    cmd_show,
    cmd_supersede,
)
from bot.cli.output import EXIT_FAILED, EXIT_OK, EXIT_SIGINT, EXIT_SIGTERM, CommandFailed, Output
from bot.cli.pages import register as register_page_commands
from bot.cli.purge import PurgeNotConfirmed, add_purge_command
from bot.cli.rules import register as register_rule_commands
from bot.cli.runtime import (
    NonBlank,
    Parser,
    Refused,
    at_least,
    configure_logging,
    timestamp,
    until_signalled,
    version,
)
from bot.config import ConfigurationError, Settings, load_settings
from bot.errors import MemoryConflict, MemoryError_, MemoryNotFound, TruthMoveRefused
from bot.memory.files import MemoryFileError
from bot.memory.migrate import MigrationError
from bot.models import TruthState
from bot.rules.files import RuleFileError

log = logging.getLogger("incident-memory")
LOGS_ONLY = "it writes logs, not a result: LOG_FORMAT=json makes them JSON lines"


# ---- commands that run the bot (the rest: bot/cli/memories.py, importing.py, pages.py, purge.py, rules.py)


async def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app import serve

    await serve(settings)
    return EXIT_OK


async def cmd_worker(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app import run_worker

    await run_worker(settings)
    return EXIT_OK


async def cmd_demo(args: argparse.Namespace, settings: Settings) -> int:
    from bot.demo import run_demo

    return await run_demo(settings, json_mode=args.json)


# ---- the parser -------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    with_json = Parser(add_help=False)
    with_json.add_argument("--json", action="store_true", help="print JSON for scripts (errors too)")
    with_team = Parser(add_help=False)
    with_team.add_argument("--team", help="team_id (default: INCIDENT_MEMORY_TEAM, else local)")

    parser = Parser(prog="incident-memory", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"incident-memory {version()}")
    parser.add_argument("--json", dest="json_first", action="store_true", help="as --json after the command")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="say what happens (where the database is, …) on stderr"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)

    def add(name: str, handler: Callable[..., Awaitable[int]], help_: str, *, team: bool = True, json: bool = True,
            database: bool = True) -> argparse.ArgumentParser:  # fmt: skip
        parents = ([with_json] if json else []) + ([with_team] if team else [])
        p = sub.add_parser(name, parents=parents, help=help_, description=help_)
        p.set_defaults(handler=handler, opens_database=database, slack=False, json=False, logs_only=False)
        return p

    add("migrate", cmd_migrate, "apply pending database migrations", team=False)
    p = add("serve", cmd_serve, "serve Slack over HTTP (or Socket Mode when SLACK_APP_TOKEN is set)", team=False,
            json=False)  # fmt: skip
    p.set_defaults(slack=True, logs_only=True)
    p.add_argument("--json", nargs=0, action=Refused, help=argparse.SUPPRESS, refusal=LOGS_ONLY)
    p.add_argument("--team", nargs=1, action=Refused, help=argparse.SUPPRESS,
                   refusal="serve files memories under each Slack workspace's own team id (from Slack), not --team")  # fmt: skip
    p = add("worker", cmd_worker, "run the jobs Slack requests queue (serve starts JOB_WORKERS of these itself)",
            team=False, json=False)  # fmt: skip
    p.set_defaults(logs_only=True)
    p.add_argument("--json", nargs=0, action=Refused, help=argparse.SUPPRESS, refusal=LOGS_ONLY)
    add("demo", cmd_demo, "run the whole bot against a local stand-in for Slack, in a throwaway database", team=False)
    add("retain", cmd_retain, "retain memories from a JSON or JSON Lines file (- reads standard input)").add_argument(
        "file", help="a file, or - for standard input"
    )
    add("show", cmd_show, "show one memory, with its corrections and truth history").add_argument("id")
    p = add("list", cmd_list, "list memories")
    p.add_argument("--service")
    p.add_argument("--state", action="append", choices=[s.value for s in TruthState])
    p.add_argument("--limit", type=at_least(1), default=50, help="at most this many (at least 1; default %(default)s)")
    p.add_argument("--offset", type=at_least(0), default=0)
    p = add("recall", cmd_recall, "recall past incidents like TEXT, with reasons")
    p.add_argument("text", nargs="+", action=NonBlank)
    p.add_argument("--service", help="only memories of this service")
    p.add_argument("--reusable-only", action="store_true", help="only human- or verification-confirmed")
    p.add_argument("--severity", action="append", help="only these severities (repeatable)")
    p.add_argument("--tag", action="append", help="only memories with one of these tags (repeatable)")
    p.add_argument("--state", action="append", choices=[s.value for s in TruthState], help="only these truth states")
    p.add_argument("--since", type=timestamp, help="only incidents from this time on (ISO 8601)")
    p.add_argument("--until", type=timestamp, help="only incidents up to this time (ISO 8601)")
    p.add_argument("--channel", help="recall as seen in this channel (its private memories included)")
    p.add_argument("--limit", type=at_least(1, 50), default=5, help="at most this many, 1…50 (default %(default)s)")
    p.add_argument("--all", action="store_true", help="also list what the judgement left below")
    as_help = "who runs this, recorded as cli:<USER> (default: your login name)"
    p = add("correct", cmd_correct, "attach a correction to a memory")
    p.add_argument("id")
    p.add_argument("text", nargs="+")
    p.add_argument("--as", "--author", dest="operator", metavar="USER", help=as_help)
    p = add("confirm", cmd_confirm, "confirm an unconfirmed memory")
    p.add_argument("id")
    p.add_argument("--as", "--by", dest="operator", metavar="USER", help=as_help)
    p.add_argument("--verified", metavar="NOTE", help="how the fix was verified (makes it verification_confirmed)")
    p.add_argument("--reason")
    p = add("reject", cmd_reject, "reject an unconfirmed memory")
    p.add_argument("id")
    p.add_argument("--as", "--by", dest="operator", metavar="USER", help=as_help)
    p.add_argument("--reason", required=True)
    p = add("supersede", cmd_supersede, "mark a memory superseded by a newer one")
    p.add_argument("id")
    p.add_argument("--by", required=True, metavar="SUCCESSOR_ID", help="the memory that replaces it")
    p.add_argument("--as", "--actor", dest="operator", metavar="USER", help=as_help)
    p.add_argument("--reason")
    add(
        "embed",
        cmd_embed,
        "compute semantic recall's vectors (EMBEDDINGS_URL): new memories, or all after a model change",
        team=False,
    ).add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    add("retag", cmd_retag, "recompute stored concepts and error signatures after the vocabulary changed")
    add_purge_command(add, as_help)
    p = add("import", cmd_import, "seed memory from postmortems (Markdown, text, HTML, .docx, CSV, JSON, zip) "
            "and from Confluence, Google Docs, Notion, Jira and PagerDuty exports")  # fmt: skip
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders (searched recursively)")
    p.add_argument("--update", action="store_true", help="an edited postmortem supersedes its stored memory")
    p.add_argument("--dry-run", action="store_true", help="show per file which fields were found; write nothing")
    p.add_argument(
        "--with-model", action="store_true", help="also read each postmortem with the model (ANTHROPIC_API_KEY)"
    )
    p.add_argument("--map", metavar="COLUMNS", help="CSV columns → memory fields: 'Summary=title,Key=incident_id' "
                   "(a column mapped to '-' is left out), or a YAML file of them")  # fmt: skip
    register_page_commands(add)
    register_rule_commands(add, Parser(add_help=False, parents=[with_json, with_team]))
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    Parser.json_errors = "--json" in argv
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.json_first and args.logs_only:  # --json before the command: refused as after it
        parser.error(f"--json is not an option of {args.command}: {LOGS_ONLY}")
    args.json = args.json or args.json_first
    out = Output(json_mode=args.json)
    configure_logging(args.verbose)
    try:
        settings = load_settings()
        if hasattr(args, "team"):
            args.team = args.team or settings.incident_memory_team
        from bot.preflight import check_data_dir, check_slack_settings, check_vocabulary

        if args.slack:  # first: it is what a new user is missing
            check_slack_settings(settings)
        if args.opens_database:
            check_vocabulary(settings)
            check_data_dir(settings)
        code = asyncio.run(until_signalled(args.handler(args, settings)))
        if code == EXIT_SIGTERM:
            out.error("stopped by SIGTERM; cleaned up")
        return code
    except KeyboardInterrupt:
        out.error("interrupted; cleaned up")
        return EXIT_SIGINT
    except (MemoryNotFound, MemoryConflict, TruthMoveRefused, PurgeNotConfirmed, MemoryFileError, MigrationError,
            CommandFailed, ConfigurationError, RuleFileError) as exc:  # fmt: skip
        out.error(str(exc))
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'input'}: {e['msg']}" for e in exc.errors())
        out.error(f"invalid input: {problems}")
    except MemoryError_ as exc:
        out.error(str(exc))
    except EOFError:
        out.error("interrupted")
    return EXIT_FAILED


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(EXIT_SIGTERM)


def run() -> None:
    """The `incident-memory` program: main, then exit. Once the work is done only the stop of the
    embedded PostgreSQL is left (at exit): a late Ctrl-C or SIGTERM must not cut it short. Outside a
    command's work (until_signalled turns SIGTERM into a cancellation there) a SIGTERM exits as sys.exit
    does, so the stop at exit still runs: its default action would kill the process without it."""
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    code = main()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)
    sys.exit(code)
