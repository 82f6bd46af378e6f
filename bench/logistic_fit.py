"""The logistic fit of the recall judgement (bench/fit_recall_judgement.py): a case's rows (each
match's evidence and whether it is the right memory) and the L2-penalised fit on them, pure Python
(few features; the nested screen fits some 1,600 models). Split out of fit_recall_judgement.py as it
was; that module still exports these names."""

from __future__ import annotations

import math
import operator

from bot.replay_report import CaseResult

L2 = 1.0
"""On standardised features (fit_logistic): every feature is penalised alike, whatever its unit."""

Row = tuple[list[float], int]


def rows_of(results: list[CaseResult], names: tuple[str, ...]) -> list[Row]:
    rows: list[Row] = []
    for r in results:
        rows += _case_rows(r, names)
    return rows


def _case_rows(r: CaseResult, names: tuple[str, ...]) -> list[Row]:
    rows = [([m.evidence[n] for n in names], int(m.memory.incident_id in r.case.relevant)) for m in r.matches]
    return rows + [([m.evidence[n] for n in names], 0) for m in r.absent_matches]


class CaseRows:
    """Each case's rows, read once per feature list for one run: the nested screen refits the same
    cases some 3,300 times, and reading the rows off the matches was two thirds of each fit. Rows
    are the same lists in the same order as rows_of's, so every fit is the same to the bit."""

    def __init__(self) -> None:
        self._kept: dict[tuple[int, tuple[str, ...]], tuple[CaseResult, list[Row]]] = {}

    def of(self, results: list[CaseResult], names: tuple[str, ...]) -> list[Row]:
        rows: list[Row] = []
        for r in results:
            key = (id(r), names)
            if key not in self._kept:
                self._kept[key] = (r, _case_rows(r, names))  # the case kept alive: its id stays its own
            rows += self._kept[key][1]
        return rows


def fit_logistic(rows: list[Row], iterations: int = 50, l2: float = L2) -> tuple[list[float], float]:
    """The L2-penalised logistic fit, on standardised features (the penalty weighs each feature
    alike, whatever its unit: a cosine lead spans 0.1 where a z-score spans 5), weights given back
    on the raw scale."""
    k = len(rows[0][0])
    means = [sum(x[j] for x, _ in rows) / len(rows) for j in range(k)]
    spreads = [math.sqrt(sum((x[j] - means[j]) ** 2 for x, _ in rows) / len(rows)) for j in range(k)]
    active = [j for j in range(k) if spreads[j] > 0]
    w, b = _newton([([(x[j] - means[j]) / spreads[j] for j in active], y) for x, y in rows], iterations, l2)
    weights = [0.0] * k
    for j, v in zip(active, w, strict=True):
        weights[j] = v / spreads[j]
        b -= v * means[j] / spreads[j]
    return weights, b


def _newton(rows: list[Row], iterations: int, l2: float) -> tuple[list[float], float]:
    """Newton's method on the L2-penalised log-loss (few features: a pure-Python solve suffices;
    sums run column by column, the nested screen fits some 1,600 models)."""
    data = [[1.0, *x] for x, _ in rows]
    labels = [y for _, y in rows]
    k = len(data[0])
    columns = [[xs[i] for xs in data] for i in range(k)]
    pairs = [(i, j) for i in range(k) for j in range(i, k)]
    products = {(i, j): list(map(operator.mul, columns[i], columns[j])) for i, j in pairs}
    w = [0.0] * k
    for _ in range(iterations):
        ps = [1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, sum(map(operator.mul, w, xs)))))) for xs in data]
        residuals = [p - y for p, y in zip(ps, labels, strict=True)]
        variances = [p * (1 - p) for p in ps]
        grad = [sum(map(operator.mul, residuals, columns[i])) for i in range(k)]
        hess = [[0.0] * k for _ in range(k)]
        for i, j in pairs:
            hess[i][j] = hess[j][i] = sum(map(operator.mul, variances, products[i, j]))
        for i in range(1, k):
            grad[i] += l2 * w[i]
            hess[i][i] += l2
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
