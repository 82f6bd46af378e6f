"""The budgets a fold's fit reads its thresholds at, chosen on that fold's own nested grid by r27-refit's rule
(bench/choose_budgets.py): the largest strong budget that keeps the fold's false threads and false shows under the
margins, at it the fewest false lines that still show nine right memories in ten."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from bench.choose_budgets import choose


def point(strong: float, shown: float, absent_strong: float, absent_shown: float, first_shown: float) -> dict:
    return {"variant": "pair", "budgets": [strong, shown], "absent_strong": absent_strong,
            "absent_shown": absent_shown, "first_shown": first_shown, "first_strong": 0.6}  # fmt: skip


GRID = [
    point(0.16, 0.38, 0.170, 0.40, 0.89),
    point(0.16, 0.40, 0.170, 0.42, 0.91),
    point(0.17, 0.38, 0.178, 0.40, 0.89),
    point(0.17, 0.40, 0.179, 0.42, 0.90),
    point(0.17, 0.42, 0.179, 0.47, 0.92),  # shows too much with the right memory removed
    point(0.18, 0.38, 0.192, 0.40, 0.91),  # posts too many false threads
    {**point(0.19, 0.38, 0.10, 0.30, 0.95), "variant": "alone"},  # not the pair: never read
]


def test_the_largest_strong_budget_under_the_margin_and_the_fewest_false_lines_reaching_nine_in_ten() -> None:
    assert choose(GRID)["budgets"] == [0.17, 0.40]
    # where no shown budget reaches 0.90 at that strong budget, the largest admissible one
    assert choose([p for p in GRID if p["budgets"] != [0.17, 0.40]])["budgets"] == [0.17, 0.38]


def test_a_grid_with_no_admissible_point_is_an_error_not_a_silent_choice(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no budgets"):
        choose([point(0.18, 0.38, 0.192, 0.40, 0.91)])
    grid = tmp_path / "grid.jsonl"
    grid.write_text("".join(json.dumps(p) + "\n" for p in GRID), encoding="utf-8")
    run = subprocess.run([sys.executable, "bench/choose_budgets.py", str(grid)], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parent.parent)  # fmt: skip
    assert json.loads(run.stdout)["budgets"] == [0.17, 0.40]


def test_the_swap_fits_a_fold_at_the_budgets_chosen_on_that_fold() -> None:
    # judgement_by_org.py --fold-budgets B=…: the fit on fold B reads its thresholds at fold B's own choice
    from bench import judgement_by_org as by_org
    from tests.test_fit_recall_judgement import recalled

    fold, budgets = by_org.fold_budgets("B=0.3,0.5/0.32,0.54")
    assert (fold, budgets) == ("B", ((0.3, 0.5), (0.32, 0.54)))
    with pytest.raises(ValueError):
        by_org.fold_budgets("C=0.3,0.5/0.32,0.54")
    results = [recalled(org, n, 3.0 + 0.1 * n, 0.5 * n) for org in "abcdef" for n in range(5)]
    for r in results:  # the weak models' features read 0 here: only the thread's head_standout tells
        for m in (*r.matches, *r.absent_matches):
            m.evidence = defaultdict(float, m.evidence)
    names = ("head_standout",)
    shipped, own = by_org.pair(results, names, "B"), by_org.pair(results, names, "B", budgets)
    assert own.fitted_on["budgets"] == [0.3, 0.5] and own.short.fitted_on["budgets"] == [0.32, 0.54]
    assert shipped.fitted_on["budgets"] == list(by_org.BUDGETS) and own.coefficients == shipped.coefficients
    assert own.strong_from < shipped.strong_from  # more false threads allowed: a lower threshold
