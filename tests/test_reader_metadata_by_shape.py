"""Metadata told by its shape, whatever an organisation's words (issue 23: what leaked on organisations the rules
had never seen): a status page's talk (sorry, waiting for someone, no news yet, kept open), what the users could not
do while it lasted, a count of what it hit or left waiting, a status label and a bare state ("*Update* Resolved."),
an impact table's row ending in a duration. None may be stored as the fix or the cause; a step, a cause or a
recovery told with the same words ("We pulled the routes while we await the upstream fix", "600 pending pods stuck
because of a missing secret", "It was resolved by restarting the proxy") is still read."""

from __future__ import annotations

import pytest

from bot.reader import cues_metadata_shape, without_metadata
from tests.test_reader_metadata import imported
from tests.test_reading_limits import unbounded_then_more


@pytest.mark.parametrize(
    "line",
    [
        # a status page's talk: sorry, waiting for someone, no news yet, kept open, no time known
        "Appologies for the long resolution time.",
        "Our operator team apologizes for the problem and the downtime.",
        "Sorry about the trouble!",
        "*Update* We still await the upstream fix",
        "We are waiting on a response from the datacenter.",
        "No update from the provider yet.",
        "No upstream response so far.",
        "Will keep this incident open until we know more.",
        "A resolution time is unknown.",
        # watching, with news or a look for the cause to come; where to ask
        "We're monitoring the system and will shortly update",
        "We are monitoring affected systems closely and investigating the root cause.",
        "Our engineers are monitoring the service and will keep you posted.",
        "If you have any questions or concerns, please feel free to contact us.",
        # a note on the report itself
        "Note: We most likely forgot writing this post mortem properly, so this file is here as a placeholder.",
        "This document is a draft.",
        "Timestamps are approximate.",
        "All times approximate.",
        "Numbers based on https://status.example.com/",
        # what the users could not do while it lasted
        "During this period, ticket submission to todo.sr.ht failed.",
        "During this period, customers were unable to open the dashboard or start new builds.",
        "Builds that need containers were blocked in this window.",
        "Certain dashboard features are interrupted during this time.",
        "Deployments are paused until this was fixed.",
        # a count of what it hit or left waiting
        "Telemetry showed this affected 316,378 requests between 11:03 and 11:42.",
        "There were 3300 requests waiting to be handled.",
        "There are 94 pending pods and ten full nodes.",
        # who or what it hit, said with "affected", whatever the subject is called
        "Multiple DE accounts are affected.",
        "Five LP positions were affected.",
        "- k8s02: not affected",
        "These are affecting some Discover services.",
        "This issue only affected devices attempting joins or downlinks.",
        "Any app that is hosted on or makes requests to `mapserv.utah.gov` is affected including:",
        # telling the users about it
        "notifying the community of the app outage.",
        "Throughout the disruption, the team worked to keep users up to date on the status.",
        "The community was asked to be patient at this time.",
        "We will continue to provide updates on our status page until the services are fully restored.",
        # a status label and a bare state, naming no step
        "*Update* Resolved.",
        "*Update* - Looks resolved.",
        "**Update** Situation seems to be resolving.",
        "There has been a Packit outage now resolved.",
        "This incident is now closed.",
        # an impact table's row: what it hit and for how long
        "| `seerr` (Overseerr) | Completely unavailable; pod could not start | ~31m |",
        "| radarr | writes failing | 43 min |",
    ],
)
def test_a_line_of_that_shape_is_never_stored_as_a_fix_or_a_cause(line: str) -> None:
    assert without_metadata(line) == "", line


@pytest.mark.parametrize(
    "line",
    [
        "We rolled back the deploy in 5 minutes.",
        "The nodes were rebooted in under 20 minutes.",
        "We failed over 3 nodes to the secondary region.",
        "We dropped 500 stale connections from the pool.",
        "We restarted the broker and are sorry for the noise.",
        "During the outage we could not reach the console, so we rebooted the host over IPMI.",
        "I restarted the pods, which came back within 2 minutes.",
        "We have pulled routes from the region while we await the upstream fix.",
        "We are temporarily removing london from the mix while we await the GTT resolution.",
        "During this time we failed over to the secondary database.",
        "During this period the queue backed up because the worker had crashed.",
        "We apologise: the outage was caused by a bad deploy of the router.",
        "The cron job ran for 3 hours and filled the disk.",
        "| 10:39 | restarted the pod on k8s02 | ops |",
        "There were 600 pending pods stuck because the secret was missing.",
        "*Update* issue was found upstream and resolved.",
        "It was resolved by restarting the proxy.",
        "Traffic is routed around the PoP.",
        "Users can replay the functions that failed during this time range.",
        "We currently await Akamai to fix their internal networking.",
        "This postmortem describes an outage caused by a bad deploy of the router.",
        "Timestamps were rough because the NTP daemon had crashed on the host.",
        "Numbers were estimated from the logs after the disk filled because of a bug.",
        "A bad deploy of the router affected the API.",
        "Users were affected by a bad deploy of the router.",
        "All regions were affected because the config was global.",
        "The EU region was affected after the upgrade to 2.3.",
        "Any builds that were affected during the outage have been restarted.",
        "We scanned the file system to find which files were affected and restored them.",
        "IP routing does not appear to have been affected, suggesting the 502s come from the CDN's tiers.",
        "We rolled back the deploy and notified customers.",
        "We kept customers informed because the fix needed a maintenance window.",
        # what broke or what was done, then who it hit: the cause or the step is read
        "The primary database ran out of disk and every write was affected.",
        "A faulty network switch dropped packets and our EU customers were affected.",
        "The cron job deleted the index and search was affected.",
    ],
)
def test_a_step_or_a_cause_told_with_those_words_is_read(line: str) -> None:
    assert without_metadata(line) != "", line


def test_an_apology_opening_the_fix_goes_and_the_fix_stays() -> None:
    kept = without_metadata(
        "Appologies for the resolution time, this was a difficult issue to resolve that required IPMI access to each "
        "server. We have disabled the problematic locations."
    )
    assert "ppolog" not in kept
    assert "required IPMI access to each server" in kept and "disabled the problematic locations" in kept


def test_a_status_pages_resolution_section_keeps_the_fix_without_its_talk_and_its_harm() -> None:
    draft = imported(
        "# Routing issues in London\n\n"
        "## Root cause\n\nA line card in the upstream router failed and dropped our announcements.\n\n"
        "## Resolution\n\n"
        "*Update* We still await the upstream fix\n\n"
        "During this period, customers were unable to reach the London servers.\n\n"
        "We withdrew the London routes and moved the traffic to Amsterdam. No update from the carrier yet.\n"
    )
    assert draft.resolution is not None
    assert "withdrew the London routes" in draft.resolution
    for said in ("await the upstream fix", "were unable to reach", "No update from the carrier"):
        assert said not in draft.resolution, draft.resolution


def test_a_status_pages_watching_and_a_note_on_the_report_are_no_cause() -> None:
    draft = imported(
        "# Hub unreachable\n\n"
        "## Root cause\n\nThe load balancer's certificate expired. We're monitoring the system and will shortly update\n\n"
        "## Resolution\n\nWe renewed the certificate and reloaded the load balancer.\n\nTimestamps are approximate.\n"
    )
    assert draft.root_cause is not None and "certificate expired" in draft.root_cause
    assert "monitoring" not in draft.root_cause, draft.root_cause
    assert draft.resolution is not None and "renewed the certificate" in draft.resolution
    assert "approximate" not in draft.resolution, draft.resolution


def test_who_was_affected_is_no_cause_and_the_cause_stays() -> None:
    draft = imported(
        "# Connection issues in DE\n\n"
        "## Root cause\n\nOur upstream provider's router in Frankfurt dropped the BGP session. "
        "Multiple DE accounts are affected.\n\n"
        "## Resolution\n\nWe moved the DE traffic to the Amsterdam uplink. These are affecting some chat widgets.\n"
    )
    assert draft.root_cause is not None and "dropped the BGP session" in draft.root_cause
    assert "accounts are affected" not in draft.root_cause, draft.root_cause
    assert draft.resolution is not None and "moved the DE traffic" in draft.resolution
    assert "affecting" not in draft.resolution, draft.resolution


@pytest.mark.parametrize(
    "name",
    [
        "TALK_ONLY",
        "HARM_IN_THE_SPAN",
        "DURATION_CELL",
        "COUNT_OF_HARM",
        "STATE_WORD_ONLY",
        "REPORT_NOTE",
        "AFFECTED_ONLY",
    ],
)
def test_the_shape_patterns_cannot_backtrack_over_a_crafted_line(name: str) -> None:
    assert unbounded_then_more(getattr(cues_metadata_shape, name)) == []
