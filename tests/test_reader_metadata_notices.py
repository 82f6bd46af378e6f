"""Metadata in a service notice's prose (issue 23, bench/devset_metadata's tuning-orgs-5: research-infrastructure
notices outside both folds): the cause said found and never told, the harm to come, a state and what the users are
asked to do, the progress made, a volume of data and what became of it, a phase of the response with its time. None
may be stored as the fix or the cause; a cause, a step or a recovery told with the same words is still read."""

from __future__ import annotations

import pytest

from bot.reader import cues_metadata_shape, without_metadata
from bot.reader.fix import names_no_cause
from bot.reader.metadata_kind import metadata_kind
from tests.test_reader_metadata import imported
from tests.test_reading_limits import unbounded_then_more


@pytest.mark.parametrize(
    "line",
    [
        # the cause said found, never told, and the work to come
        "The root cause of the problem has been identified and work is currently underway to resolve it.",
        "We have identified the underlying cause of this problem and working with colleagues to get this resolved.",
        "The cause has been identified and our team is working extremely hard (including out of hours) to resolve this.",
        "The root cause has now been identified.",
        # the harm to come
        "This will have wide-reaching effects across the platform and the archive services.",
        "It may cause some disruption to running jobs.",
        # a state, and what the users are asked to do
        '{{<alert type="info">}}Issues now resolved, please report any further problems.{{</alert>}}',
        "A separate issue with the scratch storage from earlier in the week is now resolved: if any further issues are "
        "encountered with it, please wait until the above issues are resolved before reporting to the helpdesk.",
        # where to ask, what to do meanwhile, that it may trouble them, the progress made, who is on it with whom
        "If you have any further issues, please contact the helpdesk.",
        "Please do not contact the helpdesk.",
        'Please watch for further updates on the {{<link "status">}}status page{{</link>}}.',
        "We appreciate this may cause some difficulties: the system team is actively engaged with the storage vendor on "
        "this issue to find a solution.",
        "We are making good progress with recovering data back into the archive and have made significant progress.",
        "The storage vendor is engaged with the system team's investigation.",
        # a volume of data and what became of it
        "Over 1.6 Petabytes of data have been recovered to a holding area - 1.3 Petabytes of this has now been moved to "
        "its correct location.",
        "As a result of this incident, approximately 5 Petabytes of data have been deleted from the archive.",
    ],
)
def test_a_notices_line_of_that_shape_is_never_stored_as_a_fix_or_a_cause(line: str) -> None:
    assert without_metadata(line) == "", line


@pytest.mark.parametrize(
    "line",
    [
        "The cause has been identified: a full disk on the primary database.",
        "The root cause has been identified as an expired certificate on the load balancer.",
        "We have identified the cause of the problem because the logs showed a failed disk.",
        "The issue was resolved by restarting the proxy, please report any further problems.",
        "It was resolved after we moved the disk, please let us know if it recurs.",
        "A bad deploy will have effects on the cache.",
        "2TB of logs filled the disk and the database stopped.",
        "We freed 20GB of old snapshots to bring the volume back.",
        "Our team engaged with the vendor and replaced the controller.",
        "We made progress by restarting the workers one at a time.",
        "The issue was resolved at 14:32 by restarting the pod.",
    ],
)
def test_a_cause_or_a_step_told_with_those_words_is_read(line: str) -> None:
    assert without_metadata(line) != "", line


def test_a_phase_with_its_time_goes_and_the_step_in_the_same_sentence_stays() -> None:
    kept = without_metadata(
        "The issue was identified at approximately 12:07, the archive was locked down preventing further loss by "
        "approximately 12:25, and the incident was fully diagnosed by 14:00."
    )
    assert kept == "the archive was locked down preventing further loss by approximately 12:25.", kept


def test_a_state_closed_by_a_shortcode_is_cut_from_the_sentence_glued_behind_it() -> None:
    kept = without_metadata(
        '{{<alert type="info">}}Issues now resolved, please report any further problems.{{</alert>}} '
        "We replaced the failed controller in the storage array."
    )
    assert kept == "We replaced the failed controller in the storage array.", kept


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("The root cause of the problem has been identified and work is currently underway to resolve it.", "status"),
        ("Issues now resolved, please report any further problems.", "status"),
        ("This will have wide-reaching effects across the platform.", "impact"),
        ("Approximately 5 Petabytes of data have been deleted from the archive.", "impact"),
    ],
)
def test_each_shape_is_counted_under_its_kind_not_as_other(line: str, kind: str) -> None:
    assert metadata_kind(line) == kind


def test_a_service_notice_stores_its_cause_and_step_without_its_status_lines() -> None:
    draft = imported(
        "# Archive incident\n\n"
        "During the migration of data in the archive, a mistake was made which resulted in some data being deleted. "
        "The root cause of the problem has been identified and work is currently underway to resolve it.\n\n"
        "## Resolution\n\n"
        "We restored the deleted directories from the tape backup. "
        "Over 1.6 Petabytes of data have been recovered to a holding area. "
        "This will have wide-reaching effects across the archive services.\n"
    )
    assert draft.resolution is not None and "restored the deleted directories" in draft.resolution
    for said in ("Petabytes", "wide-reaching effects"):
        assert said not in draft.resolution, draft.resolution
    assert draft.root_cause is None or "work is currently underway" not in draft.root_cause, draft.root_cause


@pytest.mark.parametrize(
    "name",
    ["CAUSE_FOUND_UNTOLD", "IMPACT_FORECAST", "STATE_THEN_ASK", "VOLUME_TOLD", "PHASE_AT_TIME", "DOWNTIME_TALLY"],
)
def test_the_notice_patterns_cannot_backtrack_over_a_crafted_line(name: str) -> None:
    assert unbounded_then_more(getattr(cues_metadata_shape, name)) == []


@pytest.mark.parametrize(
    "line",
    [
        "We have tracked down the root cause and are working to resolve it.",
        "We have confirmed the cause and are working to fix it.",
        "The root cause has been established.",
        "The underlying root cause has now been understood.",
    ],
)
def test_the_cause_said_found_and_not_told_is_one_meaning_read_alike(line: str) -> None:
    # the reader's cause check and its metadata shapes read one list of the verbs of finding a cause: a status page's
    # "we have tracked down the root cause" is neither a cause nor anything but a status line, however it is worded
    assert names_no_cause(line), line
    assert metadata_kind(line) == "status", line
    assert names_no_cause(line.replace("the root cause", "the culprit").replace("the cause", "the culprit")), line


def test_a_downtime_tally_is_never_the_cause_though_it_says_due_to() -> None:
    # a yearly operational summary above the year's notices: its share of downtime "due to external factors" and its
    # categories ("Unscheduled downtimes due to power outage:") tally hours, they are not why this incident happened
    draft = imported(
        "# Incidents 2024\n\n"
        "### Operational Summary for 2024\n\n"
        "* Full downtime:\n\n"
        "  - Unscheduled: 142.3 hours (= 5.9 days) = 1.6%\n"
        "  - External factors: 36% of the above downtime, corresponding to 114 hours (= 4.8 days), were due to "
        "external factors\n\n"
        "#### Unscheduled downtimes due to power outage\n\n"
        "* Occurrences:\n"
        "  - 2024-03-14 (13.0 hours)\n\n"
        "### March 14, 2024\n\n"
        "**Notice**: The file system is down. This is because a disk chassis that hosts part of the home folders "
        "crashed.\n"
    )
    assert draft.root_cause is not None and "a disk chassis" in draft.root_cause, draft.root_cause
    for said in ("External factors", "downtimes due to power outage", "36%"):
        assert said not in draft.root_cause, draft.root_cause
    assert metadata_kind("Unscheduled downtimes due to power outage:") == "duration"
    # a downtime said to be due to something is a cause, not a tally
    assert without_metadata("The downtime was due to a failed disk.") == "The downtime was due to a failed disk."
