"""Metadata told by its shape, as postmortems outside the corpus write it (issue 23): a `Key: value`
line whose key names no cause or fix, a table's column names or totals, front matter written into the
text, an estimate of how long recovery takes. None of it may become the stored fix or cause, and a
real cause or fix written as "Root cause: …" / "Resolution: …" must still be read."""

from __future__ import annotations

import pytest

from bot.reader import is_metadata, without_metadata
from tests.test_reader_metadata import imported


@pytest.mark.parametrize(
    "line",
    [
        # a key about who or what it hit, with a phrase for its value
        "**Additional impact:** checkout pages slow for shoppers in the EU, some HTTP 500 errors",
        "- **Affected contract:** the lending pool on the main chain",
        "User impact: nobody could upload avatars",
        # a key about the incident with a name, a place or a label for its value
        "Incident commander: Priya N.",
        "- Region: eu-west-2",
        "Reviewers: the platform team",
        # any key whose value is a figure, a date or a reference
        "Attacker profit: 146,577 USDC (net, after fees)",
        "- Pool state after halt: 39,372 USDC + 22 tokens (~$41,340)",
        "Ref: https://status.example.org/incident/911580",
        "Tracking: [the incident issue](https://example.org/issues/12)",
        # front matter written into the text
        "resolved_on: 2020-11-15 18:30:00",
        "resolvedDate: 2021-05-20 19:43",
        "clusters: [de, uk]",
        # a table's column names, a totals row
        "| Holder | Share | Shortfall |",
        "| **Total** | | **25,622.41** | **1,473.58** |",
        # how long recovery is expected to take, the share it hit
        "They are expecting a 10 hours recovery.",
        "We expect to recover the vast majority of instances within the next hour.",
        "The bug hit 0.07% of free tier databases.",
        # the incident as the subject of what it did to the service
        "Some of these outages caused the site to become unavailable to users for long stretches.",
    ],
)
def test_a_line_of_this_shape_is_metadata(line: str) -> None:
    assert is_metadata(line), line
    assert without_metadata(line) == "", line


@pytest.mark.parametrize(
    "line",
    [
        "Root cause: the certificate on the load balancer had expired",
        "Resolution: restarted the proxy on every node",
        "Fix: rolled back to 1.4.2",
        "Workaround: 2 more replicas were added",
        "Resolved by: rolling back the release",
        "Trigger: a config push to all regions",
        "Update: the root cause was a full disk on db-1",
        "Incident: disk full on db-1",
        "Resilver is launched: `zpool replace tank sdb`",
        "Around 17:55 I restarted mongod: RAM went back to 50%",
        "Thurs 07:28 PDT: a hotfix is pushed and the rollout begins",
        "Restarted services: the relays were restarted one by one and watched as they took connections",
        "The credentials were revoked within the next few minutes.",
        "A bad config push caused the API to become unavailable.",
    ],
)
def test_a_cause_fix_or_step_with_a_colon_is_not_metadata(line: str) -> None:
    assert not is_metadata(line), line
    assert without_metadata(line) == line


HEADER_BLOCK = """# Queue stall on 3 February

**Period:** February 3rd 2025 18:50 UTC to 19:20 (30 minutes)
**Additional impact:** dashboards slow to render, some HTTP 500 errors
**Incident commander:** Priya N.
**Ref:** https://status.example.org/incident/4242

## Summary

The job queue stopped draining and new jobs waited for half an hour.

## Root cause

Root cause: a worker deploy removed the queue's consumer group, so no worker read from it.

## Resolution

Resolution: we recreated the consumer group and restarted the workers.
"""


def test_a_header_block_stays_out_of_the_cause_and_the_fix_which_are_still_read() -> None:
    draft = imported(HEADER_BLOCK)
    assert "consumer group" in draft.root_cause
    assert "recreated the consumer group" in draft.resolution
    for header in ("30 minutes", "dashboards slow", "Priya", "status.example.org"):
        assert header not in draft.root_cause
        assert header not in draft.resolution


STATUS_ONLY = """# Instances unreachable in one zone

## Update

Our provider reports a failure in the datacenter's power equipment. They are expecting a 10 hours recovery.

## Resolution

Total loss: ~$15,000 in credits
"""


def test_an_estimate_and_a_loss_are_never_stored_as_the_fix() -> None:
    draft = imported(STATUS_ONLY)
    fix = draft.resolution or ""
    assert "10 hours" not in fix
    assert "$15,000" not in fix
