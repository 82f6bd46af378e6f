"""How it was found, in a channel, when a responder names the source that showed it (issue 23, r23-convatt3, then
r23-convfound). 586ce0c taught the channel reader a source named in many ways: a log, a terminal or a graph as the
subject of what it showed with words between ("The logs around that time indicate …"), named as where it was read
("According to the CI logs …", "In our logs the error reads:"), a warning in a named monitoring tool, what let someone
find it, notifications met, a look that sets the scene ("Upon inspecting the log files, …"). Each was written from one
fold-A organisation's thread; on threads no rule was written from they drafted no right line and two wrong ones
(docs/BENCHMARKS.md, r23-convfound), so the channel reader no longer takes them; a postmortem's reader still does. What
stays in a channel: a source and what it showed said together ("The logs show …", "The graphs show …"), an alert or a
page named. Never the opening report, a step of looking alone, a notice about something else, nor a log read late in a
long thread. Small texts written by us: a behaviour check, not a measure."""

from __future__ import annotations

import pytest

from tests.test_drafting_conversations import draft
from tests.test_reader_found import found

REPORT = ("ana", "The upload job fails every night since Tuesday")

SOURCE_NAMED = [
    "The worker logs around midnight indicate the disk filled up.",
    "According to the CI logs the signing step cannot read its key.",
    "In our logs the error reads: permission denied on /srv/upload.",
    "db-2 warning in Nagios about replication lag.",
    "The terminal mentioned a connection refused from the database.",
    "The error logging did its job and allowed me to find the broken key in minutes.",
    "Woke up to an email from the hosting provider about the disk.",
    "My inbox got flooded with cron failure mails overnight.",
    "Upon inspecting the log files, it seems the service restarted twice at 3am.",
    "The dashboards over the night show the memory climbing until the crash - I cannot fix it from here.",
]


@pytest.mark.parametrize("said", SOURCE_NAMED)
def test_a_source_named_in_words_no_held_out_thread_bore_out_is_not_drafted_in_a_channel(said: str) -> None:
    assert draft(REPORT, ("ben", said)).diagnosis is None
    assert found(said) or said.startswith("Upon")  # a postmortem's reader still reads them (the look: a channel's only)


SOURCE_AND_WHAT_IT_SHOWED = [
    "The logs show the disk filled up at midnight.",
    "The graphs show the memory climbing until the crash.",
    "Got an alert from Nagios about replication lag on db-2.",
]


@pytest.mark.parametrize("said", SOURCE_AND_WHAT_IT_SHOWED)
def test_a_source_and_what_it_showed_said_together_is_how_it_was_found(said: str) -> None:
    result = draft(REPORT, ("ben", said))
    assert result.diagnosis is not None and result.diagnosis.quotes[0].author == "ben"
    assert said[:15].lower() in result.diagnosis.text.lower()


NOT_HOW_FOUND = [
    "Got an email from the registry today about a new token format, haven't read it yet.",  # a notice, no source
    "Checking the logs now.",  # a step of looking, nothing seen
    "I'll look at the logs tonight.",
    "Could you send me the logs?",
]


@pytest.mark.parametrize("said", NOT_HOW_FOUND)
def test_a_notice_a_look_or_a_request_for_logs_is_not_how_it_was_found(said: str) -> None:
    assert draft(REPORT, ("ben", said)).diagnosis is None


def test_the_opening_report_naming_a_log_is_not_how_it_was_found() -> None:
    result = draft(("ana", "The logs show the upload job fails every night."), ("ben", "Looking."))
    assert result.diagnosis is None


def test_a_log_read_late_in_a_long_thread_is_not_how_it_was_found() -> None:
    talk = [REPORT] + [("ben" if i % 2 else "ana", f"Update {i}: still on it.") for i in range(1, 25)]
    result = draft(*talk, ("ben", "The logs show that the key was rotated last week."))
    assert result.diagnosis is None
    early = draft(REPORT, ("ben", "The logs show that the key was rotated last week."))
    assert early.diagnosis is not None


def test_a_figure_pointed_at_is_not_how_it_was_found() -> None:
    assert not found("The graph below shows the delay between the primary and the replica:")
    assert found("The graphs show the delay climbing from 02:10.")
