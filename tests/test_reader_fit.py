"""The reader's one fitting routine (bot/reader/fit.py): both benches fit their heads with it."""

from __future__ import annotations

import pytest

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
