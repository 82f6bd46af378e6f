"""A status blog's timeline entries that only say the state (issue 23, bench/devset_metadata batch tuning-orgs-4): the
importer stores a restoring entry as "<when> — <text>", and an entry that says "Incident closed." or "The node is
back online." after its time is metadata as it is without it. An entry naming the step keeps its time and its words."""

from __future__ import annotations

import pytest

from bot.reader import without_metadata
from tests.test_reader_metadata import imported


@pytest.mark.parametrize(
    "line",
    [
        "2021-06-02 14:20 UTC — Incident closed.",
        "2021-06-02 14:05 UTC — All build hosts are back to normal operation.",
        "2021-06-02 13:58 UTC — mirror2 is back up and all packages are reachable again.",
        "14:20 - Incident resolved.",
    ],
)
def test_a_timeline_entry_that_only_says_the_state_is_cut_with_its_time(line: str) -> None:
    assert without_metadata(line) == ""


@pytest.mark.parametrize(
    "line",
    [
        "2021-06-02 13:40 UTC — Failed over to the standby database node.",
        "13:40: Replaced the faulty disk and restarted the array.",
        "13:40 — The mirror came back up after we renewed its certificate.",
    ],
)
def test_a_timeline_entry_naming_a_step_keeps_its_time_and_words(line: str) -> None:
    assert without_metadata(line) == line


STATUS_BLOG = """# Mirror outage

#### ISSUE:
We are experiencing a problem with the package mirror that impacts the operation of several build hosts.

#### CAUSE:
A failed power supply in the mirror's storage shelf.

#### TIMELINE:
* [2021-06-02 13:30 UTC] Incident opened.
* [2021-06-02 13:45 UTC] Swapped the power supply of the storage shelf.
* [2021-06-02 14:05 UTC] All build hosts are back to normal operation.
* [2021-06-02 14:20 UTC] Incident closed.
"""


def test_a_status_blogs_closing_entries_are_never_the_stored_fix() -> None:
    draft = imported(STATUS_BLOG)
    assert "power supply" in draft.root_cause
    fix = draft.resolution or ""
    assert "Incident closed" not in fix
    assert "back to normal operation" not in fix


@pytest.mark.parametrize(
    "line",
    [
        # what someone is seeing or has met, told with no why
        "A small number of compute instances in the AMS2 region have experienced an unexpected restart.",
        "We are seeing elevated error rates on the upload API.",
        "*Investigating* - Some customers are experiencing intermittent errors when creating buckets.",
        # the cause still being looked for, a blank in words, the trouble gone
        "*Resolved* - This incident has been resolved. Root cause analysis is still underway.",
        "Not yet determined.",
        "*Resolved* - The behavior is no longer exhibiting.",
        "2021-06-02 13:20 UTC — Some hosts come back online.",
    ],
)
def test_a_status_pages_symptom_blank_or_state_is_never_stored(line: str) -> None:
    assert without_metadata(line) == ""


@pytest.mark.parametrize(
    "line",
    [
        # a why, a trigger or a fault named: a cause, kept
        "We are seeing errors because the upload disk filled up.",
        "Users were seeing 502 errors after the load balancer deploy.",
        "The primary node experienced a disk failure.",
        "The root cause was not yet determined, so we failed over to the standby.",
        "The errors are no longer occurring after we rolled back the release.",
    ],
)
def test_a_symptom_told_with_its_why_or_a_fault_is_kept(line: str) -> None:
    assert without_metadata(line) == line


def test_a_state_a_sites_shortcode_closes_is_cut_and_a_step_it_closes_is_kept() -> None:
    assert (
        without_metadata('*Resolved* - The errors are no longer occurring. {{< track "2021-06-02 14:20:00" >}}') == ""
    )
    step = 'We rebooted the storage controller. {{< track "2021-06-02 14:10:00" >}}'
    assert without_metadata(step) == step
