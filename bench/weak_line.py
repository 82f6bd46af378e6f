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
from dataclasses import replace

from bench.fit_recall_judgement import (
    BUDGETS,
    CaseRows,
    _budgets,
    _fitted,
    _quantile,
    groups,
    held_out,
    thresholds,
)
from bench.judgement_figures import Judged, evaluate, evaluate_judged, probabilities_of, tiers_of
from bot.recall.judgement import FEATURES, MAX_STRONG, MAX_WEAK, Judgement
from bot.replay_report import CaseResult


def line_from(strong: Judged, weak: Judged, strong_from: float, shown_absent: float) -> float:
    """The weak model's weak_from: the (1 - shown_absent) quantile, over the target-absent recalls,
    of the probability at which each would show anything (1 when the first model's thread posts at
    strong_from or a rule shows it; else the second model's best of the first MAX_WEAK)."""
    shown = []
    for (r, model), (kept, second) in zip(strong, weak, strict=True):
        assert r is kept  # both held out over the same groups, in the same order
        ruled = tiers_of(replace(model, strong_from=2.0, weak_from=2.0), r.absent_matches)
        posts = max(probabilities_of(model, r.absent_matches)[:MAX_STRONG], default=0.0) >= strong_from
        best = max(probabilities_of(second, r.absent_matches)[:MAX_WEAK], default=0.0)
        shown.append(1.0 if posts or "strong" in ruled or "weak" in ruled else best)
    return round(min(0.99, max(0.01, _quantile(shown, 1 - shown_absent))), 3)


def paired(
    model: Judgement, second: Judgement, strong: Judged, weak: Judged, budgets: tuple[float, float]
) -> Judgement:
    """The first model with its thresholds at `budgets`, the second as its weak model (Judgement.weak)."""
    strong_from, weak_from = thresholds(strong, *budgets)
    line = line_from(strong, weak, strong_from, budgets[1])
    return replace(model, strong_from=strong_from, weak_from=weak_from,
                   weak=replace(second, strong_from=1.0, weak_from=line))  # fmt: skip


def fit_pair(
    results: list[CaseResult], label: str, names: tuple[str, ...], weak_names: tuple[str, ...],
    sure_from: float | None, l2: float, budgets: tuple[float, float] = BUDGETS[0], rows: CaseRows | None = None,
) -> Judgement:  # fmt: skip
    """Both models fitted on these cases, thresholds read off their held-out probabilities."""
    rows = rows if rows is not None else CaseRows()
    model, second = _fitted(results, names, sure_from, l2, rows), _fitted(results, weak_names, sure_from, l2, rows)
    strong, weak = held_out(results, names, sure_from, l2, rows), held_out(results, weak_names, sure_from, l2, rows)
    fitted_on = {"cases": len(results), "fold": label, "l2": l2, "budgets": list(budgets),
                 "thresholds": f"leave one organisation out ({len(groups(results))} groups)"}  # fmt: skip
    return replace(
        paired(model, second, strong, weak, budgets),
        fitted_on={**fitted_on, "features": list(names), "weak_features": list(weak_names)},
    )


def nested_pair_budgets(
    results: list[CaseResult], names: tuple[str, ...], weak_names: tuple[str, ...], sure_from: float | None,
    l2: float, grid: list[tuple[float, float]],
) -> list[Judged]:  # fmt: skip
    """fit_recall_judgement.nested_budgets for the pair: each organisation judged by both models fitted
    on the fold's other organisations, their thresholds read off those organisations' held-out
    probabilities, at each budgets of `grid` (the fits shared)."""
    rows = CaseRows()
    dealt = groups(results)
    out: list[Judged] = [[] for _ in grid]
    for group in dealt:
        others = [r for other in dealt if other is not group for r in other] if len(dealt) > 1 else group
        model, second = _fitted(others, names, sure_from, l2, rows), _fitted(others, weak_names, sure_from, l2, rows)
        strong, weak = held_out(others, names, sure_from, l2, rows), held_out(others, weak_names, sure_from, l2, rows)
        for kept, budgets in zip(out, grid, strict=True):
            judged = paired(model, second, strong, weak, budgets)
            kept += [(r, judged) for r in group]
    return out


def main(args, parser, folds, mode, names, sure, short) -> int:  # noqa: ANN001
    """fit_recall_judgement.py --weak-features: the nested screen (at --budgets or each of --budget-grid's) or
    the swap, printed as the one-model runs print theirs. Measures only: --write stores no second model."""
    weak_names = tuple(args.weak_features.split(","))
    if unknown := set(weak_names) - set(FEATURES):
        parser.error(f"unknown features {sorted(unknown)}: judgement.FEATURES has {sorted(FEATURES)}")
    if short or args.write:
        parser.error("--weak-features measures one model beside another: give --short-features none, no --write")
    head = {"recall": mode, "features": list(names), "weak_features": list(weak_names), "l2": args.l2}
    if args.nested:
        grid = [_budgets(v) for v in args.budget_grid.split(";")] if args.budget_grid else [args.budgets]
        fold = folds[args.nested]
        for budgets, judged in zip(
            grid, nested_pair_budgets(fold, names, weak_names, sure, args.l2, grid), strict=True
        ):
            alone = [(r, replace(model, weak=None)) for r, model in judged]  # the first model alone: the baseline
            for weak, kept in ((list(weak_names), judged), (None, alone)):
                print(json.dumps({**head, "weak_features": weak, "nested": args.nested, "budgets": budgets,
                                  **evaluate_judged(kept)}), flush=True)  # fmt: skip
        return 0
    for train, test in (("A", "B"), ("B", "A")):
        model = fit_pair(folds[train], train, names, weak_names, sure, args.l2, args.budgets)
        weak = model.weak.model_json() if model.weak is not None else None
        print(json.dumps({**head, "fit_on": train, "model": model.model_json(), "weak": weak,
                          "in_sample": evaluate(model, folds[train]),
                          "out_of_sample": {"fold": test, **evaluate(model, folds[test])}}), flush=True)  # fmt: skip
    return 0
