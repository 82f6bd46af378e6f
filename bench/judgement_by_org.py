"""The recall judgement's figures by how many documents the target's organisation has in the bank (issue 27,
r27-orgwords): a feature that helps where an organisation has one document (any shared name is rare there and
points at its only memory) may add false threads where it has many, a team's own history, the product's case
(docs/BENCHMARKS.md, r27-feat's revert). Several variants of the shipped pair's thread models on one replay:

    .venv/bin/python bench/judgement_by_org.py eval --nested A --cache DIR \
        --variant B0=head,head_standout,score_standout,head_rare --variant V1=…,NEW   # fold A only
    .venv/bin/python bench/judgement_by_org.py eval --swap --cache DIR --variant … [--targets FILE]

A variant is NAME=FEATURES: both thread models read FEATURES (the short-query one phrase_share besides); the weak
models, the budgets and sure-from are the shipped recipe's (WEAK, SHORT_WEAK, fit_recall_judgement's budgets as
shipped). `--nested A`: each organisation of fold A judged by the pair fitted on the fold's others (fold B never
replayed). `--swap`: fitted on one fold, judged on the other, both ways; `--targets FILE` also prints the cases
whose target FILE lists (a judge collection, in the benches' one list format: bench/recurrences.py `listed_targets`,
"FOLD<TAB>file" a line as /work/c21-files.txt). The first reports of bench/held_out.tsv's threads are left out (their
count printed; bench/first_reports.py `held_out_targets`) unless `--include-held-out`: a judge's `--targets` run and
the frozen corpus's figures pass it. Each line: the group ("all",
"org 1", "org 2-5", "org 6+": documents of the target's organisation among the targets), the Done-when figures
and their counts. The organisation is read for grouping only, from reports.jsonl; no feature reads it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.first_reports import build, held_out_targets, load_reports  # noqa: E402
from bench.fit_recall_judgement import budgets_of  # noqa: E402
from bench.judgement_figures import Judged, evaluate_judged  # noqa: E402
from bench.judgement_replays import cached_replay  # noqa: E402
from bench.logistic_fit import L2  # noqa: E402
from bench.recurrences import listed_targets  # noqa: E402
from bench.weak_line import fit_pair, nested_pair_budgets  # noqa: E402
from bot.recall.features import FEATURES  # noqa: E402

LEXICAL = "head,head_standout,score_standout,head_rare"
WEAK = (*LEXICAL.split(","), "matched_rare")
SHORT_WEAK = (*LEXICAL.split(","), "phrase_share", "matched_rare")
BUDGETS, SHORT_BUDGETS, SHORT_UNTIL = (0.17, 0.40), (0.19, 0.44), 4.0
"""The shipped recipe (docs/BENCHMARKS.md, r27-refit): --sure-from none, these weak models and budgets."""
SIZES = (("org 1", 1, 1), ("org 2-5", 2, 5), ("org 6+", 6, 10**9))


def documents_by_org(eval_dir: Path, leave_out: frozenset[str] = frozenset()) -> dict[str, int]:
    """How many distinct targets (bank documents) each organisation's first reports lead to (`leave_out`'s none)."""
    targets: dict[str, set[str]] = {}
    for report in load_reports(eval_dir / "first-reports" / "reports.jsonl"):
        if report["target"] in leave_out:
            continue
        targets.setdefault(report["org"], set()).add(report["target"])
    return {org: len(found) for org, found in targets.items()}


def figures(judged: Judged, sizes: dict[str, int], listed: set[str] | None = None) -> list[dict]:
    """The Done-when figures of all judged cases and of each organisation size (and of the listed targets')."""
    groups: list[tuple[str, Judged]] = [("all", judged)]
    for name, low, high in SIZES:
        groups.append((name, [(r, j) for r, j in judged if low <= sizes.get(str(r.case.flags.get("org")), 1) <= high]))
    if listed is not None:
        groups.append(("listed", [(r, j) for r, j in judged if set(r.case.relevant) & listed]))
    out = []
    for name, kept in groups:
        read = {k: v for k, v in evaluate_judged(kept).items() if k != "curve"} if kept else {"cases": 0}
        if kept:
            n, first = read["cases"], read["first"]
            read["counts"] = {"first_shown": round(read["first_shown"] * first), "first_strong":
                              round(read["first_strong"] * first), "absent_strong": round(read["absent_strong"] * n),
                              "absent_shown": round(read["absent_shown"] * n)}  # fmt: skip
        out.append({"group": name, **read})
    return out


def pair(results: list, names: tuple[str, ...], label: str, budgets: tuple = (BUDGETS, SHORT_BUDGETS)):  # noqa: ANN201
    """The shipped recipe's pair with these thread features, fitted on `results` (at `budgets`: the long model's
    (strong, shown) and the short-query model's)."""
    return fit_pair(results, label, names, WEAK, None, L2, budgets[0], None, (*names, "phrase_share"), SHORT_WEAK,
                    SHORT_UNTIL, budgets[1])  # fmt: skip


def fold_budgets(value: str) -> tuple[str, tuple[tuple[float, float], tuple[float, float]]]:
    """--fold-budgets' "FOLD=S,W/s,w": the budgets a fit on FOLD reads its thresholds at (long, then short model)."""
    fold, _, budgets = value.partition("=")
    long, _, brief = budgets.partition("/")
    if fold not in ("A", "B") or not brief:
        raise ValueError(value)
    return fold, (budgets_of(long), budgets_of(brief))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir", type=Path)
    parser.add_argument("--variant", action="append", required=True, help="NAME=FEATURES (thread models)")
    parser.add_argument("--nested", choices=("A", "B"))
    parser.add_argument("--swap", action="store_true")
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--corpus", type=Path, help="a replay folder first_reports.py built from eval_dir (reused)")
    parser.add_argument("--targets", type=Path, help="with --swap: also the cases whose target this file lists")
    parser.add_argument("--fold-budgets", type=fold_budgets, action="append", default=[],
                        help="with --swap: FOLD=S,W/s,w, the budgets of the fit on FOLD (long / short model; default "
                        "the shipped 0.17,0.40/0.19,0.44): each fold's budgets chosen on its own cases")  # fmt: skip
    parser.add_argument("--include-held-out", action="store_true",
                        help="bench/held_out.tsv's threads' first reports too: to judge, totals only")  # fmt: skip
    args = parser.parse_args()
    if bool(args.nested) == args.swap:
        parser.error("give --nested FOLD or --swap")
    variants = []
    for value in args.variant:
        name, _, listed = value.partition("=")
        names = tuple(listed.split(","))
        unknown = set(names) - set(FEATURES)
        if not listed or unknown:
            parser.error(f"--variant {value!r}: NAME=FEATURES of judgement.FEATURES (unknown: {sorted(unknown)})")
        variants.append((name, names))
    held = held_out_targets(args.eval_dir, args.include_held_out)
    listed = None
    if args.targets:
        try:
            listed = listed_targets(args.eval_dir, args.targets)
        except ValueError as error:
            parser.error(str(error))
        if listed & held:
            parser.error(f"--targets lists {len(listed & held)} held-out thread(s): a judge passes --include-held-out")
    sizes = documents_by_org(args.eval_dir, held)
    if args.corpus is not None:
        results = [r for r in cached_replay(args.corpus, args.cache, False) if not set(r.case.relevant) & held]
    else:
        with tempfile.TemporaryDirectory() as folder:
            build(args.eval_dir, Path(folder), args.nested, leave_out=held)
            results = cached_replay(Path(folder), args.cache, False)
    folds = {f: [r for r in results if r.case.flags.get("fold") == f] for f in ("A", "B")}
    for name, names in variants:
        if args.nested:
            judged = nested_pair_budgets(folds[args.nested], names, WEAK, None, L2, [BUDGETS], (*names, "phrase_share"),
                                         SHORT_WEAK, SHORT_UNTIL, [SHORT_BUDGETS])[0]  # fmt: skip
            for line in figures(judged, sizes):
                print(json.dumps({"variant": name, "nested": args.nested, **line}), flush=True)
            continue
        chosen = dict(args.fold_budgets)
        for train, test in (("A", "B"), ("B", "A")):
            budgets = chosen.get(train, (BUDGETS, SHORT_BUDGETS))
            model = pair(folds[train], names, train, budgets)
            for line in figures([(r, model) for r in folds[test]], sizes, listed):
                print(json.dumps({"variant": name, "fit_on": train, "judged": test, "budgets": budgets, **line}),
                      flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
