"""Metadata is never a fix or a cause: what an importing team would see in the stored memory."""

from __future__ import annotations

import pytest

from bot.importer.markdown import parse_markdown
from bot.reader import is_metadata, strip_metadata, without_metadata


def imported(text: str):  # noqa: ANN201 - a MemoryDraft
    return parse_markdown(text, team_id="T", incident_id="pm-1", name="2024-03-18-checkout.md")


@pytest.mark.parametrize(
    "line",
    [
        "Time to resolve: 31 minutes",
        "**Duration:** 1h 20m",
        "| Time to detect | ? |",
        "- Customer impact: N/A",
        "N/A",
        "?",
        "Started: 2024-03-18 14:05 - 15:20 UTC",
        "Error rate: 99.5 %",
        "Funds at risk: $1.2M",
        "RAM : OK.",
        "> CRITICALs: /rpool/off/products is 99.51 (outside range [:98]).",
        "Monitor is DOWN: checkout api",
        "We apologise for any inconvenience.",
        "A lot of requests are being rejected.",
        "A number of hosts have already been compromised.",
        "Over the course of 19 minutes, we dropped 10 of our ~500 upstream connections.",
        "This caused 21 incoming emails to be wrongfully rejected.",
        "The journal was unavailable for approximately 1hr, 9mins.",
        "Our monitoring showed that about 4% of download requests were failing.",
        "No downtime, no services apparently affected.",
        "**Impact**: Integration tests failing on the client library, pre-prod environment down.",
        "Symptom: 502 Bad gateway on the support site",
        "No personal information was disclosed nor retained.",
        "**Update: 14 Aug 2017 09:35** - All services back to normal.",
        "We are happy to report that everything has been stable for a number of hours so we are resolving this issue.",
        "2020-05-21 05:07 — Luke notes that the issue is now resolved",
        "18:18 — @nova Confirms queues are draining and systems are stabilizing",
        "| 02-13 11:56 | 1674 | 485 | 958 | 598 |",
        "gke-prow-default-pool-116f5d3e-bl6h   2349m   59%   3519Mi   28%",
        "[Yuvi to fill in the right technical information]",
        "(TODO: add the graph)",
        "11:17 AM — All clear given for datahub.example.edu",
        "We gave the all-clear at 11:35.",
        "The API and CLI remain functional.",
        "The data center provider continue to work towards resolving the problem.",
        "We are working to get the remaining ones back online.",
    ],
)
def test_a_field_figure_alert_or_boilerplate_line_is_metadata(line: str) -> None:
    assert is_metadata(line)
    assert without_metadata(line) == ""


@pytest.mark.parametrize(
    "line",
    [
        "Root cause: a bad deploy of the payments service",
        "Fix: rolled back to v1.2",
        "We restarted the database and errors stopped.",
        "The renewal job had been failing silently for 30 days after the token was revoked.",
        "An unexpected Redis failure caused a partial outage of the git service.",
        "The issue was resolved by restarting the proxy.",
        "Service was restored after we moved the volume to a new disk.",
        "2021-08-24 10:00 — released 1.10.8 with the fix",
        "# 2018-10-10: Diff Service Locked Up the Whole Cluster",
        "(the cache was full, so we had to add a node)",
        "The all-clear alarm was disabled by the upgrade, so nobody was paged.",
        # watching said beside the step taken: the step is the fix, not a status page's stock line
        "We are monitoring the database and rolled back the deploy.",
        "We are monitoring the API and restarted the workers.",
        "We will continue to monitor the queue and have drained the stuck jobs.",
    ],
)
def test_a_cause_or_a_fix_is_not_metadata(line: str) -> None:
    assert not is_metadata(line)
    assert without_metadata(line) == line


@pytest.mark.parametrize(
    "line",
    [
        # the watching beside a state word, not a step: the stock line still (r23-meta, 2026-12-06: one list of the
        # words that tell a thing done, cues_metadata_state.DONE_WORD, without the states that look like one)
        "We are monitoring the situation and related alerts.",
        "We will continue to monitor the cluster and affected hosts.",
    ],
)
def test_the_watching_beside_a_state_word_is_never_stored(line: str) -> None:
    assert is_metadata(line)
    assert without_metadata(line) == ""


def test_an_authors_note_left_to_fill_in_is_not_stored_with_the_cause() -> None:
    said = "A dependency upgrade broke the image build. [Yuvi to fill in the right technical information]"
    assert without_metadata(said) == "A dependency upgrade broke the image build."


def test_a_figure_in_a_clause_of_its_own_leaves_the_cause_beside_it() -> None:
    said = "This evening we were the target of a significant DDoS attack, approximately 75Gbit/s in size."
    assert strip_metadata(said) == "This evening we were the target of a significant DDoS attack."


@pytest.mark.parametrize("value", ["31 minutes", "N/A", "?"])
def test_a_time_to_resolve_section_is_never_the_stored_fix(value: str) -> None:
    # "Time to resolve" reads as a resolution heading; its value is a duration or a blank, not a fix
    draft = imported(f"# Checkout down\n\nThe checkout API returned errors.\n\n## Time to resolve\n\n{value}\n")
    assert draft.resolution is None


def test_a_time_to_resolve_line_is_never_the_stored_fix() -> None:
    draft = imported(
        "# Checkout outage\n\n## Resolution\n\nTime to resolve: 31 minutes\n\n"
        "## Root cause\n\n- Impact: N/A\n\nAn expired TLS certificate on the payments gateway.\n"
    )
    assert not draft.resolution or "31 minutes" not in draft.resolution
    assert draft.root_cause == "An expired TLS certificate on the payments gateway."


def test_a_status_pages_update_line_under_the_title_gives_the_root_cause() -> None:
    draft = imported(
        "---\ntitle: Purple server outage\n---\n\n"
        "Some routine maintenance to the server has taken it offline. We are investigating the issue.\n\n"
        "**Update: 21.48** - The root cause was found to be some file corruption in the main operating system. "
        "This has now been repaired and all services are operating properly again.\n\n"
        "Apologies for any inconvenience.\n"
    )
    assert "file corruption in the main operating system" in draft.root_cause
    assert "inconvenience" not in (draft.root_cause + (draft.resolution or ""))


def test_a_ddos_attacks_size_stays_out_of_the_stored_cause() -> None:
    draft = imported(
        "# Outage of the mail servers\n\nWe are getting high packet loss to our mail servers.\n\n"
        "This evening at approximately 1AM we were the target of a significant DDoS attack, "
        "approximately 75Gbit/s in size.\n"
    )
    assert "significant DDoS attack" in draft.root_cause
    assert "75Gbit/s" not in draft.root_cause


def test_a_status_pages_word_on_the_state_is_never_the_stored_fix() -> None:
    draft = imported(
        "---\ntitle: Mail delivery delayed\n---\n\n"
        "Outgoing mail is queued and delivery is delayed.\n\n"
        "**Update: 19:40** - All systems are back to normal now, but we're monitoring closely.\n"
    )
    assert draft.resolution is None  # empty is honest: the page never says what fixed it
    assert "resolution" not in draft.provenance.fields


def test_the_action_before_a_state_only_timeline_entry_is_still_the_fix() -> None:
    draft = imported(
        "# Queues stuck\n\n## Timeline\n\n"
        "- 18:02 queues stop draining\n"
        "- 18:10 @sam restarted the ingress workers\n"
        "- 18:18 @nova confirms that all systems are back to normal\n"
    )
    assert "restarted the ingress workers" in draft.resolution
    assert "back to normal" not in draft.resolution
