"""Fit the recall judgement (bot/recall/judgement.py) on first reports, by organisation fold.

    .venv/bin/python bench/fit_recall_judgement.py eval [--write]            # the project's material
    .venv/bin/python bench/fit_recall_judgement.py --corpus DIR [--write]    # a team's own history
    ... --features head,score_z,same_alert                                   # which features the model reads

With EMBEDDINGS_URL set (and pgvector), the replay recalls with meaning and the fit is the
"semantic" model (judgement.py); without, the lexical one. `--write` replaces that model only.
The features are names of judgement.FEATURES: a new signal is an entry there, then a refit with
its name added to --features (default: the model's own names, else LEXICAL / SEMANTIC below).

A corpus is a replay folder (docs/REPLAY.md) whose case lines carry a "fold" ("A" or "B": split
your history by team or by year, never case by case). Each case is recalled twice on a throwaway
database: as it is (the true match labelled 1, every other candidate 0) and with its true
matches removed (every candidate 0). The logistic model is fitted on fold A's cases only, its
tier thresholds chosen on fold A, and the figures are reported on fold B; then the other way.
Fold B's cases are never read while fitting on A. `--write` stores the model fitted on both folds
(thresholds chosen the same way on both) in bot/data/recall_judgement.json; the out-of-sample
figures printed are what to expect of it on new incidents.

Thresholds, chosen on the fitting fold: strong from the lowest probability at which at most
STRONG_ABSENT of the target-absent cases post a thread; weak from the lowest at which at most
SHOWN_ABSENT show anything.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.first_reports import build  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.recall.judgement import FEATURES, JUDGEMENT_PATH, SURE_FLOOR, Judgement, by_rule  # noqa: E402
from bot.replay import CaseResult, run_replay  # noqa: E402

STRONG_ABSENT = 0.15
SHOWN_ABSENT = 0.40
L2 = 0.1
GRID = [round(0.01 * i, 2) for i in range(1, 100)]
# chosen by leave-one-organisation-out cross-validation inside fold A (never fold B's cases): the
# head coverage and its standout (score_z × head) separated a right first-ranked memory from the
# best of the rest better than relevance, its lead or agreement (score_z alone did as well, but lifts
# a lone word match in a sparse bank); with meaning, the lead in cosine added most
LEXICAL = ("head", "head_standout")
SEMANTIC = ("head", "head_standout", "meaning_lead")

Row = tuple[list[float], int]


def rows_of(results: list[CaseResult], names: tuple[str, ...]) -> list[Row]:
    rows: list[Row] = []
    for r in results:
        for m in r.matches:
            rows.append(([m.evidence[n] for n in names], int(m.memory.incident_id in r.case.relevant)))
        rows += [([m.evidence[n] for n in names], 0) for m in r.absent_matches]
    return rows


def fit_logistic(rows: list[Row], iterations: int = 50) -> tuple[list[float], float]:
    """Newton's method on the L2-penalised log-loss (few features: a pure-Python solve suffices)."""
    k = len(rows[0][0]) + 1
    w = [0.0] * k
    for _ in range(iterations):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in rows:
            xs = [1.0, *x]
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, sum(a * b for a, b in zip(w, xs, strict=True))))))
            for i in range(k):
                grad[i] += (p - y) * xs[i]
                for j in range(k):
                    hess[i][j] += p * (1 - p) * xs[i] * xs[j]
        for i in range(1, k):
            grad[i] += L2 * w[i]
            hess[i][i] += L2
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return w[1:], w[0]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def _probabilities(judgement: Judgement, matches) -> list[float]:  # noqa: ANN001
    return [judgement.probability(m.evidence) for m in matches]


def _tiers(judgement: Judgement, matches) -> list[str]:  # noqa: ANN001
    return judgement.tiers(_probabilities(judgement, matches), [m.relevance for m in matches],
                           [by_rule(m.relevance, m.score_components) for m in matches])  # fmt: skip


def evaluate(judgement: Judgement, results: list[CaseResult]) -> dict[str, float]:
    """The Done-when figures of issue 27 for one judgement on some cases."""
    n = len(results) or 1
    first = shown_first = strong_first = absent_strong = absent_shown = 0
    right_strong = right_shown = 0
    for r in results:
        tiers = _tiers(judgement, r.matches)
        right = next((t for m, t in zip(r.matches, tiers, strict=True) if m.memory.incident_id in r.case.relevant
                      and t != "below"), "below")  # fmt: skip
        right_strong += right == "strong"
        right_shown += right != "below"
        if r.rank == 1:
            first += 1
            strong_first += right == "strong"
            shown_first += right != "below"
        absent = _tiers(judgement, r.absent_matches)
        absent_strong += "strong" in absent
        absent_shown += "strong" in absent or "weak" in absent
    return {
        "cases": len(results), "first": first,
        "first_shown": round(shown_first / (first or 1), 3), "first_strong": round(strong_first / (first or 1), 3),
        "right_shown": round(right_shown / n, 3), "right_strong": round(right_strong / n, 3),
        "absent_strong": round(absent_strong / n, 3), "absent_shown": round(absent_shown / n, 3),
        "ece": round(ece(judgement, results), 3), "curve": curve(judgement, results),
    }  # fmt: skip


def curve(judgement: Judgement, results: list[CaseResult]) -> list[list[float]]:
    """[p, right memory at ≥ p among the first 5, anything at ≥ p target absent] for p 0.1…0.9:
    the probability curve a strong_from is read from (in- or out-of-sample)."""
    n = len(results) or 1
    out = []
    for p in (round(0.1 * i, 1) for i in range(1, 10)):
        right = sum(any(m.memory.incident_id in r.case.relevant and q >= p
                        for m, q in zip(r.matches[:5], _probabilities(judgement, r.matches[:5]), strict=True))
                    for r in results)  # fmt: skip
        absent = sum(any(q >= p for q in _probabilities(judgement, r.absent_matches[:5])) for r in results)
        out.append([p, round(right / n, 3), round(absent / n, 3)])
    return out


def ece(judgement: Judgement, results: list[CaseResult], bins: int = 10) -> float:
    """Expected calibration error over every judged candidate (present and absent recalls)."""
    pairs = []
    for r in results:
        pairs += [(p, int(m.memory.incident_id in r.case.relevant))
                  for p, m in zip(_probabilities(judgement, r.matches), r.matches, strict=True)]  # fmt: skip
        pairs += [(p, 0) for p in _probabilities(judgement, r.absent_matches)]
    total = len(pairs) or 1
    error = 0.0
    for b in range(bins):
        inside = [(p, y) for p, y in pairs if b / bins <= p < (b + 1) / bins or (b == bins - 1 and p == 1.0)]
        if inside:
            error += (
                len(inside)
                / total
                * abs(sum(p for p, _ in inside) / len(inside) - sum(y for _, y in inside) / len(inside))
            )
    return error


def fit(
    results: list[CaseResult], label: str, names: tuple[str, ...], sure_from: float | None = SURE_FLOOR
) -> Judgement:
    weights, intercept = fit_logistic(rows_of(results, names))
    model = Judgement(dict(zip(names, (round(w, 4) for w in weights), strict=True)), round(intercept, 4), 1.0, 1.0,
                      sure_from=sure_from)  # fmt: skip
    strong_from = next((t for t in GRID if _absent_rate(replace(model, strong_from=t), results, "strong")
                        <= STRONG_ABSENT), 0.99)  # fmt: skip
    model = replace(model, strong_from=strong_from)
    weak_from = next(
        (t for t in GRID if _absent_rate(replace(model, weak_from=t), results, "shown") <= SHOWN_ABSENT), strong_from
    )
    return replace(model, weak_from=min(weak_from, strong_from), fitted_on={"cases": len(results), "fold": label,
                                                                             "features": list(names)})  # fmt: skip


def _absent_rate(model: Judgement, results: list[CaseResult], what: str) -> float:
    """Share of target-absent recalls that post a thread ("strong") or show anything ("shown")."""
    hits = 0
    for r in results:
        tiers = _tiers(model, r.absent_matches)
        hits += "strong" in tiers or (what == "shown" and "weak" in tiers)
    return hits / (len(results) or 1)


async def replayed(corpus: Path) -> list[CaseResult]:
    report = await run_replay(corpus, Settings(), progress=sys.stderr.isatty(), keep_matches=True, target_absent=True)
    return list(report.results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir", type=Path, nargs="?", help="the eval/ folder: its first reports are the corpus")
    parser.add_argument("--corpus", type=Path, help="a replay folder whose cases carry a fold (A/B) instead")
    parser.add_argument(
        "--write", action="store_true", help=f"store the model fitted on both folds in {JUDGEMENT_PATH}"
    )
    parser.add_argument("--features", help="comma-separated names of judgement.FEATURES the model reads")
    parser.add_argument("--sure-from", type=float, help="relevance that posts a thread whatever the probability")
    args = parser.parse_args()
    if (args.eval_dir is None) == (args.corpus is None):
        parser.error("give the eval/ folder or --corpus DIR")
    with tempfile.TemporaryDirectory() as folder:
        corpus = args.corpus
        if corpus is None:
            corpus = Path(folder)
            build(args.eval_dir, corpus)
        results = asyncio.run(replayed(corpus))
    folds = {f: [r for r in results if r.case.flags.get("fold") == f] for f in ("A", "B")}
    if not folds["A"] or not folds["B"]:
        parser.error("the corpus needs cases in both folds A and B")
    meaning = any(m.score_components.get("similarity") is not None for r in results for m in r.matches)
    shipped = json.loads(JUDGEMENT_PATH.read_text(encoding="utf-8"))
    current = shipped.get("semantic") if meaning else shipped
    names = tuple(args.features.split(",")) if args.features else tuple(current["coefficients"]) if current else ()
    names = names or (SEMANTIC if meaning else LEXICAL)
    if unknown := set(names) - set(FEATURES):
        parser.error(f"unknown features {sorted(unknown)}: judgement.FEATURES has {sorted(FEATURES)}")
    mode = "semantic" if meaning else "lexical"
    sure = args.sure_from if args.sure_from is not None else shipped.get("sure_from", SURE_FLOOR)
    for train, test in (("A", "B"), ("B", "A")):
        model = fit(folds[train], train, names, sure)
        print(json.dumps({"recall": mode, "fit_on": train, "model": model.as_json(),
                          "in_sample": evaluate(model, folds[train]),
                          "out_of_sample": {"fold": test, **evaluate(model, folds[test])}}))  # fmt: skip
    if args.write:
        model = fit(results, "A+B", names, sure)
        if meaning:  # the lexical model stays, the semantic one is replaced
            shipped["semantic"] = model.model_json()
        else:
            shipped = {**model.as_json(), **({"semantic": shipped["semantic"]} if "semantic" in shipped else {})}
        JUDGEMENT_PATH.write_text(json.dumps(shipped, indent=1) + "\n", encoding="utf-8")
        print(json.dumps({"written": str(JUDGEMENT_PATH), "recall": mode, "in_sample": evaluate(model, results)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
