"""Fitting a sentence head (bot/reader/sentences.py `Head`): the reader's one logistic regression.

Both fitting benches call `fit_head`: bench/fit_reader.py (the conversation heads,
bot/data/reader_chat.json) and bench/fit_reader_sentences.py (the postmortem heads,
bot/data/reader_sentences.json). Each keeps the recipe its shipped coefficients were fitted with,
so refitting reproduces them:

- "batch": full-batch gradient descent from zero, the gradient averaged over the rows, each class
  weighted to half the total;
- "adagrad": one row at a time with AdaGrad step sizes, a positive weighted by the negatives per
  positive, a negative by 1.

Both weigh the classes in the same ratio (the positives are few) and put the L2 penalty on the
weights, never the bias. "batch" also fits on top of a head fitted before (`offsets`: each row's fixed score, that
head's bias and weights; the bias is then not fitted, the offsets hold it): bench/fix_head.py weighs two new feature
groups on the shipped fix head so. Deterministic: the same rows give the same head. Not used at run time (the
bot only reads the fitted coefficients). With numpy (the `bench` extra) the batch steps run on arrays
(bench/outcome_head.py fits hundreds of heads one organisation out); without it, the same steps in pure
Python, so the test install still fits. Both give the same coefficients to ~1e-12.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Literal

from bot.reader.sentences import Head, sigmoid

try:
    import numpy as np
except ImportError:  # the `bench` extra not installed: the pure-Python steps below
    np = None

Steps = Literal["batch", "adagrad"]


def fit_head(
    rows: Sequence[tuple[Collection[str], bool | int]],
    *,
    steps: Steps,
    epochs: int,
    rate: float,
    l2: float,
    threshold: float = 0.5,
    keep: int = 2,
    offsets: Sequence[float] | None = None,
) -> Head:
    """A logistic head over the feature names of `rows` ((features, label) pairs, label 1 when the
    sentence says the head's field). Feature names are weighted in the order they are first seen.
    `offsets` ("batch" only): each row's fixed score from a head fitted before; the bias stays 0 (they hold it)."""
    if offsets is not None and (steps != "batch" or len(offsets) != len(rows)):
        raise ValueError("offsets: one per row, batch steps only")
    names = list(dict.fromkeys(name for features, _ in rows for name in features))
    index = {name: i for i, name in enumerate(names)}
    examples = [([index[name] for name in features], 1 if label else 0) for features, label in rows]
    if steps == "batch":
        bias, weights = _batch(examples, len(names), epochs=epochs, rate=rate, l2=l2, offsets=offsets)
    else:
        bias, weights = _adagrad(examples, len(names), epochs=epochs, rate=rate, l2=l2)
    return Head(bias, dict(zip(names, weights, strict=True)), threshold, keep)


def _batch(  # noqa: ANN202
    rows: list[tuple[list[int], int]],
    width: int,
    *,
    epochs: int,
    rate: float,
    l2: float,
    offsets: Sequence[float] | None = None,
):
    n = len(rows)
    positives = sum(y for _, y in rows)
    if not positives or positives == n:
        raise ValueError(f"batch fitting needs both positive and negative rows ({positives} of {n} rows positive)")
    balance = {1: n / (2 * positives), 0: n / (2 * (n - positives))}
    if np is not None:
        return _batch_arrays(rows, width, balance, epochs=epochs, rate=rate, l2=l2, offsets=offsets)
    w, b, fixed = [0.0] * width, 0.0, offsets or [0.0] * n
    for _ in range(epochs):
        grad, grad_b = [0.0] * width, 0.0
        for (row, y), z0 in zip(rows, fixed, strict=True):
            g = (sigmoid(z0 + b + sum(w[i] for i in row)) - y) * balance[y]
            grad_b += g
            for i in row:
                grad[i] += g
        if offsets is None:
            b -= rate * grad_b / n
        for i in range(width):
            w[i] -= rate * (grad[i] + l2 * w[i]) / n
    return b, w


def _batch_arrays(  # noqa: ANN202
    rows: list[tuple[list[int], int]],
    width: int,
    balance: dict[int, float],
    *,
    epochs: int,
    rate: float,
    l2: float,
    offsets: Sequence[float] | None = None,
):
    """_batch's steps, step for step (the same clamp, averaging and penalty), on numpy arrays. The rows stay sparse:
    each row's feature indices, summed by np.bincount, as a feature named twice in a row counts twice in _batch."""
    n = len(rows)
    cols = np.fromiter((i for row, _ in rows for i in row), dtype=np.intp)
    of_row = np.repeat(np.arange(n), [len(row) for row, _ in rows])
    y = np.array([y for _, y in rows], dtype=float)
    weight = np.where(y == 1, balance[1], balance[0])
    fixed = np.zeros(n) if offsets is None else np.asarray(offsets, dtype=float)
    w, b = np.zeros(width), 0.0
    for _ in range(epochs):
        z = fixed + b + np.bincount(of_row, weights=w[cols], minlength=n)
        g = (1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0))) - y) * weight
        if offsets is None:
            b -= rate * float(g.sum()) / n
        w -= rate * (np.bincount(cols, weights=g[of_row], minlength=width) + l2 * w) / n
    return b, [float(v) for v in w]


def _adagrad(rows: list[tuple[list[int], int]], width: int, *, epochs: int, rate: float, l2: float):  # noqa: ANN202
    positives = sum(y for _, y in rows) or 1
    balance = {1: (len(rows) - positives) / positives, 0: 1.0}
    w, g2 = [0.0] * width, [1e-6] * width
    b, b_g2 = 0.0, 1e-6
    for _ in range(epochs):
        for row, y in rows:
            g = (sigmoid(b + sum(w[i] for i in row)) - y) * balance[y]
            b_g2 += g * g
            b -= rate * g / math.sqrt(b_g2)
            for i in row:
                gi = g + l2 * w[i]
                g2[i] += gi * gi
                w[i] -= rate * gi / math.sqrt(g2[i])
    return b, w
