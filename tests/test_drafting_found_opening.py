"""How it was found, told in the opening message of an issue opened after the fact (issue 23, r23-convfound): a
sentence that opens with the source read over a window of the incident as the subject of what it showed ("Logs around
that incident indicate …"), or with a look at a source that sets the scene ("While browsing the bot's log I noticed
…"). The opening report otherwise is not how it was found: a log named as the symptom's witness ("The logs show the
job fails"), a notice, a report. Small texts written by us: a behaviour check, not a measure
(bench/reading_eval_conversations.py is the measure; docs/BENCHMARKS.md, issue 23, r23-convfound)."""

from __future__ import annotations

import pytest

from tests.test_drafting_conversations import draft

REPLY = ("ben", "Thanks, closing.")

OPENING_TELLS_HOW = [
    "Short outage last night, fixed by restarting the worker. Logs around that window indicate the queue filled up.",
    "Uploads stopped. While browsing the uploader's logs I noticed it retrying one file forever.",
    "Site was slow for an hour. Upon checking the dashboards, I saw the database at 100% CPU.",
]


@pytest.mark.parametrize("opening", OPENING_TELLS_HOW)
def test_an_opening_that_names_the_source_read_is_how_it_was_found(opening: str) -> None:
    result = draft(("ana", opening), REPLY)
    assert result.diagnosis is not None and result.diagnosis.quotes[0].author == "ana"
    assert opening.split(". ", 1)[1][:15].lower() in result.diagnosis.text.lower()


OPENING_IS_THE_REPORT = [
    "The logs show the upload job fails every night.",
    "Just noticed the site is down, not sure since when.",
    "We received multiple emails this morning that downloads fail.",
    "I checked the dashboard and the record points elsewhere now.",
]


@pytest.mark.parametrize("opening", OPENING_IS_THE_REPORT)
def test_the_opening_report_is_not_how_it_was_found(opening: str) -> None:
    assert draft(("ana", opening), REPLY).diagnosis is None
