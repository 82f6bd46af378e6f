"""The guard reads a long message once: it reads it again only for what an answer asks of it.

Work is counted, never timed (tests/test_reading_limits.py counts the tokeniser; times,
docs/BENCHMARKS.md): a 40,000-character message is tokenised for the statements' support; it is
handed to concept detection only when a recalled memory's cause names a mechanism, and
normalised only when a quote is to be found in it.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import bot.investigation.evidence as guard_evidence
from bot.investigation.guard import guard
from bot.investigation.models import Hypothesis, HypothesisStatus, ModelAnswer, NowStatement
from bot.models import Incident, TimelineEntry
from bot.recall.concepts import Vocabulary
from bot.text_limits import MESSAGE_CHARS
from tests.investigation_cases import leak_memory

MESSAGE = ("pool checkout timed out on payments-api, restarted the pods " * 700)[:MESSAGE_CHARS]
STATEMENTS = [NowStatement(statement=f"the kafka broker {i} ran out of disk on node{i}") for i in range(5)]
TIMELINE = [TimelineEntry(author="maya", text=MESSAGE, at=datetime(2026, 3, 2, 9, 0, tzinfo=UTC))]


@pytest.fixture
def read(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """The characters the guard hands to concept detection and to quote normalising, added up."""
    tally = {"concepts": 0, "normalise": 0}
    detect, normalise = Vocabulary.detect, guard_evidence.normalise

    def counting_detect(self: Vocabulary, *texts: str | None) -> tuple[str, ...]:
        tally["concepts"] += sum(len(t or "") for t in texts)
        return detect(self, *texts)

    def counting_normalise(text: str) -> str:
        tally["normalise"] += len(text)
        return normalise(text)

    monkeypatch.setattr(Vocabulary, "detect", counting_detect)
    monkeypatch.setattr(guard_evidence, "normalise", counting_normalise)
    return tally


def test_no_memory_and_no_quote_the_message_is_not_read_again(read: dict[str, int]) -> None:
    result = guard(ModelAnswer(happening_now=STATEMENTS), Incident(title="Payments timeouts"), TIMELINE, [])
    assert len(result.findings.hypotheses) == 5  # all moved: the channel does not say them
    assert read["normalise"] == 0 and read["concepts"] < 1_000  # the statements' own words, not the message


def test_a_memory_naming_a_mechanism_and_a_quote_read_it_once_each(read: dict[str, int]) -> None:
    quote = "POOL CHECKOUT  timed out"
    answer = ModelAnswer(
        happening_now=STATEMENTS[:1],
        hypotheses=[Hypothesis(statement="A leak", current_evidence=[quote], status=HypothesisStatus.SUPPORTED)],
    )
    result = guard(answer, Incident(title="Payments timeouts"), TIMELINE, [leak_memory()])
    assert result.findings.hypotheses[0].current_evidence == [quote]  # found in the message
    assert result.findings.hypotheses[0].status is HypothesisStatus.SUPPORTED
    assert MESSAGE_CHARS < read["concepts"] < MESSAGE_CHARS + 5_000  # once, not per statement or per memory
    assert MESSAGE_CHARS <= read["normalise"] < MESSAGE_CHARS + 1_000  # nothing to neutralise: normalised once
