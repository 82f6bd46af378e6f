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
    ],
)
def test_a_cause_or_a_fix_is_not_metadata(line: str) -> None:
    assert not is_metadata(line)
    assert without_metadata(line) == line


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
