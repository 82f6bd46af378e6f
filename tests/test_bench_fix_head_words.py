"""bench/fix_head_words.py (issue 23, r23-fix2): the threshold it chooses drafts fewer wrong fixes and fewer fixes where
none is labelled than the cue head (precision first), and the head it writes keeps the cue weights and only the words
just fitted (a second run does not keep the words of the first)."""

from __future__ import annotations

from collections import Counter

import pytest

from bench import fix_head_words as bench
from bot.reader import conversation


def test_the_chosen_threshold_drafts_fewer_wrong_and_fewer_where_none() -> None:
    base = Counter(right=10, wrong=5, where_none=8)
    grid = {
        0.6: Counter(right=14, wrong=6, where_none=7),  # more right, but a wrong fix more
        0.65: Counter(right=12, wrong=4, where_none=8),  # as many where none
        0.7: Counter(right=11, wrong=4, where_none=7),
        0.75: Counter(right=11, wrong=3, where_none=6),  # as many right: the higher threshold
        0.8: Counter(right=9, wrong=2, where_none=5),
    }
    assert bench.choose(base, grid) == 0.75
    with pytest.raises(SystemExit):
        bench.choose(base, {0.6: Counter(right=14, wrong=5, where_none=7)})


def test_the_written_head_keeps_the_cue_weights_and_only_the_new_words() -> None:
    shipped = conversation.shipped_models().heads["fix"]
    cues = {name: w for name, w in shipped.weights.items() if not name.startswith(bench.WORD_PREFIXES)}
    head = bench.merged({"w:restart": 0.5}, 0.7, "test").heads["fix"]
    assert head.threshold == 0.7 and head.bias == shipped.bias
    assert head.weights == {**cues, "w:restart": 0.5}
    again = bench.merged({"w:purg": 0.25}, 0.7, "test").heads["fix"]
    assert again.weights == {**cues, "w:purg": 0.25}  # the shipped file's own words are not kept either
    assert any(name.startswith(bench.WORD_PREFIXES) for name in shipped.weights)
