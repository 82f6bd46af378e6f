"""`incident-memory`: the command line. Exit 0 on success, 1 on not found / conflict / invalid
data (with a message naming the problem), 2 on usage errors."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from datetime import datetime, timezone
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.config import Settings
from bot.errors import MemoryConflict, MemoryError_, MemoryNotFound, TruthMoveRefused
from bot.memory.files import MemoryFileError, load_drafts
from bot.memory.port import MemoryStore
from bot.recall.conflicts import find_conflicts
from bot.recall.floor import split_at_floor
from bot.services.recall import RecallService
from bot.models import MemoryRecord, RecallMatch, RecallQuery, TruthState
from bot.memory.migrate import MigrationError
from bot.cli_purge import PurgeNotConfirmed, add_purge_command, operator as _operator
from bot.cli_rules import register as register_rule_commands
from bot.rules.files import RuleFileError

EXIT_OK, EXIT_FAILED = 0, 1  # argparse itself exits 2 on a usage error

log = logging.getLogger("incident-memory")


class CommandFailed(Exception):
    """A failure already worded for the user."""


# ---- rendering for a terminal ----------------------------------------------------------------


def _memory_text(m: MemoryRecord) -> str:
    lines = [f"{m.incident_id}  {m.title}"]
    meta = [f"truth: {m.truth_state.value}"]
    if m.verified_by:
        meta.append(f"confirmed by {m.shown_verifier}")
    if m.service:
        meta.append(f"service: {m.service}")
    if m.severity:
        meta.append(f"severity: {m.severity}")
    if m.superseded_by:
        meta.append(f"superseded by {m.superseded_by}")
    lines.append("  " + " · ".join(meta))
    for label, value in (
        ("symptoms", m.symptoms),
        ("error", m.error_message),
        ("root cause", m.root_cause),
        ("how it was found", m.diagnosis),
        ("fix", m.resolution),
        ("lesson", m.lesson),
        ("verification", m.verification_note),
    ):
        if value:
            lines.append(f"  {label}: {value}")
    for attempt in m.failed_attempts:
        why = f" — {attempt.why_it_failed}" if attempt.why_it_failed else ""
        lines.append(f"  did not work: {attempt.action}{why}")
    for c in m.corrections:
        lines.append(f"  correction by {c.shown_author} ({c.created_at:%Y-%m-%d}): {c.text}")
    return "\n".join(lines)


def _provenance_text(m: MemoryRecord) -> str:
    """Where an imported memory's fields came from, for `show`."""
    if m.provenance is None:
        return ""
    p = m.provenance
    lines = [f"  imported from {p.file} by {p.extractor}"]
    lines += [f"    {name}: {where}" for name, where in p.fields.items()]
    return "\n".join(lines)


def _match_text(rank: int, match: RecallMatch) -> str:
    m = match.memory
    if match.successor_id:
        return f"{rank}. {m.incident_id} (superseded) → see {match.successor_id}  score {match.score:.3f}"
    components = ", ".join(f"{k} {v:.2f}" for k, v in match.score_components.items() if k != "score")
    return "\n".join(
        [
            f"{rank}. {_memory_text(m)}",
            f"  relevance {match.relevance:.2f} · score {match.score:.3f} ({components})",
            *(f"  why: {r}" for r in match.reasons),
        ]
    )


def _emit(args: argparse.Namespace, payload: Any, text: str) -> None:
    if getattr(args, "json", False):
        print(json.dumps(payload, indent=2, default=str, ensure_ascii=False))
    else:
        print(text)


# ---- commands ---------------------------------------------------------------------------------


async def _hint_other_teams(store: MemoryStore, team: str) -> None:
    """The CLI's team (default `local`) holds nothing, but the bank does: say where it is."""
    teams = await store.teams()
    if team not in teams and teams:
        others = ", ".join(f"{t} ({n} memories)" for t, n in list(teams.items())[:5])
        print(f"note: team {team!r} has no memories; this bank holds {others}. "
              "Pass --team or set INCIDENT_MEMORY_TEAM.", file=sys.stderr)  # fmt: skip


async def _with_store(settings: Settings, work: Callable[[MemoryStore], Awaitable[int]]) -> int:
    from bot.memory.database import open_store

    async with open_store(settings) as store:
        return await work(store)


async def cmd_migrate(args: argparse.Namespace, settings: Settings) -> int:
    from bot.memory.database import database_url, migrate

    applied = await migrate(await database_url(settings), settings)
    print(f"applied: {', '.join(applied)}" if applied else "database is up to date")
    return EXIT_OK


async def cmd_retain(args: argparse.Namespace, settings: Settings) -> int:
    from bot.importer.identity import derived_incident_id, identity_name

    path = Path(args.file)
    # validate all before writing any; a record without an id is named as `import` names it
    drafts = load_drafts(path, team_id=args.team, incident_id_for=lambda line: derived_incident_id(identity_name(path), line))

    async def work(store: MemoryStore) -> int:
        results: list[dict[str, Any]] = []
        failed = False
        for loaded in drafts:
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
            print("error: some memories conflict with what is stored; nothing was overwritten", file=sys.stderr)
        return EXIT_FAILED if failed else EXIT_OK

    return await _with_store(settings, work)


async def cmd_show(args: argparse.Namespace, settings: Settings) -> int:
    async def work(store: MemoryStore) -> int:
        try:
            memory = await store.get(args.team, args.id)
        except MemoryNotFound:
            await _hint_other_teams(store, args.team)
            raise
        text = "\n".join(x for x in (_memory_text(memory), _provenance_text(memory)) if x)
        _emit(args, memory.model_dump(mode="json"), text)
        return EXIT_OK

    return await _with_store(settings, work)


async def cmd_list(args: argparse.Namespace, settings: Settings) -> int:
    async def work(store: MemoryStore) -> int:
        states = [TruthState(s) for s in args.state] if args.state else None
        page = await store.list(args.team, service=args.service, truth_states=states, limit=args.limit, offset=args.offset)
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
        matches = await RecallService(store).recall(query)
        if not matches:
            await _hint_other_teams(store, args.team)
        floor = settings.recall_floor
        shown, under = split_at_floor(matches, floor)
        body = "\n\n".join(_match_text(i, m) for i, m in enumerate(shown, start=1))
        for service, ids in find_conflicts(shown).items():
            body += f"\n\nconflict: {service} memories name different root causes ({', '.join(ids)}); more evidence needed"
        body = body or "nothing in memory looks like this"
        if args.all and under:
            body += f"\n\nunder the relevance floor ({floor:.2f}), not shown to responders:\n\n"
            body += "\n\n".join(_match_text(i, m) for i, m in enumerate(under, start=len(shown) + 1))
        elif under:
            body += f"\n\n(relevance floor {floor:.2f}: {len(under)} more under it; --all shows them)"
        _emit(args, [m.model_dump(mode="json") for m in (matches if args.all else shown)], body)
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
    from bot.importer.summary import summary_text

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
        with Progress(console=Console(stderr=True), transient=True) as progress:  # stdout stays the report
            task = progress.add_task("reading postmortems" if args.dry_run else "importing postmortems", total=len(found.files))
            try:
                report = await import_postmortems(
                    store, found, team_id=args.team, update=args.update, dry_run=args.dry_run, model=model,
                    on_file=lambda _: progress.advance(task),
                )  # fmt: skip
            finally:
                if model is not None:
                    await model.aclose()
        _emit(args, report.model_dump(mode="json"), summary_text(report))
        if report.failed:
            print("error: some files were rejected or conflict with stored memories (see above)", file=sys.stderr)
        return EXIT_FAILED if report.failed else EXIT_OK

    if args.dry_run:
        return await work(None)  # nothing is written, so no database is opened
    return await _with_store(settings, work)


async def cmd_retag(args: argparse.Namespace, settings: Settings) -> int:
    async def work(store: MemoryStore) -> int:
        changed = await store.retag(args.team)
        _emit(args, {"retagged": changed}, f"{changed} memories now carry the current vocabulary's concepts and signatures")
        return EXIT_OK

    return await _with_store(settings, work)


async def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app import ConfigurationError, serve

    try:
        await serve(settings)
    except ConfigurationError as exc:
        raise CommandFailed(str(exc)) from exc
    return EXIT_OK


async def cmd_worker(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app import run_worker

    await run_worker(settings)
    return EXIT_OK


async def cmd_demo(args: argparse.Namespace, settings: Settings) -> int:
    from bot.demo import run_demo

    return await run_demo(settings, keep=args.keep)


async def cmd_replay(args: argparse.Namespace, settings: Settings) -> int:
    from bot.replay import run_replay

    if not (Path(args.dir) / "memories.jsonl").is_file() or not (Path(args.dir) / "cases.jsonl").is_file():
        raise CommandFailed(f"{args.dir}: a replay corpus needs memories.jsonl and cases.jsonl")
    report = await run_replay(
        Path(args.dir), settings, progress=not args.no_progress, target_absent=args.target_absent, floor=args.floor
    )
    _emit(args, report.as_json(), report.text())
    return EXIT_OK


# ---- the parser -------------------------------------------------------------------------------


def _timestamp(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 time: {text!r}") from exc
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def build_parser(settings: Settings) -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--team", default=settings.incident_memory_team, help="team_id (default: %(default)s)")
    common.add_argument("--json", action="store_true", help="print JSON for scripts")

    parser = argparse.ArgumentParser(prog="incident-memory", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, handler: Callable[..., Awaitable[int]], help_: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[common], help=help_, description=help_)
        p.set_defaults(handler=handler)
        return p

    add("migrate", cmd_migrate, "apply pending database migrations")
    add("serve", cmd_serve, "serve Slack over HTTP (or Socket Mode when SLACK_APP_TOKEN is set)")
    add("worker", cmd_worker, "run the jobs Slack requests queue (serve starts JOB_WORKERS of these itself)")
    add("demo", cmd_demo, "run the demo on the embedded defaults").add_argument(
        "--keep", action="store_true", help="leave the sandbox running to look around"
    )
    add("retain", cmd_retain, "retain memories from a JSON or JSON Lines file").add_argument("file")
    add("show", cmd_show, "show one memory").add_argument("id")
    p = add("list", cmd_list, "list memories")
    p.add_argument("--service")
    p.add_argument("--state", action="append", choices=[s.value for s in TruthState])
    p.add_argument("--limit", type=int, default=50)
    p.add_argument("--offset", type=int, default=0)
    p = add("recall", cmd_recall, "recall past incidents like TEXT, with reasons")
    p.add_argument("text", nargs="+")
    p.add_argument("--service", help="only memories of this service")
    p.add_argument("--reusable-only", action="store_true", help="only human- or verification-confirmed")
    p.add_argument("--severity", action="append", help="only these severities (repeatable)")
    p.add_argument("--tag", action="append", help="only memories with one of these tags (repeatable)")
    p.add_argument("--state", action="append", choices=[s.value for s in TruthState], help="only these truth states")
    p.add_argument("--since", type=_timestamp, help="only incidents from this time on (ISO 8601)")
    p.add_argument("--until", type=_timestamp, help="only incidents up to this time (ISO 8601)")
    p.add_argument("--channel", help="recall as seen in this channel (its private memories included)")
    p.add_argument("--limit", type=int, default=5)
    p.add_argument("--all", action="store_true", help="also list what fell under the relevance floor (RECALL_FLOOR)")
    as_help = "who runs this, recorded as cli:<USER> (default: your login name)"
    p = add("correct", cmd_correct, "attach a correction to a memory")
    p.add_argument("id")
    p.add_argument("text", nargs="+")
    p.add_argument("--as", "--author", dest="operator", metavar="USER", help=as_help)
    p = add("confirm", cmd_confirm, "confirm an unconfirmed memory")
    p.add_argument("id")
    p.add_argument("--as", "--by", dest="operator", metavar="USER", help=as_help)
    p.add_argument("--verified", metavar="NOTE", help="how the fix was verified (→ verification_confirmed)")
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
    add("retag", cmd_retag, "recompute stored concepts and error signatures after the vocabulary changed")
    add_purge_command(add, as_help)
    p = add("import", cmd_import, "seed memory from postmortems: Markdown, plain text, JSON/JSON Lines, CSV")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders (searched recursively)")
    p.add_argument("--update", action="store_true", help="an edited postmortem supersedes its stored memory")
    p.add_argument("--dry-run", action="store_true", help="show per file which fields were found; write nothing")
    p.add_argument("--with-model", action="store_true", help="also read each postmortem with the model (ANTHROPIC_API_KEY)")
    p = add("replay", cmd_replay, "measure recall on a replay corpus, in a throwaway database")
    p.add_argument("dir", help="folder with memories.jsonl and cases.jsonl (format: docs/REPLAY.md)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--target-absent", action="store_true",
                   help="recall each case again without its true matches: false alarms, and the floor curve")  # fmt: skip
    p.add_argument("--floor", type=float, help="relevance floor the figures are given at (default: RECALL_FLOOR)")
    register_rule_commands(add, common)
    return parser


def main(argv: list[str] | None = None) -> int:
    settings = Settings()
    parser = build_parser(settings)
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    # where the embedded PostgreSQL keeps the memory is worth one line on every run (stderr)
    logging.getLogger("bot.memory.embedded").setLevel(logging.INFO)
    try:
        return asyncio.run(args.handler(args, settings))
    except (MemoryNotFound, MemoryConflict, TruthMoveRefused, PurgeNotConfirmed, MemoryFileError, MigrationError,
            CommandFailed, RuleFileError) as exc:  # fmt: skip
        print(f"error: {exc}", file=sys.stderr)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'input'}: {e['msg']}" for e in exc.errors())
        print(f"error: invalid input: {problems}", file=sys.stderr)
    except MemoryError_ as exc:
        print(f"error: {exc}", file=sys.stderr)
    except (KeyboardInterrupt, EOFError):
        print("interrupted", file=sys.stderr)
    return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
