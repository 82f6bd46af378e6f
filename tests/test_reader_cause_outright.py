"""The summary's sentence that tells the incident's cause outright is stored first, before a root cause section whose
heading names the cause (issue 23, pmcause's S): such a section may open with the method the cause was found by
("The Infinite How's Chain:") and the person reading the memory should meet the cause first. A summary sentence whose
"because" tells the harm's own why, or that says the cause is unknown, told elsewhere or only suspected, is not put
first."""

from __future__ import annotations

import pytest

from bot.reader.fix import tells_the_cause_outright
from tests.test_reader_metadata import imported

_METHOD = (
    "The Infinite How's Chain:\n\n"
    "> At each causal step, ask how rather than accepting the surface answer.\n\n"
    "How did the pod stay pending?: the scheduler never saw its ADD event."
)


def _report(summary: str, cause_section: str = _METHOD, heading: str = "Root Cause Analysis") -> str:
    return (
        "# AWX job failed: pod pending for an hour\n\n"
        f"## Executive Summary\n\n{summary}\n\n"
        f"## {heading}\n\n{cause_section}\n\n"
        "## Resolution\n\nWe restarted the kube-scheduler and the pod was scheduled.\n"
    )


def test_the_summary_that_names_the_root_cause_is_read_first() -> None:
    said = "The root cause was an RBAC gap in the calico-kube-controllers ClusterRole that had existed since creation."
    draft = imported(_report(f"An AWX job failed after its pod stayed pending. {said}"))
    assert draft.root_cause.startswith(said)
    assert "The Infinite How's Chain:" in draft.root_cause  # the section's text stays, after it


def test_a_because_that_tells_the_harm_is_not_put_first() -> None:
    draft = imported(_report("The team did not notice because there was no probe on the API and traffic was low."))
    assert draft.root_cause.startswith("The Infinite How's Chain:")


@pytest.mark.parametrize(
    "sentence",
    [
        "The root cause was a path mismatch between where Calico writes its kubeconfig and where containerd reads it.",
        "This happened because Loki, which forwards logs to S3, was running a too new and unsupported version.",
        "The issue was outdated application configuration in the manifests.",
        "We've tracked the cause down to an incompatibility between the IMAP server and our storage cluster.",
        "The outage was caused by an expired certificate on the load balancer.",
    ],
)
def test_a_cause_told_outright(sentence: str) -> None:
    assert tells_the_cause_outright(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "The team did not notice because there was no synthetic probe pointing at the API.",
        "The issue was detected by the deploy verification script and confirmed via the API logs.",
        "The cause is the same as an earlier incident.",
        "The cause of the module drop itself is **not established**.",
        "We have identified the root cause and are working on the fix.",
        "The root cause was probably a faulty disk in the array.",
        "The root cause is still unknown.",
        "Lost approximately four hours of work due to a reset of the branch.",
    ],
)
def test_no_cause_told_outright(sentence: str) -> None:
    assert not tells_the_cause_outright(sentence)


def test_a_heading_that_names_no_cause_still_reads_every_cause_sentence_first() -> None:
    # what cause_before_the_mechanism did before S, unchanged: a mechanism heading ("Technical details")
    draft = imported(
        _report(
            "The scheduler stalled due to a stale informer watch.",
            cause_section="The informer's watch had expired at 02:00 and was never renewed.",
            heading="Technical details",
        )
    )
    assert draft.root_cause.startswith("The scheduler stalled due to a stale informer watch.")
