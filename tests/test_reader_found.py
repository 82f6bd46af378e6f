"""How an incident was found, as the one reader tells it (issue 23): the first sign — an alert, a
report, a graph, a log — and never a missing alert, a critique or a failure said to go on. Small
texts written by us: a behaviour check, not a measure (bench/reading_eval.py is the measure)."""

from __future__ import annotations

from bot.importer.markdown import parse_markdown
from bot.reader import Kind, Statement, read


def found(*said: str) -> list[str]:
    statements = [Statement(text, ref=f"timeline entry {i}", section="timeline") for i, text in enumerate(said)]
    return [f.text for f in read(statements).of(Kind.FOUND)]


def test_a_report_of_the_failure_is_how_it_was_found_whatever_failure_it_tells() -> None:
    said = [
        "Users report all launches are failing with a 'took too long to launch' error.",
        "The hub log shows that it failed due to a bad configuration parameter.",
        "The support team reported that they were unable to publish content.",
    ]
    assert found(*said) == said


def test_a_failure_said_to_go_on_or_a_critique_before_the_cue_is_not_how_it_was_found() -> None:
    assert not found("Users report the site is still down after the restart.")
    assert not found("It took us two hours before users reported the problem.")


def test_a_month_named_may_is_not_a_hedge() -> None:
    said = "On May 12 2025 we received a support ticket about servers taking 15 minutes to start."
    assert found(said) == [said]
    assert not found("Users may report slow starts while the image is pulled.")


def test_reports_from_the_people_a_service_has_and_from_outside_are_how_it_was_found() -> None:
    said = [
        "Students report that their notebooks keep dying.",
        "A report in the course forum said that two students could not start their servers.",
        "Jay reported the bug to us via security@example.org.",
        "The discord user @sam notified the core-devs-channel on the project's discord.",
        "Peter posted a message on the site-feedback Slack channel that some articles were missing.",
    ]
    assert found(*said[:3]) == said[:3]
    assert found(*said[3:]) == said[3:]


def test_a_graph_looked_at_and_a_detection_in_quotes_are_how_it_was_found() -> None:
    said = [
        "This was noticed because Tim happened to look at grafana.",
        'This was "detected" by members noticing failures.',
    ]
    assert found(*said) == said


def test_telling_others_advice_or_a_responder_s_update_is_not_how_it_was_found() -> None:
    assert not found("I've invalidated all affected tokens and notified the impacted project maintainers.")
    assert not found("It's a good idea to look at the proxmox graph about disk usage, it is easier to read.")
    assert not found("Engineer reports the issue still persists after the restart.")


def test_a_postmortem_that_is_only_a_timeline_is_read_as_one() -> None:
    text = (
        "1436 - alert that the CDN check has failed\n1436 - acknowledged\n1438 - attempted ssh\n"
        "        - eventually timed out\n1441 - stopping the instance\n1443 - starting the instance\n"
        "1446 - complete, all green\n\nThe monitoring reported about 11 minutes of downtime.\n"
    )
    draft = parse_markdown(text, team_id="T", incident_id="pm-t", name="2020-05-26-cdn-outage.md")
    assert "alert that the CDN check has failed" in draft.diagnosis
    assert "timeline entry" in draft.provenance.fields["diagnosis"]
    prose = "# CDN outage\n\nAt 14:36 the CDN check failed. We restarted the instance at 14:43 and it recovered.\n"
    assert "timeline entry" not in parse_markdown(prose, team_id="T", incident_id="pm-p").provenance.fields.get(
        "diagnosis", ""
    )
