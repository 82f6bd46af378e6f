"""Metadata by its structure, from organisations new to the development set (issue 23, bench/devset_metadata
batch tuning-orgs): a status page's word that a part of the service is up, whatever the part is called; work
under way on the incident itself; a handle alone; a duration told with "~", "just under" or in words. None may
become the stored fix or cause; a state told with its means, a fix or a release as the subject, and a state
followed by what went wrong ("…, but our IP addresses were out of date") are still read."""

from __future__ import annotations

import pytest

from bot.reader import is_metadata, without_metadata
from bot.reader.read import without_unknown_cause
from tests.test_reader_metadata import imported


@pytest.mark.parametrize(
    "line",
    [
        # the state of a part of the service, any part, naming no step
        "**Resolved -** All the compute infrastructure is up and running.",
        "The Backup system was restored and currently up.",
        "Batch/Grid Storage - GPFS is operational.",
        "Object Storage is operational",
        "The login service in the cloud is working well now.",
        "Furthermore, the dashboard and the CLI are available again.",
        "Some of them are already recovered, but the rest are waiting for a manual check.",
        "The problem is already solved.",
        "Problem solved",
        # work under way on the incident itself, and watching it
        "We are working on solving this issue.",
        "We are currently trying to recover the service.",
        "We are working on it.",
        "Monitoring the situation.",
        # a handle alone: who wrote it
        "[@someone](https://github.com/someone)",
        # how long, with "~", "just under" or in words; what stopped during the incident's own span
        "Downtime was ~30 hours.",
        "The shop went down and was unavailable for twenty minutes.",
        "The blog was down for just under 7 hours.",
        "- All transactions for the two apps were non-functional during the downtime.",
    ],
)
def test_a_line_that_is_a_value_or_a_state_is_metadata(line: str) -> None:
    assert is_metadata(line), line
    assert without_metadata(line) == "", line


@pytest.mark.parametrize(
    "line",
    [
        "A fix is available in version 2.3.",
        "The cluster is healthy again after we drained node-3.",
        "The job was running fine until the disk filled up.",
        "We restarted the server and it is up again.",
        "The database was restored from the nightly backup.",
        "We are working on it by failing over to the replica.",
        "An openstack problem was detected with neutron dhcp, we are trying to solve the problem.",
        "The gateways were fully functional again, but our public IP addresses were now out of date.",
        "The hub pod was up but the log was full of sqlite errors.",
        "But as filebeat was still running, a new log file was created and the disk filled again.",
        "https://mariadb.com/kb/en/configuring-mariadb-for-optimal-performance/",
        "[eth_config](https://hackmd.io/@someone/eth_config).",
        "The backend has been rebuilt.",
        "It is now running on an 8 vCPU/32 GB RAM system.",
    ],
)
def test_a_state_with_its_means_a_fix_or_what_went_wrong_is_not_metadata(line: str) -> None:
    assert not is_metadata(line), line


STATUS_ENTRY = """---
section: issue
title: Cloud infrastructure is down
date: 2021-01-11T14:15:00.000Z
status: resolved
max_severity: down
duration: ""
resolved_on: 2021-01-11T15:15:30.824Z
---
**Identified** - Accidental power break in the computing room.

**Resolved -** All the cloud infrastructure is up and running.
"""


def test_a_status_entry_that_only_says_it_is_up_stores_no_fix_and_keeps_its_cause() -> None:
    draft = imported(STATUS_ENTRY)
    assert "power break" in draft.root_cause
    assert "up and running" not in (draft.resolution or "")
    assert "up and running" not in draft.root_cause


@pytest.mark.parametrize(
    "line",
    [
        # a share of who or what it hit
        "About 40% of builds failed during the window.",
        "Half of the nodes were down.",
        "12% of customers saw errors.",
        "Validators representing 35% of voting power were offline.",
        # a chain's height as where it stopped, a window told in heights
        "The chain halted at block 1,234,567.",
        "No blocks were produced between heights 100 and 200.",
        # how long, after the fact or without a figure; who could not, for how long
        "Service was restored after 45 minutes.",
        "Users could not log in for 20 min.",
        "New jobs can take hours before being processed.",
        # the clock of the timeline, with its offset
        "(all times are UTC+2)",
        "All timestamps are in UTC.",
        # what followed, told as a state
        "As a result, we have a long-standing queue, and new jobs can take hours before being processed.",
        "Consequently, users were unable to log in.",
        # … and a state with a past's shape is a state still (bot/reader/cues_metadata_state.py DONE_WORD)
        "As a result, Binder service was degraded with periodic outages of 10-30 minutes.",
        "As a result, many upstream connections were affected.",
        # a status page's regrets, progress and forecasts
        "Sorry for any interruption over the past 5 minutes.",
        "*Update* Upstream confirms that the issue is taking longer than expected to resolve.",
        "Eastern US may experience higher than expected latency until the situation is resolved.",
        "Services will return online when upstream resolves.",
    ],
)
def test_a_share_a_height_a_span_or_a_forecast_is_metadata(line: str) -> None:
    assert is_metadata(line), line
    assert without_metadata(line) == "", line


@pytest.mark.parametrize(
    "line",
    [
        "100% of traffic was shifted to the new cluster.",
        "We moved 100% of traffic to the new cluster.",
        "The chain was restarted at height 1,234,600 with the patched binary.",
        "The service was restored after 45 minutes by failing over to the replica.",
        "As a result, we rolled back the deploy.",
        "As a result, the scheduler was restarted with a higher memory limit.",
        "As a result, the node was taken out of rotation.",
        "This meant the variable was set to 9.09% instead of 6.98%.",
        "Users may see SSL warnings to say that the certificate expired today.",
        "A fix will be deployed tomorrow.",
    ],
)
def test_a_step_or_a_cause_told_with_these_words_is_not_metadata(line: str) -> None:
    assert not is_metadata(line), line


def test_a_halt_height_leaves_the_reason_told_after_it() -> None:
    assert "apphash mismatch" in without_metadata("The chain halted at block 1,234,567 due to an apphash mismatch.")


def test_no_information_on_the_cause_is_no_cause() -> None:
    assert without_unknown_cause("No information currently on the cause or status.") == ""


FORECAST_ENTRY = """---
title: "Routing issues in New York"
resolved: true
severity: disrupted
---

*Investigating* - A fibre cut at our upstream provider took the New York routes down.

*Update* New York has been routed around by moving the traffic to the Newark uplink.
Eastern US may experience higher than expected latency until the situation is resolved.
"""


def test_a_forecast_after_the_step_is_not_stored_with_the_fix() -> None:
    draft = imported(FORECAST_ENTRY)
    assert "may experience" not in (draft.resolution or "")
    assert "may experience" not in (draft.root_cause or "")


@pytest.mark.parametrize(
    "line",
    [
        # that it runs as it should again, whatever runs
        "Everything is operating normally.",
        "Error rates have returned to normal levels.",
        "Blocks are being produced again.",
        "Transactions are being processed normally.",
        "Block production resumed at 14:07 UTC.",
        "The backlog has been processed.",
        "Queues have drained.",
        "Performance has improved.",
        "All services are operating normally and we continue to monitor.",
        # a reading that rose or fell, with the reading as its subject
        "Block time increased to 30s.",
        # a status page's stock words on its states
        "The issue has been identified and a fix is being implemented.",
        "Postmortem to follow.",
        "We are seeing recovery across all regions.",
        "We consider this incident resolved.",
        "The incident is over.",
        "This is now fixed.",
        "Fixed.",
    ],
)
def test_a_word_that_it_runs_again_or_a_reading_moved_is_metadata(line: str) -> None:
    assert is_metadata(line), line
    assert without_metadata(line) == "", line


@pytest.mark.parametrize(
    "line",
    [
        "We increased the timeout to 30s.",
        "The timeout was increased to 30s.",
        "Memory usage increased to 95% because of a leak in the cache.",
        "The database has stabilized after we added an index.",
        "Performance has improved with the new cache settings.",
        "It came back online and was uncordoned.",
        "We have rolled out a fix and are monitoring the API for stability.",
        "This is resolved using: a reboot with PCI disabled in the BIOS.",
    ],
)
def test_a_step_beside_a_state_or_a_reading_is_not_metadata(line: str) -> None:
    assert not is_metadata(line), line
