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
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.cli.output import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_SIGINT,
    EXIT_SIGTERM,
    CommandFailed,
    Output,
    match_text,
    memory_text,
)
from bot.cli.pages import register as register_page_commands
from bot.cli.purge import PurgeNotConfirmed, add_purge_command
from bot.cli.purge import operator as _operator
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
from bot.cli.semantic import embed_all, semantic_recall
from bot.config import ConfigurationError, Settings, load_settings
from bot.errors import MemoryConflict, MemoryError_, MemoryNotFound, TruthMoveRefused
from bot.memory.files import MemoryFileError, drafts_from_text, load_drafts
from bot.memory.migrate import MigrationError
from bot.memory.port import MemoryStore
from bot.models import RecallQuery, TruthState
from bot.recall.conflicts import find_conflicts
from bot.recall.judgement import split_by_tier
from bot.rules.files import RuleFileError
from bot.services.recall import RecallService

log = logging.getLogger("incident-memory")
LOGS_ONLY = "it writes logs, not a result: LOG_FORMAT=json makes them JSON lines"


def _emit(args: argparse.Namespace, payload: Any, text: str) -> None:
    Output(json_mode=getattr(args, "json", False)).result(payload, text)


# ---- commands ---------------------------------------------------------------------------------


async def _hint_other_teams(store: MemoryStore, team: str) -> None:
    """The CLI's team (default `local`) holds nothing, but the bank does: say where it is."""
    teams = await store.teams()
    if team not in teams and teams:
        others = ", ".join(f"{t} ({n} memories)" for t, n in list(teams.items())[:5])
        Output.note(f"note: team {team!r} has no memories; this bank holds {others}. "
                    "Pass --team or set INCIDENT_MEMORY_TEAM.")  # fmt: skip


async def _with_store(settings: Settings, work: Callable[[MemoryStore], Awaitable[int]]) -> int:
    from bot.memory.database import open_store

    async with open_store(settings) as store:
        return await work(store)


async def cmd_migrate(args: argparse.Namespace, settings: Settings) -> int:
    from bot.memory.database import database_url, migrate

    applied = await migrate(await database_url(settings), settings)
    _emit(args, {"applied": applied}, f"applied: {', '.join(applied)}" if applied else "database is up to date")
    return EXIT_OK


async def cmd_retain(args: argparse.Namespace, settings: Settings) -> int:
    from pathlib import PurePath

    from bot.importer.identity import RowIds, identity_name
    from bot.importer.service import StoredBefore

    # validate all before writing any; a record without an id is named as `import` names it
    if args.file == "-":
        ids = RowIds(PurePath("stdin"))
        drafts = drafts_from_text(sys.stdin.read(), "<stdin>", team_id=args.team, incident_id_for=ids)
    else:
        path = Path(args.file)
        ids = RowIds(identity_name(path))
        drafts = load_drafts(path, team_id=args.team, incident_id_for=ids)
    if not drafts:
        _emit(args, [], f"nothing retained: {args.file if args.file != '-' else 'standard input'} holds no memories")
        return EXIT_OK

    async def work(store: MemoryStore) -> int:
        results: list[dict[str, Any]] = []
        failed = False
        before = StoredBefore(store, ids.legacy)  # records retained under their old positional ids
        for loaded in drafts:
            if stored_as := await before.holding(loaded.draft):
                results.append({"incident_id": stored_as, "status": "unchanged"})
                continue
            try:
                outcome = await store.retain(loaded.draft)
                results.append({"incident_id": loaded.draft.incident_id, "status": outcome.status.value})
            except MemoryConflict as exc:
                failed = True
                results.append(
                    {"incident_id": exc.incident_id, "status": "conflict", "fields": exc.fields, "error": str(exc)}
                )
        lines = []
        for r in results:
            if r["status"] == "conflict":
                lines.append(f"conflict  {r['incident_id']}: differs in {', '.join(r['fields'])} (not overwritten)")
            else:
                lines.append(f"{r['status']:<9} {r['incident_id']}")
        _emit(args, results, "\n".join(lines))
        if failed:
            Output.note("error: some memories conflict with what is stored; nothing was overwritten")
        return EXIT_FAILED if failed else EXIT_OK

    return await _with_store(settings, work)


async def cmd_show(args: argparse.Namespace, settings: Settings) -> int:
    async def work(store: MemoryStore) -> int:
        try:
            memory = await store.get(args.team, args.id)
        except MemoryNotFound:
            await _hint_other_teams(store, args.team)
            raise
        _emit(args, memory.model_dump(mode="json"), memory_text(memory))
        return EXIT_OK

    return await _with_store(settings, work)


async def cmd_list(args: argparse.Namespace, settings: Settings) -> int:
    async def work(store: MemoryStore) -> int:
        states = [TruthState(s) for s in args.state] if args.state else None
        page = await store.list(
            args.team, service=args.service, truth_states=states, limit=args.limit, offset=args.offset
        )
        if page.total == 0:
            await _hint_other_teams(store, args.team)
        text = "\n".join(f"{m.incident_id}  [{m.truth_state.value}]  {m.title}" for m in page.memories)
        _emit(
            args,
            {"total": page.total, "memories": [m.model_dump(mode="json") for m in page.memories]},
            (text + "\n" if text else "") + f"({len(page.memories)} of {page.total})",
        )
        return EXIT_OK

    return await _with_store(settings, work)


async def cmd_recall(args: argparse.Namespace, settings: Settings) -> int:
    text = " ".join(args.text)
    query = RecallQuery(
        team_id=args.team,
        title=text,
        service=args.service,
        filter_services=[args.service] if args.service else [],
        filter_severities=args.severity or [],
        filter_tags=args.tag or [],
        truth_states=[TruthState(s) for s in args.state] if args.state else None,
        occurred_after=args.since,
        occurred_before=args.until,
        channel_id=args.channel,
        reusable_only=args.reusable_only,
        limit=args.limit,
    )

    async def work(store: MemoryStore) -> int:
        async with semantic_recall(settings, store) as semantic:
            matches = await RecallService(store, semantic=semantic, floor=settings.recall_floor).recall(query)
        if not matches:
            await _hint_other_teams(store, args.team)
        shown, weak, under = split_by_tier(matches)
        body = "\n\n".join(match_text(i, m) for i, m in enumerate(shown, start=1))
        for service, ids in find_conflicts(shown, store.vocabulary).items():
            body += (
                f"\n\nconflict: {service} memories name different root causes ({', '.join(ids)}); more evidence needed"
            )
        if weak:
            body += "nothing strong; closest (weak):\n\n" + "\n\n".join(
                match_text(i, m) for i, m in enumerate(weak, start=1)
            )
        body = body or "nothing in memory looks like this"
        if args.all and under:
            body += "\n\nbelow the judgement, not shown to responders:\n\n"
            body += "\n\n".join(match_text(i, m) for i, m in enumerate(under, start=len(shown) + len(weak) + 1))
        elif under:
            body += f"\n\n({len(under)} more below the judgement; --all shows them)"
        _emit(args, [m.model_dump(mode="json") for m in (matches if args.all else shown + weak)], body)
        return EXIT_OK

    return await _with_store(settings, work)


async def cmd_correct(args: argparse.Namespace, settings: Settings) -> int:
    async def work(store: MemoryStore) -> int:
        memory = await store.add_correction(args.team, args.id, _operator(args).id, " ".join(args.text))
        _emit(args, memory.model_dump(mode="json"), f"correction added to {memory.incident_id}")
        return EXIT_OK

    return await _with_store(settings, work)


async def _move(args: argparse.Namespace, settings: Settings, to: TruthState, **kw: Any) -> int:
    async def work(store: MemoryStore) -> int:
        memory = await store.transition(args.team, args.id, to, **kw)
        _emit(args, memory.model_dump(mode="json"), f"{memory.incident_id} is now {memory.truth_state.value}")
        return EXIT_OK

    return await _with_store(settings, work)


async def cmd_confirm(args: argparse.Namespace, settings: Settings) -> int:
    to = TruthState.VERIFICATION_CONFIRMED if args.verified else TruthState.HUMAN_CONFIRMED
    return await _move(
        args, settings, to, actor=_operator(args).id, reason=args.reason or "", verification_note=args.verified
    )


async def cmd_reject(args: argparse.Namespace, settings: Settings) -> int:
    return await _move(args, settings, TruthState.REJECTED, actor=_operator(args).id, reason=args.reason)


async def cmd_supersede(args: argparse.Namespace, settings: Settings) -> int:
    return await _move(
        args, settings, TruthState.SUPERSEDED, actor=_operator(args).id, reason=args.reason or "", successor_id=args.by
    )


async def cmd_import(args: argparse.Namespace, settings: Settings) -> int:
    from rich.console import Console
    from rich.progress import Progress

    from bot.importer import find_postmortems, import_postmortems
    from bot.importer.exports import parse_column_map
    from bot.importer.summary import summary_text
    from bot.jobs.reading import ReadingPool

    try:
        column_map = parse_column_map(args.map)
    except ValueError as exc:
        raise CommandFailed(f"{exc} (nothing was imported)") from exc
    found = find_postmortems(args.paths)
    model = None
    if args.with_model:  # nothing is sent anywhere without the flag
        from bot.importer.model_extract import ModelExtractor

        if not settings.anthropic_api_key:
            raise CommandFailed("--with-model needs ANTHROPIC_API_KEY (nothing was imported)")
        model = ModelExtractor(
            api_key=settings.anthropic_api_key, model=settings.anthropic_model, base_url=settings.anthropic_base_url,
            timeout_s=settings.investigation_timeout_s,
        )  # fmt: skip

    async def work(store: MemoryStore | None) -> int:
        reading = ReadingPool(min(settings.reading_workers, 1), settings.reading_deadline_s)  # a file past it: rejected
        with reading, Progress(console=Console(stderr=True), transient=True) as progress:  # stdout: the report
            task = progress.add_task(
                "reading postmortems" if args.dry_run else "importing postmortems", total=len(found.files)
            )
            try:
                report = await import_postmortems(
                    store, found, team_id=args.team, update=args.update, dry_run=args.dry_run, model=model,
                    on_file=lambda _: progress.advance(task, 1 - progress.tasks[0].completed % 1), reading=reading,
                    on_row=lambda n, rows: progress.update(task, completed=int(progress.tasks[0].completed) + n / (rows + 1)),
                    max_chars=settings.import_max_document_chars, column_map=column_map,
                )  # fmt: skip
            finally:
                if model is not None:
                    await model.aclose()
        _emit(args, report.model_dump(mode="json"), summary_text(report))
        if report.failed:
            Output.note("error: some files were rejected or conflict with stored memories (see above)")
        return EXIT_FAILED if report.failed else EXIT_OK

    if args.dry_run:  # nothing is written: the database, when there is one, is only read
        from bot.memory.database import open_store_read_only

        async with open_store_read_only(settings) as reading:
            return await work(reading)
    return await _with_store(settings, work)


async def cmd_retag(args: argparse.Namespace, settings: Settings) -> int:
    async def work(store: MemoryStore) -> int:
        changed = await store.retag(args.team)
        _emit(
            args,
            {"retagged": changed},
            f"{changed} memories now carry the current vocabulary's concepts and signatures",
        )
        return EXIT_OK

    return await _with_store(settings, work)


async def cmd_embed(args: argparse.Namespace, settings: Settings) -> int:
    """Compute semantic recall's vectors: memories never embedded, or by another model."""

    async def work(store: MemoryStore) -> int:
        payload, text = await embed_all(settings, store, progress=not args.no_progress)
        _emit(args, payload, text)
        return EXIT_OK

    return await _with_store(settings, work)


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
    p.add_argument("--all", action="store_true", help="also list what fell under the relevance floor (RECALL_FLOOR)")
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


def run() -> None:
    """The `incident-memory` program: main, then exit. Once the work is done only the stop of the
    embedded PostgreSQL is left (at exit): a late Ctrl-C or SIGTERM must not cut it short."""
    code = main()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)
    sys.exit(code)
