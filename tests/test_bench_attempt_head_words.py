"""bench/fix_head_words.py --kind attempt (issue 23, r23-attwords): the threshold it chooses drafts fewer wrong failed
attempts and loses at most one real one (precision first), the head it writes keeps the attempt head's cue weights and
the fix head's words as shipped, and the file's record tells each head's words once."""

from __future__ import annotations

from collections import Counter

import pytest

from bench import fix_head_words as bench
from bot.reader import conversation


def test_the_chosen_attempt_threshold_drafts_fewer_wrong_and_loses_at_most_one_real() -> None:
    base = Counter(right=45, wrong=24)
    grid = {
        0.7: Counter(right=45, wrong=27),  # every real one, but more wrong
        0.79: Counter(right=44, wrong=26),
        0.88: Counter(right=44, wrong=18),
        0.91: Counter(right=42, wrong=16),  # fewer wrong still, but two real ones lost
    }
    assert bench.choose(base, grid, "attempt") == 0.88
    with pytest.raises(SystemExit):
        bench.choose(base, {0.9: Counter(right=43, wrong=10), 0.7: Counter(right=46, wrong=24)}, "attempt")


def test_the_written_attempt_head_keeps_its_cues_and_the_fix_head_as_shipped() -> None:
    shipped = conversation.shipped_models()
    cues = {n: w for n, w in shipped.heads["attempt"].weights.items() if not n.startswith(bench.WORD_PREFIXES)}
    model = bench.merged({"w:restart": -0.5}, 0.88, "test", "attempt")
    head = model.heads["attempt"]
    assert head.bias == shipped.heads["attempt"].bias and head.keep == shipped.heads["attempt"].keep
    assert head.threshold == 0.88 and head.weights == {**cues, "w:restart": -0.5}
    assert model.heads["fix"] == shipped.heads["fix"] and model.heads["cause"] == shipped.heads["cause"]


def test_the_record_tells_each_heads_words_once() -> None:
    record = "fold A as at e85f757; the fix head's words fitted, threshold 0.69"
    once = bench.said(record, "attempt", "the attempt head's words fitted, threshold 0.88")
    assert once == f"{record}; the attempt head's words fitted, threshold 0.88"
    again = bench.said(once, "attempt", "the attempt head's words fitted, threshold 0.85")
    assert again == f"{record}; the attempt head's words fitted, threshold 0.85"
    assert bench.said(again, "fix", "the fix head's words fitted, threshold 0.7") == (
        "fold A as at e85f757; the fix head's words fitted, threshold 0.7; the attempt head's words fitted, threshold 0.85"
    )
