"""bench/fields_blind.py (issue 23): the root cause and the fix stored by an importer, scored as bench/reading_eval.py
scores them, over fold A's reports the importer ran on."""

from __future__ import annotations

from bench import fields_blind
from bot.importer.scoring import Truth


def _truth(file: str, cause: list[str], fix: list[str]) -> Truth:
    return Truth(
        file=file, date=None, service=None, not_an_incident=False, root_cause_keywords=cause, fix_keywords=fix,
        failed_attempts=[], fold="A",
    )  # fmt: skip


def test_a_field_counts_where_labelled_and_where_its_reader_ran() -> None:
    truths = [
        _truth("a.md", ["disk full"], ["rolled back"]),
        _truth("b.md", [], ["restarted the pods"]),
        _truth("c.md", ["expired certificate"], []),  # its reader did not run: not counted
    ]
    stored = {
        "a.md": {"cause": "The disk full on db1 stopped writes", "fix": "Restarted"},
        "b.md": {"cause": "", "fix": "We restarted the pods"},
        "c.md": None,
    }
    assert fields_blind.scored(truths, stored) == {"cause": [1, 1], "fix": [1, 2]}
