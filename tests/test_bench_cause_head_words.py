"""bench/fix_head_words.py --kind cause (issue 23, r23-causewords): the threshold it chooses drafts fewer causes that
are wrong or where none is labelled, at most one right cause fewer (precision first); the corpus's pseudonyms (u1,
hello_u1) are no word of any head (review F8, F5); the head it writes keeps the cause head's cue weights and the other
heads as shipped."""

from __future__ import annotations

from collections import Counter

import pytest

from bench import fix_head_words as bench
from bot.reader import conversation


def test_the_chosen_cause_threshold_drafts_fewer_wrong_or_where_none_and_loses_at_most_one_right() -> None:
    base = Counter(right=305, wrong=143, where_none=42)
    grid = {
        0.62: Counter(right=306, wrong=141, where_none=42),
        0.68: Counter(right=304, wrong=134, where_none=40),  # 174 wrong or where none, one right fewer
        0.70: Counter(right=304, wrong=134, where_none=41),
        0.74: Counter(right=297, wrong=130, where_none=38),  # fewer still, but eight right ones lost
    }
    assert bench.choose(base, grid, "cause") == 0.68
    with pytest.raises(SystemExit):
        bench.choose(base, {0.8: Counter(right=292, wrong=118, where_none=34)}, "cause")


def test_a_pseudonym_is_no_word_of_any_head() -> None:
    assert bench.pseudonym("w:u1") and bench.pseudonym("b:hello_u1") and bench.pseudonym("b:u12_the")
    assert not bench.pseudonym("w:up") and not bench.pseudonym("b:u1234_x") and not bench.pseudonym("w:ubuntu")
    said = {True: ("w:u1", "b:hello_u1", "w:disk"), False: ("w:thank",)}
    rows = [{"words": said[i % 2 == 0], "offset": 0.0, "holds": i % 2 == 0} for i in range(6)]
    words = bench.fit_words([{"rows": rows}])
    assert "w:disk" in words and "w:u1" not in words and "b:hello_u1" not in words


def test_the_shipped_cause_head_keeps_its_cues_and_holds_no_pseudonym() -> None:
    shipped = conversation.shipped_models()
    head = shipped.heads["cause"]
    assert "cause" in conversation.WORDED and head.threshold == 0.68
    assert not [name for name in head.weights if name.startswith(bench.WORD_PREFIXES) and bench.pseudonym(name)]
    model = bench.merged({"w:disk": 0.5}, 0.7, "test", "cause")
    cues = {n: w for n, w in head.weights.items() if not n.startswith(bench.WORD_PREFIXES)}
    assert model.heads["cause"].weights == {**cues, "w:disk": 0.5} and model.heads["cause"].bias == head.bias
    assert model.heads["fix"] == shipped.heads["fix"] and model.heads["attempt"] == shipped.heads["attempt"]


def test_no_shipped_head_holds_a_word_of_the_corpus_s_pseudonyms() -> None:
    for kind, head in conversation.shipped_models().heads.items():
        words = [name for name in head.weights if name.startswith(bench.WORD_PREFIXES)]
        assert not [name for name in words if bench.pseudonym(name)], kind
    fix = conversation.shipped_models().heads["fix"]
    assert "w:restart" in fix.weights and "b:the_trick" in fix.weights  # its other words are kept
