"""The logistic fit of the recall judgement (bench/fit_recall_judgement.py): a case's rows (each
match's evidence and whether it is the right memory) and the L2-penalised fit on them. With numpy (the
`bench` extra) the Newton steps run on arrays, some 30 times faster (docs/BENCHMARKS.md, r27 numpy: the
nested screen and the halves fit thousands of models); without it, the same steps in pure Python, so the
test install still fits. Both give the same coefficients to ~1e-12. Split out of fit_recall_judgement.py
as it was; that module still exports these names."""

from __future__ import annotations

import math
import operator

from bot.replay_report import CaseResult

try:
    import numpy as np
except ImportError:  # the `bench` extra not installed: the pure-Python steps below
    np = None

L2 = 1.0
"""On standardised features (fit_logistic): every feature is penalised alike, whatever its unit."""

Row = tuple[list[float], int]
Arrays = tuple["np.ndarray", "np.ndarray"]
"""A run of rows as numpy arrays: the evidence (one row a match), whether each is the right memory."""


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
    are the same lists in the same order as rows_of's, so every fit is the same to the bit; with
    numpy, each case's rows are kept as arrays and joined (turning lists into arrays was most of a
    numpy fit)."""

    def __init__(self) -> None:
        self._kept: dict[tuple[int, tuple[str, ...]], tuple[CaseResult, list[Row] | Arrays]] = {}

    def of(self, results: list[CaseResult], names: tuple[str, ...]) -> list[Row] | Arrays:
        kept = []
        for r in results:
            key = (id(r), names)
            if key not in self._kept:  # the case kept alive: its id stays its own
                rows = _case_rows(r, names)
                self._kept[key] = (r, rows if np is None else _arrays(rows, len(names)))
            kept.append(self._kept[key][1])
        if np is None:
            return [row for rows in kept for row in rows]
        return np.concatenate([x for x, _ in kept]), np.concatenate([y for _, y in kept])


def _arrays(rows: list[Row], features: int) -> Arrays:
    x = np.array([r[0] for r in rows], dtype=float).reshape(len(rows), features)
    return x, np.array([r[1] for r in rows], dtype=float)


def fit_logistic(rows: list[Row] | Arrays, iterations: int = 50, l2: float = L2) -> tuple[list[float], float]:
    """The L2-penalised logistic fit, on standardised features (the penalty weighs each feature
    alike, whatever its unit: a cosine lead spans 0.1 where a z-score spans 5), weights given back
    on the raw scale. `rows`: a list, or CaseRows' arrays (numpy)."""
    if np is not None:
        return _fit_arrays(*(rows if isinstance(rows, tuple) else _arrays(rows, len(rows[0][0]))), iterations, l2)
    k = len(rows[0][0])
    means = [sum(x[j] for x, _ in rows) / len(rows) for j in range(k)]
    spreads = [math.sqrt(sum((x[j] - means[j]) ** 2 for x, _ in rows) / len(rows)) for j in range(k)]
    active = [j for j in range(k) if spreads[j] > 0 and len({x[j] for x, _ in rows}) > 1]  # as _fit_arrays
    w, b = _newton([([(x[j] - means[j]) / spreads[j] for j in active], y) for x, y in rows], iterations, l2)
    weights = [0.0] * k
    for j, v in zip(active, w, strict=True):
        weights[j] = v / spreads[j]
        b -= v * means[j] / spreads[j]
    return weights, b


def _fit_arrays(x: np.ndarray, y: np.ndarray, iterations: int, l2: float) -> tuple[list[float], float]:
    """fit_logistic's standardisation and Newton steps (_newton's, step for step: the same clip, penalty and
    stopping rule) on numpy arrays."""
    means = x.mean(axis=0)
    spreads = np.sqrt(((x - means) ** 2).mean(axis=0))
    # a feature the same on every row carries nothing: its mean of a non-round value (0.3) is off by float noise,
    # which standardising would blow up into a feature taking part of the intercept's weight
    active = (spreads > 0) & (x.max(axis=0) > x.min(axis=0))
    data = np.hstack([np.ones((len(y), 1)), (x[:, active] - means[active]) / spreads[active]])
    penalty = np.full(data.shape[1], l2)
    penalty[0] = 0.0  # the intercept is not penalised
    w = np.zeros(data.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(data @ w, -30.0, 30.0)))
        grad = data.T @ (p - y) + penalty * w
        hess = (data.T * (p * (1 - p))) @ data + np.diag(penalty)
        try:
            step = np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:  # only without a penalty (l2=0) on features that move together
            step = np.linalg.lstsq(hess, grad, rcond=None)[0]
        w = w - step
        if np.abs(step).max() < 1e-7:
            break
    weights = np.zeros(x.shape[1])
    weights[active] = w[1:] / spreads[active]
    intercept = w[0] - float((w[1:] * means[active] / spreads[active]).sum())
    return [float(v) for v in weights], float(intercept)


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
