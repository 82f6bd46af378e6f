"""The conversation reader's word gates: a sentence said in no cue word reaches its kind's head when
the gate learnt from words is sure of it; the cue rules keep precedence where they speak, and the
vetoes still rule. The gates' coefficients are data (bot/data/reader_chat.json, "<kind>_words"),
fitted by bench/fit_reader.py; these tests give the reader small hand-made ones."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.drafting.rules import OfflineDrafter
from bot.models import TimelineEntry
from bot.reader import sentences as sentence_model
from bot.reader.conversation import shipped_models, use_models
from bot.reader.sentences import Head, SentenceModel, word_features
from tests.test_reading_limits import count_patterns

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SAID = "Swapped the origin to the standby pool"  # a fix in no cue word (see the first test)


def draft(*messages: tuple[str, str]):  # (author, text)
    timeline = [
        TimelineEntry(author=a, text=t, at=T0 + timedelta(minutes=i), message_ts=f"1772442{i:03d}.000100")
        for i, (a, t) in enumerate(messages)
    ]
    return OfflineDrafter().answer(timeline, [])


def models(*, fix_gate: float | None = 0.9) -> SentenceModel:
    """The shipped cue heads, and a fix gate that is sure of "swapp… origin"."""
    heads = dict(shipped_models().heads)
    heads = {k: v for k, v in heads.items() if not k.endswith("_words")}
    if fix_gate is not None:
        heads["fix_words"] = Head(-4.0, {"w:swapp": 3.0, "b:the_origin": 3.5}, threshold=fix_gate, keep=1)
    return SentenceModel(heads, "test")


@pytest.fixture
def gate() -> Iterator[None]:
    use_models(models())
    yield
    use_models(None)


def channel(*last: tuple[str, str]) -> list[tuple[str, str]]:
    return [("ana", "The site returns 502 for every page since 9:00"), ("ben", "Looking"), *last]


def test_a_fix_said_in_no_cue_word_is_drafted_when_the_word_gate_is_sure_of_it() -> None:
    talk = channel(("ben", SAID), ("ana", "Thanks"))
    use_models(models(fix_gate=None))
    try:
        without = draft(*talk)
    finally:
        use_models(None)
    assert without.resolution is None  # the cue gate does not open for it
    use_models(models())
    try:
        result = draft(*talk)
    finally:
        use_models(None)
    assert result.resolution is not None and "standby pool" in result.resolution.text
    assert result.resolution.quotes[0].author == "ben"


def test_a_gate_that_is_not_sure_enough_proposes_nothing() -> None:
    use_models(models(fix_gate=0.999))
    try:
        result = draft(*channel(("ben", SAID)))
    finally:
        use_models(None)
    assert result.resolution is None


@pytest.mark.usefixtures("gate")
def test_a_fix_in_cue_words_comes_before_the_word_gates() -> None:
    result = draft(*channel(("ben", SAID), ("ben", "We rolled back the deploy and the errors are gone")))
    assert result.resolution is not None and "rolled back" in result.resolution.text.lower()


@pytest.mark.usefixtures("gate")
def test_the_vetoes_rule_what_the_word_gate_proposes() -> None:
    result = draft(*channel(("ben", "Swapped the origin to the standby pool?"), ("ana", "Not sure")))
    assert result.resolution is None  # a question is never a fix


def test_the_words_read_of_a_sentence_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    tally = count_patterns(monkeypatch, sentence_model)
    flood = "restarted the pool again " * 2_000  # 50,000 characters
    found = word_features(flood)
    assert tally[0] <= sentence_model.MAX_SENTENCE_CHARS
    assert len(found) <= 2 * 60  # the first 60 words and their pairs
