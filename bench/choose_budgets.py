"""The budgets a fit reads its thresholds at, chosen on its own fitting fold (issue 27, r27 "rule P"):

    .venv/bin/python bench/fit_recall_judgement.py eval --nested B --weak-features … --budget-grid "…" > B.jsonl
    .venv/bin/python bench/choose_budgets.py B.jsonl          # the pair r27-refit's rule picks on fold B

r27-refit chose the shipped budgets (0.17,0.40 / short 0.19,0.44) by one rule, nested on fold A, and the swap used
that fold-A choice for both directions, so a fit on fold B read budgets chosen on fold A (the review's F31). Here
the same rule, word for word, is one function any fold's nested grid is read with: a point is admissible when the
fold's nested figures keep removed strong <= STRONG_MOST and removed anything <= SHOWN_MOST (margins 0.02 and 0.04
under issue 27's 0.20 and 0.50); of the admissible points the largest strong budget (strong where the right memory
ranks first is the unmet target), at it the smallest shown budget whose nested shown reaches SHOWN_LEAST (no more
false lines than the target needs), else the largest admissible one. The grid's lines are the "pair" variant that
fit_recall_judgement.py --weak-features --nested --budget-grid prints.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

STRONG_MOST = 0.18
SHOWN_MOST = 0.46
SHOWN_LEAST = 0.90


def choose(lines: list[dict]) -> dict:
    """The grid line r27-refit's rule picks (ValueError when no point is admissible)."""
    admissible = [
        line
        for line in lines
        if line.get("variant", "pair") == "pair"
        and line["absent_strong"] <= STRONG_MOST
        and line["absent_shown"] <= SHOWN_MOST
    ]
    if not admissible:
        raise ValueError(f"no budgets keep removed strong <= {STRONG_MOST} and anything <= {SHOWN_MOST}")
    strongest = max(line["budgets"][0] for line in admissible)
    at = sorted((line for line in admissible if line["budgets"][0] == strongest), key=lambda line: line["budgets"][1])
    reaching = [line for line in at if line["first_shown"] >= SHOWN_LEAST]
    return reaching[0] if reaching else at[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "grid", type=Path, help="fit_recall_judgement.py --nested … --budget-grid's output (JSON lines)"
    )
    args = parser.parse_args()
    lines = [json.loads(line) for line in args.grid.read_text(encoding="utf-8").splitlines() if line.strip()]
    try:
        chosen = choose(lines)
    except ValueError as error:
        parser.error(str(error))
    print(json.dumps(chosen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
