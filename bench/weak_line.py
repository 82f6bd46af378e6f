"""A weak line decided by a second model (Judgement.weak), the thread by the first: bench/fit_recall_judgement.py's
`--weak-features` (issue 27, r27-weak). Evidence that tells "show one line with the closest memories" from
"nothing" may not tell a thread: on fold A nested the closest sentence's lead (meaning_sentence_lead) showed more
right memories but made fewer strong when one model read it (docs/BENCHMARKS.md, r27-sem). Here the thread keeps
the first model (its features, its strong_from, what a thread holds), so strong is the same by construction, and
the weak line is read off the second model's probabilities.

Thresholds, as fit_recall_judgement.thresholds reads them, from held-out probabilities: strong_from off the
first model's at the strong budget; the second model's weak_from at the probability at which the shown budget's
share of target-absent recalls would show anything, a recall counted as shown whatever the second model says
when the first posts its thread or a rule shows it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace

from bench.fit_recall_judgement import (
    BUDGETS,
    budget_quantile,
    budgets_of,
    groups,
    held_out,
    model_file,
    store,
    thresholds,
    unthresholded,
)
from bench.judgement_figures import Judged, evaluate, evaluate_judged, probabilities_of, tiers_of
from bench.logistic_fit import CaseRows
from bot.recall.features import FEATURES
from bot.recall.judgement import MAX_STRONG, MAX_WEAK, Judgement
from bot.replay_report import CaseResult


def line_from(
    strong: Judged, weak: Judged, strong_from: float, shown_absent: float, near: float | None = None
) -> float:
    """The weak model's weak_from: the (1 - shown_absent) quantile, over the target-absent recalls,
    of the probability at which each would show anything (1 when the first model's thread posts at
    strong_from or a rule shows it, or, with `near`, one of its first MAX_WEAK reaches near x strong_from
    (Judgement.near); else the second model's best of the first MAX_WEAK)."""
    shown = []
    for (r, model), (kept, second) in zip(strong, weak, strict=True):
        assert r is kept  # both held out over the same groups, in the same order
        ruled = tiers_of(replace(model, strong_from=2.0, weak_from=2.0), r.absent_matches)
        found = probabilities_of(model, r.absent_matches)
        posts = max(found[:MAX_STRONG], default=0.0) >= strong_from
        close = near is not None and max(found[:MAX_WEAK], default=0.0) >= near * strong_from
        best = max(probabilities_of(second, r.absent_matches)[:MAX_WEAK], default=0.0)
        shown.append(1.0 if posts or close or "strong" in ruled or "weak" in ruled else best)
    return budget_quantile(shown, shown_absent)


def paired(
    model: Judgement, second: Judgement, strong: Judged, weak: Judged, budgets: tuple[float, float],
    near: float | None = None,
) -> Judgement:  # fmt: skip
    """The first model with its thresholds at `budgets`, the second as its weak model (Judgement.weak); with
    `near`, a memory near the first model's thread named on the weak line too (Judgement.near)."""
    strong_from, weak_from = thresholds(strong, *budgets)
    line = line_from(strong, weak, strong_from, budgets[1], near)
    return replace(model, strong_from=strong_from, weak_from=weak_from, near=near,
                   weak=replace(second, strong_from=1.0, weak_from=line))  # fmt: skip


def fit_pair(
    results: list[CaseResult], label: str, names: tuple[str, ...], weak_names: tuple[str, ...],
    sure_from: float | None, l2: float, budgets: tuple[float, float] = BUDGETS[0], rows: CaseRows | None = None,
    short: tuple[str, ...] = (), short_weak: tuple[str, ...] = (), short_until: float | None = None,
    short_budgets: tuple[float, float] = BUDGETS[1], near: float | None = None,
) -> Judgement:  # fmt: skip
    """Both models fitted on these cases, thresholds read off their held-out probabilities; with `short`
    features the short-query model beside them (Judgement.short), with `short_weak` its own weak model; `near`:
    each first model's Judgement.near. Each model, a weak one too, records what it was fitted on (its cases,
    features and budgets: a weak model's weak_from is read at its first model's shown budget)."""
    rows = rows if rows is not None else CaseRows()
    fitted_on = {"cases": len(results), "fold": label, "l2": l2,
                 "thresholds": f"leave one organisation out ({len(groups(results))} groups)"}  # fmt: skip
    fits = _fits(results, names, weak_names, short, short_weak, sure_from, l2, rows)
    model = _judged_pair(fits, budgets, short_budgets, short_until, near)
    if model.short is not None:
        model = replace(model, short=_recorded(model.short, fitted_on, short, short_weak, short_budgets))
    return _recorded(model, fitted_on, names, weak_names, budgets)


def _recorded(
    model: Judgement, fitted_on: dict, names: tuple[str, ...], weak_names: tuple[str, ...], budgets: tuple
) -> Judgement:
    """The model with its fitted_on, and its weak model's (the same cases and budgets, its own features)."""
    weak = None if model.weak is None else replace(model.weak, fitted_on={**fitted_on, "budgets": list(budgets),
                                                                          "features": list(weak_names)})  # fmt: skip
    return replace(model, weak=weak, fitted_on={**fitted_on, "budgets": list(budgets), "features": list(names),
                                                **({"weak_features": list(weak_names)} if weak_names else {})})  # fmt: skip


Fits = tuple[tuple[Judgement, Judged], ...]
"""Each model's fit and its held-out judgements: the first, its weak one, the short one, the short's weak one
(None for a model not asked for)."""


def _fits(
    results: list[CaseResult], names: tuple[str, ...], weak_names: tuple[str, ...], short: tuple[str, ...],
    short_weak: tuple[str, ...], sure_from: float | None, l2: float, rows: CaseRows,
) -> Fits:  # fmt: skip
    def one(features: tuple[str, ...]) -> tuple[Judgement, Judged] | None:
        if not features:
            return None
        return unthresholded(results, features, sure_from, l2, rows), held_out(results, features, sure_from, l2, rows)

    return one(names), one(weak_names), one(short), one(short_weak)  # type: ignore[return-value]


def _judged_pair(
    fits: Fits, budgets: tuple[float, float], short_budgets: tuple[float, float], short_until: float | None,
    near: float | None = None,
) -> Judgement:  # fmt: skip
    """The first model at `budgets` with its weak model, the short-query one at `short_budgets` with its own
    (each weak model's line read against its own first model's thread, and with `near` its near line)."""

    def at(first: tuple[Judgement, Judged], second: tuple[Judgement, Judged] | None, b: tuple) -> Judgement:
        if second is None:
            strong_from, weak_from = thresholds(first[1], *b)
            return replace(first[0], strong_from=strong_from, weak_from=weak_from)
        return paired(first[0], second[0], first[1], second[1], b, near)

    model = at(fits[0], fits[1], budgets)
    if fits[2] is None or short_until is None:
        return model
    return replace(model, short=at(fits[2], fits[3], short_budgets), short_until=short_until)


def nested_pair_budgets(
    results: list[CaseResult], names: tuple[str, ...], weak_names: tuple[str, ...], sure_from: float | None,
    l2: float, grid: list[tuple[float, float]], short: tuple[str, ...] = (), short_weak: tuple[str, ...] = (),
    short_until: float | None = None, short_grid: list[tuple[float, float]] | None = None,
    nears: list[float | None] | None = None,
) -> list[Judged]:  # fmt: skip
    """fit_recall_judgement.nested_budgets for the pair: each organisation judged by both models (and the
    short-query pair, with `short`) fitted on the fold's other organisations, their thresholds read off those
    organisations' held-out probabilities, at each budgets of `grid` (and `short_grid`'s, the same length;
    the fits shared; `nears`, each point's Judgement.near)."""
    rows = CaseRows()
    dealt = groups(results)
    short_grid = short_grid if short_grid is not None else [BUDGETS[1]] * len(grid)
    nears = nears if nears is not None else [None] * len(grid)
    out: list[Judged] = [[] for _ in grid]
    for group in dealt:
        others = [r for other in dealt if other is not group for r in other] if len(dealt) > 1 else group
        fits = _fits(others, names, weak_names, short, short_weak, sure_from, l2, rows)
        for kept, budgets, short_budgets, near in zip(out, grid, short_grid, nears, strict=True):
            judged = _judged_pair(fits, budgets, short_budgets, short_until, near)
            kept += [(r, judged) for r in group]
    return out


def without_weak(judged: Judged, short_only: bool = False) -> Judged:
    """The same judgements with no weak model (the first models alone: the baseline), or with the long
    model's dropped only (`short_only`: a long query's weak line is the first model's)."""
    out = []
    for r, model in judged:
        short = model.short if short_only or model.short is None else replace(model.short, weak=None)
        out.append((r, replace(model, weak=None, short=short)))
    return out


def halves(results: list[CaseResult], seed: int, fitter: Callable[[list[CaseResult]], Judgement]) -> Judged:
    """The fold's organisations shuffled by `seed` and cut in two, each half judged by `fitter` (the whole
    procedure: fit_pair, its thresholds held out inside the half) run on the other half. The nested screen judges
    each organisation by a fit on all the fold's others (39 groups of 40) and flattered candidates that the swap
    then did not carry; a fit on half the organisations foretold the swap better (docs/BENCHMARKS.md, issue 27,
    r27-strong and r27-strong2)."""
    orgs = sorted({str(r.case.flags.get("org") or r.case.id) for r in results})
    random.Random(seed).shuffle(orgs)
    one = set(orgs[: len(orgs) // 2])
    first = [r for r in results if str(r.case.flags.get("org") or r.case.id) in one]
    second = [r for r in results if str(r.case.flags.get("org") or r.case.id) not in one]
    return [(r, model) for train, test in ((first, second), (second, first)) for model in [fitter(train)] for r in test]


def main(args, parser, folds, mode, names, sure, short, until) -> int:  # noqa: ANN001
    """fit_recall_judgement.py --weak-features: the nested screen (at --budgets or each of --budget-grid's) or
    the swap, printed as the one-model runs print theirs; --write (or --screen-file) stores the pair fitted on both folds.
    With a short-query model, --short-weak-features names its weak model (none: a short query's weak line is
    the short model's); the nested screen prints the pair, the first models alone and, with both weak models,
    the short one's alone. --nested A --halves 1,2,3: fold A's halves (halves) at each seed, then their mean."""
    weak_names = () if args.weak_features == "none" else tuple(args.weak_features.split(","))
    short_weak = () if (args.short_weak_features or "none") == "none" else tuple(args.short_weak_features.split(","))
    if unknown := (set(weak_names) | set(short_weak)) - set(FEATURES):
        parser.error(f"unknown features {sorted(unknown)}: features.FEATURES has {sorted(FEATURES)}")
    if short_weak and not short:
        parser.error("--short-weak-features needs a short-query model")
    head = {"recall": mode, "features": list(names), "weak_features": list(weak_names), "short": list(short),
            "short_weak_features": list(short_weak), "l2": args.l2}  # fmt: skip
    if args.nested and args.halves:
        fold, read = folds[args.nested], []
        for seed in (int(v) for v in args.halves.split(",")):
            judged = halves(fold, seed, lambda train: fit_pair(train, "half", names, weak_names, sure, args.l2,
                            args.budgets, None, short, short_weak, until, args.short_budgets, args.near))  # fmt: skip
            read.append(_brief(evaluate_judged(judged)))
            print(json.dumps({**head, "halves": args.nested, "seed": seed, **read[-1]}), flush=True)
        mean = {k: round(sum(f[k] for f in read) / len(read), 3) for k in ("first_shown", "first_strong",
                                                                            "absent_strong", "absent_shown")}  # fmt: skip
        print(json.dumps({**head, "halves": args.nested, "seeds": args.halves, "mean": mean}))
        return 0
    if args.nested:
        grid = _grid(args.budget_grid) if args.budget_grid else [(args.budgets, args.short_budgets)]
        fold = folds[args.nested]
        screened = nested_pair_budgets(fold, names, weak_names, sure, args.l2, [g for g, _ in grid], short,
                                       short_weak, until, [s for _, s in grid], [args.near] * len(grid))  # fmt: skip
        for (budgets, short_budgets), judged in zip(grid, screened, strict=True):
            variants = [("pair", judged), ("alone", without_weak(judged))]
            if short_weak:
                variants.append(("short weak only", without_weak(judged, short_only=True)))
            for name, kept in variants:
                print(json.dumps({**head, "variant": name, "nested": args.nested, "budgets": budgets,
                                  "short_budgets": short_budgets, **_brief(evaluate_judged(kept))}), flush=True)  # fmt: skip
        return 0
    for train, test in (("A", "B"), ("B", "A")):
        model = fit_pair(folds[train], train, names, weak_names, sure, args.l2, args.budgets, None, short, short_weak,
                         until, args.short_budgets, args.near)  # fmt: skip
        print(json.dumps({**head, "fit_on": train, "model": model.as_json(),
                          "in_sample": evaluate(model, folds[train]),
                          "out_of_sample": {"fold": test, **evaluate(model, folds[test])},
                          **{f"{name}_out_of_sample": {"fold": test, **_brief(evaluate_judged(
                              without_weak([(r, model) for r in folds[test]], short_only)))}
                             for name, short_only in (("alone", False), ("short_weak_only", True))
                             if short_weak or not short_only}}), flush=True)  # fmt: skip
    if written := model_file(args, mode == "semantic"):
        results = [*folds["A"], *folds["B"]]
        model = fit_pair(results, "A+B", names, weak_names, sure, args.l2, args.budgets, None, short, short_weak,
                         until, args.short_budgets, args.near)  # fmt: skip
        store(model, written, mode == "semantic")
        print(json.dumps({"written": str(written), "recall": mode, "in_sample": _brief(evaluate(model, results)),
                          **{f"in_sample_{f}": _brief(evaluate(model, folds[f])) for f in folds}}))  # fmt: skip
    return 0


def _grid(value: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """'S,W[/s,w];…': each point's budgets, and the short model's after a slash (else the default)."""
    out = []
    for point in value.split(";"):
        long, _, brief = point.partition("/")
        out.append((budgets_of(long), budgets_of(brief) if brief else BUDGETS[1]))
    return out


def _brief(figures: dict) -> dict:
    """The figures without the probability curve (one line per variant)."""
    return {k: v for k, v in figures.items() if k != "curve"}
