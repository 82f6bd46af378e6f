"""A small linear classifier over named features, shipped as coefficients: pure Python at run time.

A statement is described by the names of the features it has (the cue groups of
bot/reader/cues.py it matches, where it stands in the conversation, who says it); each kind of
finding has a bias, a weight per feature name and a threshold. Its score is the logistic of the
bias plus the weights of the features present. The coefficients are fitted by bench/fit_reader.py
on one fold of a labelled corpus (logistic regression, L2, classes balanced) and stored as JSON
under bot/reader/weights/, with what they were fitted on. No dependency: fitting a few thousand
sentences over a few dozen features takes seconds in plain Python.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

WEIGHTS = Path(__file__).resolve().parent / "weights"


@dataclass(frozen=True, slots=True)
class LinearModel:
    bias: float = 0.0
    weights: Mapping[str, float] = field(default_factory=dict)
    threshold: float = 1.0  # nothing passes an unfitted model

    def score(self, features: Collection[str]) -> float:
        """The model's probability that a statement with these features is of its kind."""
        z = self.bias + sum(self.weights.get(name, 0.0) for name in features)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def passes(self, features: Collection[str]) -> bool:
        return self.score(features) >= self.threshold

    def as_json(self) -> dict[str, Any]:
        return {"bias": round(self.bias, 4), "threshold": self.threshold, "weights": dict(sorted(self.weights.items()))}


@dataclass(frozen=True, slots=True)
class Models:
    """One model per kind of finding, and what they were fitted on."""

    kinds: Mapping[str, LinearModel]
    fitted_on: str = ""

    def __getitem__(self, kind: str) -> LinearModel:
        return self.kinds.get(kind, LinearModel())

    def as_json(self) -> dict[str, Any]:
        return {"fitted_on": self.fitted_on, "kinds": {k: m.as_json() for k, m in self.kinds.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Models:
        kinds = {
            kind: LinearModel(
                float(m["bias"]), {str(k): float(v) for k, v in m["weights"].items()}, float(m["threshold"])
            )
            for kind, m in data["kinds"].items()
        }
        return cls(kinds, str(data.get("fitted_on", "")))

    @classmethod
    def load(cls, path: Path) -> Models:
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))


def fit(
    examples: Sequence[tuple[Collection[str], bool]],
    *,
    threshold: float,
    l2: float = 1.0,
    epochs: int = 200,
    rate: float = 0.5,
) -> LinearModel:
    """Logistic regression by batch gradient descent, each class weighted to half the total (the
    positives are few), L2 on the weights (not the bias). Deterministic: starts from zero."""
    names = sorted({name for features, _ in examples for name in features})
    index = {name: i for i, name in enumerate(names)}
    rows = [([index[n] for n in features], 1 if label else 0) for features, label in examples]
    positives = sum(y for _, y in rows)
    n = len(rows)
    if not n or not positives or positives == n:
        return LinearModel(threshold=threshold)
    balance = {1: n / (2 * positives), 0: n / (2 * (n - positives))}
    w, b = [0.0] * len(names), 0.0
    for _ in range(epochs):
        grad, grad_b = [0.0] * len(names), 0.0
        for row, y in rows:
            z = b + sum(w[i] for i in row)
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g = (p - y) * balance[y]
            grad_b += g
            for i in row:
                grad[i] += g
        b -= rate * grad_b / n
        for i in range(len(w)):
            w[i] -= rate * (grad[i] + l2 * w[i]) / n
    weights = {name: round(w[i], 4) for name, i in index.items() if abs(w[i]) >= 1e-4}
    return LinearModel(b, weights, threshold)
