"""How faithfully `import` reads real postmortems: per-field scores against a truth file.

    .venv/bin/python bench/import_postmortems.py eval/postmortems [--json] [--misses [A|B]]

Reads every file listed in `<folder>/truth.jsonl` the way `incident-memory import` does (the same
parser, ids and skipping of non-incidents; offline: no database, no model) and scores what came
out with the rule in bot/importer/scoring.py. Prints the Done-when figures of issue 12, both folds
pooled, and, with --misses, which files of one fold (A, the tuning fold, unless named) missed which
field. --json holds those misses only: a tuner reads the totals, and the reporting fold's misses
must not come with them (review F26; bench/reading_eval.py's rule). The files bench/held_out_postmortems.tsv lists
(a postmortem collection no rule was written from: the next judge) count in the totals and never in the misses.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path, PurePath

from bot.importer.formats import FoundFile, parse_file
from bot.importer.scoring import load_truth, score
from bot.models import MemoryDraft

HELD_OUT = Path(__file__).resolve().parent / "held_out_postmortems.tsv"

TARGETS = {
    "imported": 0.95,
    "date": 0.85,
    "root_cause": 0.80,
    "fix": 0.70,
    "attempts_real": 0.80,
    "attempts_found": 0.50,
}


def held_out_postmortems(path: Path | None = None) -> frozenset[str]:
    """The postmortem files a tuner's misses never name ("FOLD<TAB>file" lines; "#" lines are comments)."""
    path = path or HELD_OUT
    if not path.exists():
        return frozenset()
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(line.split("\t")[-1].strip() for line in lines if line.strip() and not line.startswith("#"))


def withheld(misses: list[str], held: frozenset[str]) -> list[str]:
    """`misses` less those naming a held-out file (a miss starts with its file's name)."""
    return [miss for miss in misses if not any(miss.startswith(name) for name in held)]


def read_corpus(
    folder: Path, only: set[str] | None = None
) -> tuple[dict[str, MemoryDraft | None], dict[str, str], list[float]]:
    """Every file of `folder`'s truth.jsonl read as `import` reads it (`only`: these files alone)."""
    drafts: dict[str, MemoryDraft | None] = {}
    reasons: dict[str, str] = {}
    seconds: list[float] = []
    for truth in load_truth(folder / "truth.jsonl"):
        if only is not None and truth.file not in only:
            continue
        path = folder / truth.file
        started = time.perf_counter()
        parsed = parse_file(FoundFile(path, PurePath(truth.file)), team_id="bench")
        seconds.append(time.perf_counter() - started)
        drafts[truth.file] = parsed.drafts[0] if parsed.drafts else None
        if parsed.error:
            reasons[truth.file] = parsed.error
    return drafts, reasons, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--misses", nargs="?", const="A", choices=("A", "B"), help="list one fold's misses: A unless named"
    )
    args = parser.parse_args(argv)
    truths = load_truth(args.folder / "truth.jsonl")
    drafts, reasons, seconds = read_corpus(args.folder)
    scores = score(truths, drafts)
    figures = scores.as_json()
    # the misses (and skip reasons) of the fold --misses names, none without it; the totals stay both folds'
    held = held_out_postmortems()
    in_fold = [t for t in truths if t.fold == args.misses and t.file not in held] if args.misses else []
    shown = score(in_fold, drafts)
    reasons = {file: why for file, why in reasons.items() if file in {t.file for t in in_fold}}
    for name, field in shown.as_json().items():
        figures[name]["misses"] = field["misses"]
    if args.json:
        print(
            json.dumps(
                {"figures": figures, "reasons": reasons, "median_ms_per_file": 1000 * statistics.median(seconds)},
                indent=2,
            )
        )
        return 0
    print(f"{len(truths)} files, {sum(t.not_an_incident for t in truths)} not incident reports; "
          f"median {1000 * statistics.median(seconds):.1f} ms per file")  # fmt: skip
    for name, field in (
        ("imported", "imported"), ("non-incidents skipped", "not_incidents_skipped"), ("date ±1 day", "date"),
        ("root cause", "root_cause"), ("fix", "fix"), ("service", "service"),
        ("stored attempts real", "attempts_real"), ("real attempts found", "attempts_found"),
    ):  # fmt: skip
        ratio, target = getattr(scores, field), TARGETS.get(field)
        verdict = "" if target is None else ("  ok" if ratio.value >= target else f"  BELOW {target:.0%}")
        print(f"{name:<22} {ratio!s:<16}{verdict}")
        for miss in getattr(shown, field).misses:
            print(f"    - {miss}" + (f"  ({reasons[miss]})" if miss in reasons else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
