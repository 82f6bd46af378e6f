"""`incident-memory import`: seed memory from postmortems and trackers' exports (the reading
itself is bot/importer's; this is the command: flags, progress on stderr, the report on stdout)."""

from __future__ import annotations

import argparse

from bot.cli.memories import emit, with_store
from bot.cli.output import EXIT_FAILED, EXIT_OK, CommandFailed, Output
from bot.config import Settings
from bot.memory.port import MemoryStore


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
        emit(args, report.model_dump(mode="json"), summary_text(report))
        if report.failed:
            Output.note("error: some files were rejected or conflict with stored memories (see above)")
        return EXIT_FAILED if report.failed else EXIT_OK

    if args.dry_run:  # nothing is written: the database, when there is one, is only read
        from bot.memory.database import open_store_read_only

        async with open_store_read_only(settings) as reading:
            return await work(reading)
    return await with_store(settings, work)
