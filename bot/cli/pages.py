"""The commands that write pages and files to look at or paste: `report` (a team's memory as a
page), `manifest` (the Slack app manifest for these settings), and `replay` (recall measured on a
corpus, with its --html page)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

from bot.cli.output import EXIT_OK, CommandFailed, Output
from bot.config import Settings

BASELINE_SHAPE = '{"cases": N, "recall_at_k": {"baseline": [ten numbers in 0…1]}} (bench/recall_baseline.py --json)'


def read_baseline(path: str) -> tuple[int, list[float]]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        curve = [float(v) for v in data["recall_at_k"]["baseline"]]
        cases = int(data["cases"])
    except OSError as exc:
        raise CommandFailed(f"{path}: {exc.strerror or exc}") from exc
    except (ValueError, KeyError, TypeError) as exc:
        raise CommandFailed(f"{path}: not a baseline: expected {BASELINE_SHAPE}") from exc
    if len(curve) != 10 or not all(0.0 <= v <= 1.0 for v in curve):
        raise CommandFailed(f"{path}: not a baseline: expected {BASELINE_SHAPE}")
    return cases, curve


def write_page(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandFailed(f"cannot write {path}: {exc.strerror or exc}") from exc


async def cmd_manifest(args: argparse.Namespace, settings: Settings) -> int:
    from bot.manifest import app_manifest, manifest_yaml

    shape = {"host": args.host, "socket_mode": args.socket_mode}
    Output(json_mode=args.json).result(app_manifest(settings, **shape), manifest_yaml(settings, **shape).rstrip("\n"))
    return EXIT_OK


async def cmd_report(args: argparse.Namespace, settings: Settings) -> int:
    from bot.memory.database import open_store
    from bot.report import all_memories, memory_report_html
    from bot.report.figures import MemoryFigures

    async with open_store(settings) as store:
        memories = await all_memories(store, args.team)
        figures = MemoryFigures.of(args.team, memories, window_days=settings.recurrence_window_days)
        write_page(Path(args.output), memory_report_html(figures))
    Output(json_mode=args.json).result(
        {"html": args.output, **figures.as_json()},
        f"wrote {args.output}: {figures.total} memories, {len(figures.awaiting_review)} awaiting review",
    )
    return EXIT_OK


async def cmd_replay(args: argparse.Namespace, settings: Settings) -> int:
    from bot.replay import run_replay

    if not Path(args.dir).is_dir():
        raise CommandFailed(
            f"{args.dir}: no such folder (a replay corpus is a folder with memories.jsonl and cases.jsonl)"
        )
    if not (Path(args.dir) / "memories.jsonl").is_file() or not (Path(args.dir) / "cases.jsonl").is_file():
        raise CommandFailed(f"{args.dir}: a replay corpus needs memories.jsonl and cases.jsonl")
    baseline = read_baseline(args.baseline) if args.baseline else None
    report = await run_replay(
        Path(args.dir), settings, progress=not args.no_progress, target_absent=args.target_absent, floor=args.floor
    )
    text = report.text()
    if args.html:
        from bot.report import recall_at_k, replay_html

        if baseline is not None and baseline[0] != report.metrics.cases:
            raise CommandFailed(
                f"{args.baseline}: measured on {baseline[0]} cases, but {args.dir} has {report.metrics.cases}"
            )
        page = replay_html(Path(args.dir).name, recall_at_k([r.rank for r in report.results]), report.as_json(),
                           baseline=baseline[1] if baseline else None)  # fmt: skip
        write_page(Path(args.html), page)
        text += f"\nwrote {args.html}"
    Output(json_mode=args.json).result(report.as_json() | ({"html": args.html} if args.html else {}), text)
    return EXIT_OK


def register(add: Callable[..., argparse.ArgumentParser]) -> None:
    p = add("manifest", cmd_manifest, "print the Slack app manifest for these settings (slash command names "
            "from SLACK_INCIDENT_COMMAND, SLACK_RECALL_COMMAND, SLACK_INVESTIGATE_COMMAND)", team=False, database=False)  # fmt: skip
    p.add_argument("--host", default="YOUR-HOST", help="the bot's public host name, for the URLs (default %(default)s)")
    p.add_argument("--socket-mode", action="store_true", help="for Socket Mode (no public URL)")
    p = add("report", cmd_report, "write a page that shows the memory: incidents per service and month, truth "
            "states, failed attempts that recur, what awaits review")  # fmt: skip
    p.add_argument(
        "-o", "--output", default="incident-memory-report.html", help="the page to write (default %(default)s)"
    )
    p = add("replay", cmd_replay, "measure recall on a replay corpus, in a throwaway database", team=False)
    p.add_argument("dir", help="folder with memories.jsonl and cases.jsonl (format: docs/REPLAY.md)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--target-absent", action="store_true",
                   help="recall each case again without its true matches: false alarms, and the floor curve")  # fmt: skip
    p.add_argument("--floor", type=float, help="relevance floor the figures are given at (default: RECALL_FLOOR)")
    p.add_argument("--html", metavar="FILE", help="also write the Recall@k curve (k = 1…10) as a page")
    p.add_argument("--baseline", metavar="FILE", help="draw this baseline beside it: the output of "
                   "bench/recall_baseline.py --json on the same corpus")  # fmt: skip
