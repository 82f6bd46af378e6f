"""How it was found, where real reports and channels tell it (issue 23, r23-found): a timeline written as
paragraphs, a report received or a user's note in the present tense, a recovery told later in the same
sentence, and in a channel the alert or the log a responder names, never the opening report. Small texts
written by us: a behaviour check, not a measure (bench/reading_eval.py and
bench/reading_eval_conversations.py are the measure)."""

from __future__ import annotations

from bot.importer.markdown import parse_markdown
from tests.test_drafting_conversations import draft
from tests.test_reader_found import found


def test_a_timeline_written_as_paragraphs_is_read_for_how_it_was_found() -> None:
    text = """# Database outage

## Summary

The primary database server lost a drive and the service was down for two hours.

## Timeline

At 11:17 UTC one drive disappeared from the RAID array of the primary database server. Our monitoring
fired, and the hosting provider confirmed the issue.

By 13:20 UTC the array was rebuilt and the service was back.

## Root cause

A failed drive in the primary database server.
"""
    memory = parse_markdown(text, team_id="T", incident_id="pm-prose")
    assert "Our monitoring fired" in (memory.diagnosis or "")
    assert "timeline's prose" in memory.provenance.fields["diagnosis"]


def test_reports_received_and_a_users_note_told_in_the_present_are_how_it_was_found() -> None:
    said = [
        "Soon after rolling out the image we started receiving reports that simulators no longer launched.",
        "A user from team Booking notifies us on Slack that their environment is down.",
    ]
    assert found(*said) == said
    assert not found("We keep getting error messages from the build script.")  # the symptom, not a report


def test_a_recovery_told_later_in_the_sentence_does_not_undo_how_it_was_found() -> None:
    said = "The outage was discovered and reported internally by 22:50 GMT and resolved at 23:01 GMT."
    assert found(said) == [said]
    # the recovery is what was seen, or came first: not how the incident was found
    assert not found("Chris notices the pod is working again.")
    assert not found("Once the service was restored, users reported that old links were broken.")


def test_in_a_channel_the_alert_a_responder_names_is_how_it_was_found() -> None:
    result = draft(
        ("ana", "The site certificate has expired, browsers refuse to connect"),
        ("ben", "Ack -- got an alert earlier this morning. Renewing it now."),
        ("ben", "Renewed, all green"),
    )
    assert result.diagnosis is not None and "got an alert earlier this morning" in result.diagnosis.text
    assert result.diagnosis.quotes[0].author == "ben"


def test_in_a_channel_the_opening_report_or_someone_noticing_too_is_not_how_it_was_found() -> None:
    result = draft(
        ("ana", "Just noticed that the documentation site is down with a 404, the logs show nothing"),
        ("ben", "Yeah, noticed this as well."),
        ("cy", "Fixed the pages config, it is back"),
    )
    assert result.diagnosis is None
