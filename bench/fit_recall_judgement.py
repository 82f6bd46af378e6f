"""Fit the recall judgement (bot/recall/judgement.py) on first reports, by organisation fold.

    .venv/bin/python bench/fit_recall_judgement.py eval [--write]            # the project's material
    .venv/bin/python bench/fit_recall_judgement.py --corpus DIR [--write]    # a team's own history
    ... --features head,score_z,same_alert                                   # which features the model reads
    ... --nested A [--features …]                  # the feature screen inside fold A only (fold B never replayed)
    ... --nested A --budget-grid "0.15,0.44;0.15,0.42"   # the same screen at several budgets, for the cost of one
    ... --weak-features NAMES [--nested A]       # a second model decides the weak line (bench/weak_line.py)
    ... --weak-features NAMES --short-weak-features NAMES [--budget-grid "0.15,0.44/0.17,0.48;…"]   # and the short's
    ... --weak-features NAMES --near 0.8         # a memory near a thread named on the weak line too (Judgement.near)
    ... --cache .bench-data/judgement            # reuse a replay of the same corpus and bot/recall code
    ... --absent-corpus DIR                      # target-absent recalls from another bank (first_reports.py kept)
    ... --include-held-out                       # bench/held_out.tsv's threads' first reports too (judge, --write)
    ... --screen-file /tmp/candidate.json        # the fit on both folds stored there (a screen), not shipped

With EMBEDDINGS_URL set (and pgvector), the replay recalls with meaning and the fit is the
semantic model (judgement.py, bot/data/recall_judgement_semantic.json); without, the lexical one
(bot/data/recall_judgement.json). `--write` replaces that model's file only.
The features are names of features.FEATURES: a new signal is an entry there, then a refit with
its name added to --features (default: the model's own names, else LEXICAL / SEMANTIC below).

A corpus is a replay folder (docs/REPLAY.md) whose case lines carry a "fold" ("A" or "B": split
your history by team or by year, never case by case). Each case is recalled twice on a throwaway
database: as it is (the true match labelled 1, every other candidate 0) and with its true
matches removed (every candidate 0). The logistic model is fitted on fold A's cases only, its
tier thresholds chosen on fold A, and the figures are reported on fold B; then the other way.
Fold B's cases are never read while fitting on A. `--write` stores the model fitted on both folds
(thresholds chosen the same way on both) in its file (above); the out-of-sample
figures printed are what to expect of it on new incidents.

From eval/, the first reports whose target is one of bench/held_out.tsv's threads (the collections no rule was
written from: a session's judge) are left out, their documents too (bench/first_reports.py `held_out_targets`; the
count is printed): a screen never reads them. `--include-held-out` reads every report: to judge a stamped choice
(totals only), for the frozen corpus's figures, and for `--write` (the shipped file is fitted on every report).

`--nested A` screens a choice (features, --l2, a change to a signal) without reading fold B: each
organisation of fold A is judged by the whole procedure (fit, thresholds) run on fold A's other
organisations, and the Done-when figures of those judgements are printed. Choose on it, then run
the swap above once.

Thresholds, chosen on the fitting fold, from probabilities the model gives cases it was not
fitted on (each organisation's cases judged by the model fitted on the fold's other
organisations): strong from the probability at which STRONG_ABSENT of the target-absent cases
would post a thread, weak from that at which SHOWN_ABSENT would show anything (interpolated
quantiles, `thresholds`). An in-sample threshold sat where the fitted fold's own few false
matches happened to fall; 33 cases make that a coin toss (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.first_reports import build, held_out_targets  # noqa: E402
from bench.judgement_figures import Judged, evaluate, evaluate_judged, probabilities_of, tiers_of  # noqa: E402
from bench.judgement_replays import cached_replay, one_fold, with_absent  # noqa: E402
from bench.logistic_fit import L2, CaseRows, fit_logistic, rows_of  # noqa: E402
from bot.recall.features import FEATURES, SENTENCE_FEATURES  # noqa: E402
from bot.recall.judgement import (  # noqa: E402
    JUDGEMENT_PATH,
    MAX_STRONG,
    MAX_WEAK,
    SEMANTIC_NAME,
    SURE_FLOOR,
    Judgement,
)
from bot.replay_report import CaseResult  # noqa: E402

T = TypeVar("T")
STRONG_ABSENT = 0.15
SHOWN_ABSENT = 0.44
"""Budgets under the targets (0.20 threads, 0.50 anything shown with the right memory removed), kept
by margins chosen before reading them (docs/BENCHMARKS.md, issue 27 r27-judge): the largest on the
grid whose nested fold-A figures stay 0.04 / 0.05 under the targets; out of sample, both swaps, the
removed figures stayed within them (467 reports: A -> B 0.168 / 0.441, B -> A 0.146 / 0.437)."""
MAX_GROUPS = 40
"""Held-out groups for the thresholds: each organisation is one up to this many (then dealt round)."""
# Chosen inside fold A only, by the nested procedure (docs/BENCHMARKS.md, issue 27: r27-refit, r27-fit): head and
# head_standout (= score_z x head; head's negative weight makes the pair head x (score_z - c), standing out on what
# the memory's opening covers), score_standout (score_z once the opening holds two of the query's terms: a lone
# shared word in a sparse bank stays quiet, tests/test_recall_floor.py's printer) and head_rare; with meaning, the
# lead in cosine added most. Coverage of the title or symptoms alone, shared concepts and the relative gap did not.
LEXICAL = ("head", "head_standout", "score_standout", "head_rare")
SEMANTIC = ("head", "head_standout", "meaning_lead")
# The short-query model (Judgement.short) reads the query's phrases in the memory too (docs/BENCHMARKS.md,
# issue 27 r27-judgement): SHORT_UNTIL the largest at which the long re-filings' fold A keep the model's
# figures, and fold A's nested ones r27-judge's margins; its budgets by r27-judge's rule (0.16 / 0.45).
SHORT = (*LEXICAL, "phrase_share")
SHORT_UNTIL = 4.0
SHORT_STRONG_ABSENT = 0.17
SHORT_SHOWN_ABSENT = 0.48
BUDGETS = ((STRONG_ABSENT, SHOWN_ABSENT), (SHORT_STRONG_ABSENT, SHORT_SHOWN_ABSENT))
"""(strong, shown) budgets of the model and of the short-query one (--budgets, --short-budgets)."""


def fit(
    results: list[CaseResult],
    label: str,
    names: tuple[str, ...],
    sure_from: float | None = SURE_FLOOR,
    l2: float = L2,
    short: tuple[str, ...] = (),
    short_until: float | None = None,
    budgets: tuple[tuple[float, float], tuple[float, float]] = BUDGETS,
    rows: CaseRows | None = None,
) -> Judgement:
    """The model fitted on these cases, its thresholds read off held-out probabilities (thresholds)
    at budgets[0]; with `short` features, and beside it the short-query model (Judgement.short)
    reading them, fitted on the same cases with its own budgets (budgets[1]). `rows`: the cases'
    rows read once for a run that fits them again (nested)."""
    rows = rows if rows is not None else CaseRows()
    model = _fit_one(results, label, names, sure_from, l2, budgets[0], rows)
    if not short or short_until is None:
        return model
    brief = _fit_one(results, label, short, sure_from, l2, budgets[1], rows)
    return replace(model, short=brief, short_until=short_until)


def _fit_one(
    results: list[CaseResult], label: str, names: tuple[str, ...], sure_from: float | None, l2: float,
    budgets: tuple[float, float], rows: CaseRows,
) -> Judgement:  # fmt: skip
    model = unthresholded(results, names, sure_from, l2, rows)
    strong_from, weak_from = thresholds(held_out(results, names, sure_from, l2, rows), *budgets)
    return replace(model, strong_from=strong_from, weak_from=weak_from,
                   fitted_on={"cases": len(results), "fold": label, "features": list(names), "l2": l2,
                              "thresholds": f"leave one organisation out ({len(groups(results))} groups)",
                              "budgets": list(budgets)})  # fmt: skip


def unthresholded(
    results: list[CaseResult], names: tuple[str, ...], sure_from: float | None, l2: float, rows: CaseRows | None = None
) -> Judgement:
    """The logistic model fitted on these cases, its thresholds out of reach (1.0: read next, off held-out ones)."""
    weights, intercept = fit_logistic(rows_of(results, names) if rows is None else rows.of(results, names), l2=l2)
    return Judgement(dict(zip(names, (round(w, 4) for w in weights), strict=True)), round(intercept, 4), 1.0, 1.0,
                     sure_from=sure_from)  # fmt: skip


def groups(results: list[CaseResult]) -> list[list[CaseResult]]:
    """The cases by organisation (a case without one is its own), dealt into at most MAX_GROUPS groups."""
    return deal(results, lambda r: str(r.case.flags.get("org") or r.case.id))


def deal(items: list[T], org_of: Callable[[T], str]) -> list[list[T]]:
    """The items by organisation, the organisations in name order dealt round into at most MAX_GROUPS groups:
    the groups held out in turn (every bench that reads thresholds off held-out probabilities)."""
    by_org: dict[str, list[T]] = {}
    for item in items:
        by_org.setdefault(org_of(item), []).append(item)
    dealt: list[list[T]] = [[] for _ in range(min(MAX_GROUPS, len(by_org)))]
    for i, org in enumerate(sorted(by_org)):
        dealt[i % len(dealt)] += by_org[org]
    return dealt


def held_out(
    results: list[CaseResult], names: tuple[str, ...], sure_from: float | None, l2: float, rows: CaseRows | None = None
) -> Judged:
    """Each case with the model fitted on the other organisations' cases (of the same fold): the
    probabilities a threshold is read from are what the model gives cases it was not fitted on."""
    rows = rows if rows is not None else CaseRows()
    return _each_held_out(results, lambda others: unthresholded(others, names, sure_from, l2, rows))


def nested(
    results: list[CaseResult], names: tuple[str, ...], sure_from: float | None, l2: float,
    short: tuple[str, ...] = (), short_until: float | None = None, budgets: tuple = BUDGETS,
) -> Judged:  # fmt: skip
    """Each case judged by the whole procedure (fit, then thresholds read off held-out
    probabilities) run on the other organisations' cases of its fold: what a choice of features
    or penalty gives organisations it never saw, read inside one fold (the feature screen)."""
    rows = CaseRows()
    return _each_held_out(
        results, lambda others: fit(others, "nested", names, sure_from, l2, short, short_until, budgets, rows)
    )


def nested_budgets(
    results: list[CaseResult], names: tuple[str, ...], sure_from: float | None, l2: float,
    grid: list[tuple[float, float]],
) -> list[Judged]:  # fmt: skip
    """nested (no short-query model) at each (strong, shown) budgets of `grid`, for the cost of one:
    an organisation's model and the held-out probabilities its thresholds are read from are the same
    whatever the budgets; only the thresholds read off them differ."""
    rows = CaseRows()
    dealt = groups(results)
    out: list[Judged] = [[] for _ in grid]
    for group in dealt:
        others = [r for other in dealt if other is not group for r in other] if len(dealt) > 1 else group
        model = unthresholded(others, names, sure_from, l2, rows)
        judged = held_out(others, names, sure_from, l2, rows)
        for kept, budgets in zip(out, grid, strict=True):
            strong_from, weak_from = thresholds(judged, *budgets)
            kept += [(r, replace(model, strong_from=strong_from, weak_from=weak_from)) for r in group]
    return out


def _each_held_out(results: list[CaseResult], fitter: Callable[[list[CaseResult]], Judgement]) -> Judged:
    dealt = groups(results)
    if len(dealt) < 2:  # nothing to hold out: in-sample
        model = fitter(results)
        return [(r, model) for r in results]
    out = []
    for group in dealt:
        model = fitter([r for other in dealt if other is not group for r in other])
        out += [(r, model) for r in group]
    return out


def thresholds(
    judged: Judged, strong_absent: float = STRONG_ABSENT, shown_absent: float = SHOWN_ABSENT
) -> tuple[float, float]:
    """(strong_from, weak_from) from each target-absent recall's best wrong candidate: strong from
    the (1 - STRONG_ABSENT) quantile of the probability at which it would post a thread (1 when
    the sure rule posts it anyway), weak from the (1 - SHOWN_ABSENT) quantile of that at which
    it would show anything. Interpolated between cases, so one case on either side of a gap in a
    small fold moves the threshold into the gap, not across it."""
    posts, shows = [], []
    for r, model in judged:
        found = probabilities_of(model, r.absent_matches)
        # what the rules show whatever the probability (Judgement.tiers with thresholds out of reach)
        ruled = tiers_of(replace(model, strong_from=2.0, weak_from=2.0), r.absent_matches)
        posts.append(1.0 if "strong" in ruled else max(found[:MAX_STRONG], default=0.0))
        shows.append(1.0 if "weak" in ruled else max(found[:MAX_WEAK], default=0.0))
    return read_thresholds(posts, shows, strong_absent, shown_absent)


def read_thresholds(
    posts: list[float], shows: list[float], strong_absent: float, shown_absent: float
) -> tuple[float, float]:
    """(strong_from, weak_from) read off the target-absent recalls: `posts`, the probability at which each would
    post a thread; `shows`, that at which it would show anything (a recall whose thread posts at strong_from
    shows anyway). The one reading of the budgets, for every model a bench fits (thresholds, bench/weak_line.py,
    bench/recall_long_queries.py)."""
    strong_from = budget_quantile(posts, strong_absent)
    shown = [1.0 if p >= strong_from else s for p, s in zip(posts, shows, strict=True)]
    return strong_from, budget_quantile(shown, shown_absent, strong_from)


def budget_quantile(values: list[float], budget: float, most: float = 0.99) -> float:
    """The threshold that lets `budget` of these values reach it: their (1 - budget) quantile, interpolated,
    between 0.01 and `most`, rounded to 3 places."""
    return round(min(most, max(0.01, _quantile(values, 1 - budget))), 3)


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 1.0
    at = q * (len(ordered) - 1)
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def _sure_from(value: str, parser: argparse.ArgumentParser) -> float | None:
    if value.lower() == "none":
        return None
    try:
        return float(value)
    except ValueError:
        parser.error(f"--sure-from takes a relevance or 'none', not {value!r}")


def model_file(args: argparse.Namespace, meaning: bool) -> Path | None:
    """Where the fit on both folds is stored: --screen-file's path (a screen's candidate, read by
    bench/recall_by_project.py --model; the shipped files untouched), with --write the shipped model's file (the
    semantic one beside the lexical one), else nowhere."""
    if args.screen_file is not None:
        return args.screen_file
    if not args.write:
        return None
    return JUDGEMENT_PATH.with_name(SEMANTIC_NAME) if meaning else JUDGEMENT_PATH


def store(model: Judgement, path: Path, meaning: bool) -> None:
    """The model in its file as the product loads it (load_judgement): each model in its own file, the semantic
    one's fitted part only, the lexical one's without a semantic model (that file is left alone)."""
    kept = model.model_json() if meaning else {k: v for k, v in model.as_json().items() if k != "semantic"}
    path.write_text(json.dumps(kept, indent=1) + "\n", encoding="utf-8")


def budgets_of(value: str) -> tuple[float, float]:
    """A command line's "STRONG,SHOWN" budgets (--budgets, --short-budgets, each of --budget-grid's)."""
    strong, shown = (float(v) for v in value.split(","))  # a ValueError: argparse says the value is invalid
    return strong, shown


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir", type=Path, nargs="?", help="the eval/ folder: its first reports are the corpus")
    parser.add_argument("--corpus", type=Path, help="a replay folder whose cases carry a fold (A/B) instead")
    parser.add_argument("--write", action="store_true",
                        help="store the model fitted on both folds in its file (the lexical or the semantic one)")  # fmt: skip
    parser.add_argument("--features", help="comma-separated names of features.FEATURES the model reads")
    parser.add_argument("--sure-from", help="relevance that posts a thread whatever the probability, or 'none'")
    parser.add_argument(
        "--cache", type=Path,
        help="a folder: reuse a replay's candidate lists made from the same corpus, bot/recall code and mode",
    )  # fmt: skip
    parser.add_argument("--short-features", help="the short-query model's features (lexical; default the shipped "
                        f"model's, else {','.join(SHORT)}), or 'none' for no short-query model")  # fmt: skip
    parser.add_argument("--short-until", type=float, help="query phrases' weight up to which the short-query model "
                        f"judges (default the shipped model's, else {SHORT_UNTIL})")  # fmt: skip
    parser.add_argument("--l2", type=float, default=L2, help=f"L2 penalty of the logistic fit (default {L2})")
    for flag, (strong, shown) in zip(("--budgets", "--short-budgets"), BUDGETS, strict=True):
        parser.add_argument(flag, type=budgets_of, default=(strong, shown), help="STRONG,SHOWN: shares of target-absent "
                            f"recalls the thresholds let post a thread / show anything (default {strong},{shown})")  # fmt: skip
    parser.add_argument(
        "--nested", choices=("A", "B"),
        help="the feature screen inside this fold only: each organisation judged by the whole procedure "
        "run on the fold's others (the other fold's cases are not replayed or printed)",
    )  # fmt: skip
    parser.add_argument("--budget-grid", help="with --nested and no short-query model: 'STRONG,SHOWN;…', one line "
                        "of figures for each budgets, the fits shared")  # fmt: skip
    parser.add_argument("--weak-features", help="a second model's features: it decides the weak line, the model "
                        "the thread (bench/weak_line.py; --nested [--budget-grid], or the swap), or 'none' beside "
                        "--short-weak-features")  # fmt: skip
    parser.add_argument("--short-weak-features", help="with --weak-features: the short-query model's weak model's "
                        "features, or 'none' (default): a short query's weak line is the short model's")  # fmt: skip
    parser.add_argument("--halves", help="with --nested and --weak-features: SEED,… fold halves (bench/weak_line.py)")
    parser.add_argument("--near", type=float, help="with --weak-features: a memory among the first three whose thread "
                        "probability reaches NEAR x strong_from is named on the weak line too (Judgement.near)")  # fmt: skip
    parser.add_argument("--absent-corpus", type=Path, help="a replay folder of the same cases over another bank: "
                        "the target-absent recalls are read there (bench/first_reports.py --conversations kept)")  # fmt: skip
    parser.add_argument("--screen-file", type=Path, help="store the fit on both folds at this path instead of the "
                        "shipped file (a screen's candidate: bench/recall_by_project.py --model reads it; the "
                        "held-out reports stay out unless --include-held-out)")  # fmt: skip
    parser.add_argument("--include-held-out", action="store_true", help="with eval/: bench/held_out.tsv's threads' "
                        "first reports too (left out by default): to judge, totals only; the frozen corpus; --write")  # fmt: skip
    args = parser.parse_args()
    if args.include_held_out and args.eval_dir is None:
        parser.error("--include-held-out reads eval/'s held-out threads: give the eval/ folder")
    if (args.budget_grid or args.halves) and not args.nested or args.halves and not args.weak_features:
        parser.error("--budget-grid and --halves screen inside one fold: give --nested (--halves: the pair's flags)")
    if args.near is not None and not args.weak_features:
        parser.error("--near names on the weak line beside a weak model: give --weak-features")
    if (args.eval_dir is None) == (args.corpus is None):
        parser.error("give the eval/ folder or --corpus DIR")
    if args.nested and (args.write or args.screen_file):
        parser.error("--nested screens features; --write stores the fit on both folds: run them apart")
    if args.write and args.screen_file:
        parser.error("--write stores the shipped file, --screen-file a screen's: give one")
    if args.write and args.eval_dir is not None and not args.include_held_out:
        # the shipped file is fitted on every report the project has; leaving the held-out collections out is for
        # screens, and a refit that silently did so would ship a model fitted on less than its figures say (review F18)
        parser.error("--write fits the shipped file on every first report: give --include-held-out")
    with tempfile.TemporaryDirectory() as folder:
        corpus = args.corpus
        if corpus is None:
            corpus = Path(folder)
            build(args.eval_dir, corpus, args.nested, leave_out=held_out_targets(args.eval_dir, args.include_held_out))
        elif args.nested:
            corpus = one_fold(corpus, args.nested, Path(folder))
        asked = {*(args.features or "").split(","), *(args.weak_features or "").split(",")}
        results = cached_replay(corpus, args.cache, True if asked & SENTENCE_FEATURES else None)
        if args.absent_corpus is not None:
            other = args.absent_corpus
            if args.nested:
                (Path(folder) / "absent").mkdir()
                other = one_fold(other, args.nested, Path(folder) / "absent")
            results = with_absent(
                results, cached_replay(other, args.cache, True if asked & SENTENCE_FEATURES else None)
            )
    folds = {f: [r for r in results if r.case.flags.get("fold") == f] for f in ("A", "B")}
    if args.nested and not folds[args.nested]:
        parser.error(f"the corpus has no cases in fold {args.nested}")
    if not args.nested and (not folds["A"] or not folds["B"]):
        parser.error("the corpus needs cases in both folds A and B")
    meaning = any(m.score_components.get("similarity") is not None for r in results for m in r.matches)
    shipped = json.loads(JUDGEMENT_PATH.read_text(encoding="utf-8"))
    semantic_path = JUDGEMENT_PATH.with_name(SEMANTIC_NAME)
    semantic = json.loads(semantic_path.read_text(encoding="utf-8")) if semantic_path.is_file() else None
    current = (semantic or shipped.get("semantic")) if meaning else shipped
    names = tuple(args.features.split(",")) if args.features else tuple(current["coefficients"]) if current else ()
    names = names or (SEMANTIC if meaning else LEXICAL)
    if unknown := set(names) - set(FEATURES):
        parser.error(f"unknown features {sorted(unknown)}: features.FEATURES has {sorted(FEATURES)}")
    mode = "semantic" if meaning else "lexical"
    short: tuple[str, ...] = ()
    until: float | None = None
    if not meaning and (args.short_features or "").lower() != "none":
        kept = shipped.get("short") or {}
        short = tuple(args.short_features.split(",")) if args.short_features else tuple(kept.get("coefficients", SHORT))
        until = args.short_until if args.short_until is not None else shipped.get("short_until", SHORT_UNTIL)
        if unknown := set(short) - set(FEATURES):
            parser.error(f"unknown features {sorted(unknown)}: features.FEATURES has {sorted(FEATURES)}")
    sure = shipped.get("sure_from", SURE_FLOOR) if args.sure_from is None else _sure_from(args.sure_from, parser)
    budgets = (args.budgets, args.short_budgets)
    if args.weak_features:
        from bench import weak_line  # it reads this module's fits

        return weak_line.main(args, parser, folds, mode, names, sure, short, until)
    if args.nested and args.budget_grid:
        if short:
            parser.error("--budget-grid judges one model: give --short-features none (semantic has none)")
        grid = [budgets_of(v) for v in args.budget_grid.split(";")]
        for budgets, judged in zip(grid, nested_budgets(folds[args.nested], names, sure, args.l2, grid), strict=True):
            print(json.dumps({"recall": mode, "nested": args.nested, "features": list(names), "l2": args.l2,
                              "budgets": budgets, **evaluate_judged(judged)}), flush=True)  # fmt: skip
        return 0
    if args.nested:
        fold = folds[args.nested]
        print(json.dumps({"recall": mode, "nested": args.nested, "features": list(names), "l2": args.l2,
                          "short": list(short), "short_until": until, "groups": len(groups(fold)),
                          **evaluate_judged(nested(fold, names, sure, args.l2, short, until, budgets))}))  # fmt: skip
        return 0
    for train, test in (("A", "B"), ("B", "A")):
        model = fit(folds[train], train, names, sure, args.l2, short, until, budgets)
        print(json.dumps({"recall": mode, "fit_on": train, "model": model.as_json(),
                          "in_sample": evaluate(model, folds[train]),
                          "out_of_sample": {"fold": test, **evaluate(model, folds[test])}}))  # fmt: skip
    if written := model_file(args, meaning):
        model = fit(results, "A+B", names, sure, args.l2, short, until, budgets)
        store(model, written, meaning)
        print(json.dumps({"written": str(written), "recall": mode, "in_sample": evaluate(model, results),
                          **{f"in_sample_{f}": evaluate(model, folds[f]) for f in folds}}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
