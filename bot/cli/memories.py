"""The commands on stored memories: migrate, retain, show, list, recall, correct, confirm, reject,
supersede, retag and embed. Each opens the store, does one thing and prints it (text or --json)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.cli.output import EXIT_FAILED, EXIT_OK, Output, match_text, memory_text
from bot.cli.purge import operator as _operator
from bot.cli.semantic import embed_all, semantic_recall
from bot.config import Settings
from bot.errors import MemoryConflict, MemoryNotFound
from bot.memory.files import drafts_from_text, load_drafts
from bot.memory.port import MemoryStore
from bot.models import RecallQuery, TruthState
from bot.recall.conflicts import find_conflicts
from bot.recall.judgement import split_by_tier
from bot.services.recall import RecallService


def emit(args: argparse.Namespace, payload: Any, text: str) -> None:
    Output(json_mode=getattr(args, "json", False)).result(payload, text)


async def _hint_other_teams(store: MemoryStore, team: str) -> None:
    """The CLI's team (default `local`) holds nothing, but the bank does: say where it is."""
    teams = await store.teams()
    if team not in teams and teams:
        others = ", ".join(f"{t} ({n} memories)" for t, n in list(teams.items())[:5])
        Output.note(f"note: team {team!r} has no memories; this bank holds {others}. "
                    "Pass --team or set INCIDENT_MEMORY_TEAM.")  # fmt: skip


async def with_store(settings: Settings, work: Callable[[MemoryStore], Awaitable[int]]) -> int:
    from bot.memory.database import open_store

    async with open_store(settings) as store:
        return await work(store)


async def cmd_migrate(args: argparse.Namespace, settings: Settings) -> int:
    from bot.memory.database import database_url, migrate

    applied = await migrate(await database_url(settings), settings)
    emit(args, {"applied": applied}, f"applied: {', '.join(applied)}" if applied else "database is up to date")
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
        emit(args, [], f"nothing retained: {args.file if args.file != '-' else 'standard input'} holds no memories")
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
        emit(args, results, "\n".join(lines))
        if failed:
            Output.note("error: some memories conflict with what is stored; nothing was overwritten")
        return EXIT_FAILED if failed else EXIT_OK

    return await with_store(settings, work)


async def cmd_show(args: argparse.Namespace, settings: Settings) -> int:
    async def work(store: MemoryStore) -> int:
        try:
            memory = await store.get(args.team, args.id)
        except MemoryNotFound:
            await _hint_other_teams(store, args.team)
            raise
        emit(args, memory.model_dump(mode="json"), memory_text(memory))
        return EXIT_OK

    return await with_store(settings, work)


async def cmd_list(args: argparse.Namespace, settings: Settings) -> int:
    async def work(store: MemoryStore) -> int:
        states = [TruthState(s) for s in args.state] if args.state else None
        page = await store.list(
            args.team, service=args.service, truth_states=states, limit=args.limit, offset=args.offset
        )
        if page.total == 0:
            await _hint_other_teams(store, args.team)
        text = "\n".join(f"{m.incident_id}  [{m.truth_state.value}]  {m.title}" for m in page.memories)
        emit(
            args,
            {"total": page.total, "memories": [m.model_dump(mode="json") for m in page.memories]},
            (text + "\n" if text else "") + f"({len(page.memories)} of {page.total})",
        )
        return EXIT_OK

    return await with_store(settings, work)


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
        emit(args, [m.model_dump(mode="json") for m in (matches if args.all else shown + weak)], body)
        return EXIT_OK

    return await with_store(settings, work)


async def cmd_correct(args: argparse.Namespace, settings: Settings) -> int:
    async def work(store: MemoryStore) -> int:
        memory = await store.add_correction(args.team, args.id, _operator(args).id, " ".join(args.text))
        emit(args, memory.model_dump(mode="json"), f"correction added to {memory.incident_id}")
        return EXIT_OK

    return await with_store(settings, work)


async def _move(args: argparse.Namespace, settings: Settings, to: TruthState, **kw: Any) -> int:
    async def work(store: MemoryStore) -> int:
        memory = await store.transition(args.team, args.id, to, **kw)
        emit(args, memory.model_dump(mode="json"), f"{memory.incident_id} is now {memory.truth_state.value}")
        return EXIT_OK

    return await with_store(settings, work)


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


async def cmd_retag(args: argparse.Namespace, settings: Settings) -> int:
    async def work(store: MemoryStore) -> int:
        changed = await store.retag(args.team)
        emit(
            args,
            {"retagged": changed},
            f"{changed} memories now carry the current vocabulary's concepts and signatures",
        )
        return EXIT_OK

    return await with_store(settings, work)


async def cmd_embed(args: argparse.Namespace, settings: Settings) -> int:
    """Compute semantic recall's vectors: memories never embedded, or by another model."""

    async def work(store: MemoryStore) -> int:
        payload, text = await embed_all(settings, store, progress=not args.no_progress)
        emit(args, payload, text)
        return EXIT_OK

    return await with_store(settings, work)
