"""bench/attempt_misses_by_gate.py (issue 23, convfound): a missed labelled attempt is placed at the reader's first gate
its sentence fails, read by the shipped reader itself (the gate the figure in docs/BENCHMARKS.md names)."""

from __future__ import annotations

from bench.attempt_misses_by_gate import where_it_stops
from bot.reader.conversation import read_conversation, shipped_models
from bot.reader.conversation_features import Message


def stops(keywords: list[str], *said: tuple[str, str]) -> str:
    reading = read_conversation([Message(author, text) for author, text in said])
    return where_it_stops(reading, keywords, shipped_models())[0]


def test_a_step_told_with_no_failure_stops_at_the_failure_gate() -> None:
    assert stops(["restarted the server"], ("ana", "The site is down."), ("bo", "I restarted the server.")) == (
        "gate: no failure"
    )


def test_a_step_asked_is_vetoed_and_a_symptom_names_no_step() -> None:
    thread = (("ana", "The site is down."), ("bo", "Could you restart the server?"), ("ana", "Done, thanks."))
    assert stops(["restart the server"], *thread) == "vetoed"
    assert stops(["the site is down"], *thread) == "gate: no step"


def test_phrases_no_sentence_holds_are_no_sentence() -> None:
    assert stops(["flushed the dns cache"], ("ana", "The site is down."), ("bo", "Looking.")) == "no sentence"
