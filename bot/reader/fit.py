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
weights, never the bias. Deterministic: the same rows give the same head. Pure Python, not used at
run time (the bot only reads the fitted coefficients).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Literal

from bot.reader.sentences import Head, sigmoid

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
) -> Head:
    """A logistic head over the feature names of `rows` ((features, label) pairs, label 1 when the
    sentence says the head's field). Feature names are weighted in the order they are first seen."""
    names = list(dict.fromkeys(name for features, _ in rows for name in features))
    index = {name: i for i, name in enumerate(names)}
    examples = [([index[name] for name in features], 1 if label else 0) for features, label in rows]
    fitted = _batch if steps == "batch" else _adagrad
    bias, weights = fitted(examples, len(names), epochs=epochs, rate=rate, l2=l2)
    return Head(bias, dict(zip(names, weights, strict=True)), threshold, keep)


def _batch(rows: list[tuple[list[int], int]], width: int, *, epochs: int, rate: float, l2: float):  # noqa: ANN202
    n = len(rows)
    positives = sum(y for _, y in rows)
    if not positives or positives == n:
        raise ValueError("batch fitting needs both positive and negative rows")
    balance = {1: n / (2 * positives), 0: n / (2 * (n - positives))}
    w, b = [0.0] * width, 0.0
    for _ in range(epochs):
        grad, grad_b = [0.0] * width, 0.0
        for row, y in rows:
            g = (sigmoid(b + sum(w[i] for i in row)) - y) * balance[y]
            grad_b += g
            for i in row:
                grad[i] += g
        b -= rate * grad_b / n
        for i in range(width):
            w[i] -= rate * (grad[i] + l2 * w[i]) / n
    return b, w


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
