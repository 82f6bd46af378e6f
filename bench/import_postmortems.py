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
from bot.importer.scoring import Truth, load_truth, score
from bot.models import MemoryDraft

HELD_OUT = Path(__file__).resolve().parent / "held_out_postmortems.tsv"
POSTMORTEMS = Path(__file__).resolve().parent.parent / "eval" / "postmortems"

TARGETS = {
    "imported": 0.95,
    "date": 0.85,
    "root_cause": 0.80,
    "fix": 0.70,
    "attempts_real": 0.80,
    "attempts_found": 0.50,
}


def held_out_postmortems(path: Path | None = None) -> frozenset[str]:
    """The postmortem files a tuner never reads ("FOLD<TAB>file" lines; "#" lines are comments)."""
    path = path or HELD_OUT
    if not path.exists():
        return frozenset()
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(line.split("\t")[-1].strip() for line in lines if line.strip() and not line.startswith("#"))


# The one loader of eval/postmortems' labels for every bench that tunes on a fold or prints its misses (review F35):
# the held-out files are left out by default, so no fit reads them and no miss names them; a judge or a totals-only
# bench asks for them (`include_held_out=True`). tests/test_postmortem_folds.py holds every bench to it.
def fold_truths(
    fold: str | None, *, include_held_out: bool = False, incidents_only: bool = False, folder: Path | None = None
) -> list[Truth]:
    """`folder`'s truth.jsonl lines of `fold` (None: both folds), in file order, bench/held_out_postmortems.tsv's
    files left out unless `include_held_out`; `incidents_only`: without the files labelled not an incident."""
    held = frozenset() if include_held_out else held_out_postmortems()
    return [
        t
        for t in load_truth((folder or POSTMORTEMS) / "truth.jsonl")
        if (fold is None or t.fold == fold) and t.file not in held and not (incidents_only and t.not_an_incident)
    ]


def fold_statements(
    fold: str = "A", *, include_held_out: bool = False, folder: Path | None = None
) -> dict[str, list[dict]]:
    """File → its sentence labels (statements.jsonl) for `fold`'s reports, the held-out files left out unless
    `include_held_out`. A line counts only when its own `fold` and truth.jsonl's agree: fold B's labels (reporting
    and the swap only) never reach a fold-A fit."""
    folder = folder or POSTMORTEMS
    folds = {t.file: t.fold for t in fold_truths(fold, include_held_out=include_held_out, folder=folder)}
    rows = [json.loads(line) for line in (folder / "statements.jsonl").read_text(encoding="utf-8").splitlines() if line]
    return {r["file"]: r["statements"] for r in rows if r["fold"] == fold and folds.get(r["file"]) == fold}


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
    in_fold = fold_truths(args.misses, folder=args.folder) if args.misses else []
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
