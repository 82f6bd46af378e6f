"""The reader's one fitting routine (bot/reader/fit.py): both benches fit their heads with it."""

from __future__ import annotations

import math
import random

import pytest

import bot.reader.fit as reader_fit
from bot.reader.fit import fit_head

# "rolled" says the fix, "checked" does not; "the" is in every sentence and tells nothing
ROWS = [({"w:the", "w:rolled"}, True)] * 3 + [({"w:the", "w:checked"}, False)] * 12


@pytest.mark.parametrize("steps", ["batch", "adagrad"])
def test_a_fitted_head_tells_the_sentences_that_say_the_field_from_those_that_do_not(steps: str) -> None:
    head = fit_head(ROWS, steps=steps, epochs=200, rate=0.5, l2=1.0, threshold=0.6, keep=1)
    assert head.probability(["w:the", "w:rolled"]) > 0.6 > head.probability(["w:the", "w:checked"])
    assert head.weights["w:rolled"] > 0 > head.weights["w:checked"]
    assert (head.threshold, head.keep) == (0.6, 1)
    assert fit_head(ROWS, steps=steps, epochs=200, rate=0.5, l2=1.0, threshold=0.6, keep=1) == head


def test_batch_fitting_with_one_class_only_is_refused() -> None:
    with pytest.raises(ValueError, match="both positive and negative"):
        fit_head([({"w:the"}, False)] * 4, steps="batch", epochs=10, rate=0.5, l2=1.0)


def test_the_batch_fit_with_numpy_gives_the_pure_python_head(monkeypatch: pytest.MonkeyPatch) -> None:
    # the bench extra's numpy makes one-organisation-out fits fast (bench/outcome_head.py); a figure must not depend
    # on it. Rows with a feature named twice, a row with none, a feature only the negatives have.
    pytest.importorskip("numpy")
    rng = random.Random(3)
    rows: list[tuple[list[str], bool]] = [(["w:rolled", "w:rolled", "w:back"], True), ([], False)]
    for _ in range(300):
        y = rng.random() < 0.25
        words = [f"w:{rng.randrange(40)}" for _ in range(rng.randrange(1, 6))]
        rows.append(([*words, "w:fix"] if y and rng.random() < 0.7 else [*words, "w:saw"] if not y else words, y))
    fast = fit_head(rows, steps="batch", epochs=150, rate=1.0, l2=1.0)
    monkeypatch.setattr(reader_fit, "np", None)
    slow = fit_head(rows, steps="batch", epochs=150, rate=1.0, l2=1.0)
    assert fast.weights["w:fix"] > 0 > fast.weights["w:saw"]
    assert fast.weights.keys() == slow.weights.keys()
    assert math.isclose(fast.bias, slow.bias, abs_tol=1e-9)
    assert all(math.isclose(fast.weights[k], slow.weights[k], abs_tol=1e-9) for k in slow.weights)


def test_a_fit_on_top_of_an_earlier_head_keeps_its_score_and_weighs_only_the_new_features(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`offsets` (bench/fix_head.py's offset reading, review F4): each row's score from a head fitted before; the bias
    is not fitted, so a row without the new feature scores its offset alone, with or without numpy."""
    earlier = {"w:rolled": 2.0, "w:checked": -2.0}
    rows = [({"w:rolled", "w:new"}, True)] * 2 + [({"w:checked"}, False)] * 6 + [({"w:checked", "w:new"}, True)] * 2
    offsets = [-1.0 + sum(earlier.get(f, 0.0) for f in fs - {"w:new"}) for fs, _ in rows]
    new_only = [(fs & {"w:new"}, y) for fs, y in rows]
    head = fit_head(new_only, steps="batch", epochs=200, rate=0.5, l2=1.0, offsets=offsets)
    assert head.bias == 0.0 and set(head.weights) == {"w:new"} and head.weights["w:new"] > 0
    monkeypatch.setattr(reader_fit, "np", None)
    slow = fit_head(new_only, steps="batch", epochs=200, rate=0.5, l2=1.0, offsets=offsets)
    assert slow.bias == 0.0 and math.isclose(slow.weights["w:new"], head.weights["w:new"], abs_tol=1e-9)
    with pytest.raises(ValueError, match="one per row"):
        fit_head(new_only, steps="batch", epochs=10, rate=0.5, l2=1.0, offsets=offsets[1:])
    with pytest.raises(ValueError, match="0 of 6 rows positive"):
        fit_head([(set(), False)] * 6, steps="batch", epochs=10, rate=0.5, l2=1.0, offsets=[0.0] * 6)
