"""Metadata by its structure, from organisations new to the development set (issue 23, bench/devset_metadata
batch tuning-orgs): a status page's word that a part of the service is up, whatever the part is called; work
under way on the incident itself; a handle alone; a duration told with "~", "just under" or in words. None may
become the stored fix or cause; a state told with its means, a fix or a release as the subject, and a state
followed by what went wrong ("…, but our IP addresses were out of date") are still read."""

from __future__ import annotations

import pytest

from bot.reader import is_metadata, without_metadata
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
