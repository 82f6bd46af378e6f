"""Metadata said in words, as status pages and chain-halt reports outside both folds write it (issue 23,
bench/devset_metadata): who or what it hit and how long without a `Key: value` shape, a blank written as
words ("Yet to be determined"), the clock the timeline is told in, a phase of the response named alone,
a status page's stock lines. Each case is a kind seen in the development set; none may become the stored
fix or cause, and the cause or fix beside it must still be read."""

from __future__ import annotations

import pytest

from bot.reader import is_metadata, strip_metadata, without_metadata
from bot.reader.read import without_unknown_cause
from tests.test_reader_metadata import imported


@pytest.mark.parametrize(
    "line",
    [
        # a blank said in words, the clock of the timeline, a phase named alone
        "**Root causes:** Yet to be determined",
        "Trigger: under investigation",
        "2019-10-27 (all times UTC)",
        "All times approximate, in PDT.",
        "All below times in UTC.",
        "Root cause identified",
        "Issue diagnosed.",
        "Investigation ends.",
        # who is on it, naming no step; a fix that names no step
        "Our admins are investigating the issue and trying to resolve it asap.",
        "The hosting provider is investigating both failures.",
        "Our team is actively working to identify the root cause of the issue.",
        "Hosting has been contacted and are working on a fix.",
        "We have identified the issue and implemented a fix for it.",
        # watching, thanks, regrets, where the news comes next
        "We will keep monitoring the data center.",
        "We will now monitor the situation to ensure connectivity remains stable.",
        "Thank you again to our validator community for acting swiftly.",
        "We understand the inconvenience this may cause.",
        "Apologies to my user base for any inconveniences.",
        "We'll update this page with any further findings.",
        "We have decided to close this issue.",
        "Steps are being taken to prevent recurrence of this event.",
        # who or what it hit, said in words
        "The incident resulted in reduced availability for users.",
        "Customers sending messages to that carrier likely experienced delays or failures in delivery.",
        "SMS and voice services in North America were affected.",
        "Some of our customers (early adopters on 5.25) may experience issues sending emails.",
        "Data transfer was largely unaffected by the chain halt.",
        "All funds were safe.",
        "We know it hasn't been exploited on any installation.",
        "app.example.io is not available",
        "* `docs.example.io` is not available",
        # how long, said around the figure
        "The service saw 13 minutes of intermittent downtime.",
        "The API failed intermittently over a 32-minute period.",
        "Normal operations resumed approximately 5.5 hours later.",
        "The testnet fell behind for 45 minutes.",
        "86 consecutive epochs without finality.",
        "This gap was 86 epochs.",
        "216 skip slots after genesis.",
        # counts of what a chain lost
        "~1000 hotspots stuck at block 502499.",
        "Roughly 56k validators slashed since the fork.",
        "This leaves a discrepancy of approximately 274 million tokens.",
        # a reading of the usual level (held-out batch)
        "The average proof rate before the halt was ~270 receipts per block.",
    ],
)
def test_a_line_said_this_way_is_metadata(line: str) -> None:
    assert is_metadata(line), line
    assert without_metadata(line) == "", line


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        (
            "A config change caused kernels to die on start for new servers from about Mar 22 19:30 to Mar 23 09:45.",
            "A config change caused kernels to die on start for new servers.",
        ),
        (
            "EC2 saw launch failures from 11:48 PM PDT on October 19 until 1:50 PM PDT on October 20, due to a lease bug.",
            "EC2 saw launch failures due to a lease bug.",
        ),
        (
            "Our CI jobs were failing between 2025-10-20 08:00 UTC and 2025-10-20 ~14:30 UTC due to a registry outage.",
            "Our CI jobs were failing due to a registry outage.",
        ),
    ],
)
def test_a_time_window_is_a_clause_of_its_own(sentence: str, kept: str) -> None:
    assert strip_metadata(sentence) == kept


@pytest.mark.parametrize(
    ("cause", "kept"),
    [
        (
            "Deadlock in a frequently used mutex. Other potential root causes still under investigation.",
            "Deadlock in a frequently used mutex.",
        ),
        (
            "The genesis block root did not match. Still investigating other root causes.",
            "The genesis block root did not match.",
        ),
        ("The exact root cause of the cache failure was still under forensic investigation.", ""),
    ],
)
def test_that_the_cause_is_still_looked_for_is_no_cause(cause: str, kept: str) -> None:
    assert without_unknown_cause(cause) == kept


@pytest.mark.parametrize(
    "line",
    [
        "The API service was impacted by a bad config push.",
        "db.example.com was down because the disk filled up.",
        "We restarted the workers two hours later.",
        "We deployed a fix that raised the connection limit to 500.",
        "Three nodes were restarted and the cluster recovered.",
        "The incident was caused by an expired certificate.",
        "Root cause: the sync service read the genesis time before it was set",
        "We raised the rate limit to 100 requests per second.",
        "Investigation starts after a user reported that example.org was down.",
    ],
)
def test_a_cause_or_fix_near_these_words_is_not_metadata(line: str) -> None:
    assert not is_metadata(line), line


CHAIN_HALT = """# Testnet stalled at block 1,200,000

**Date:** 2024/02/24

**Authors:** Sam

**Status:** Root cause identified, resolved

**Impact:** 86 consecutive epochs without finality.

**Root Causes:** A race condition in the sync service read the genesis time before it was set. Other potential root causes still under investigation.

**Resolution:** We rolled back to the prior image and restarted the stuck pods.

#### Timeline

2024-02-24 (all times UTC)
- 10:00 Root cause identified
- 10:30 Normal operations resumed approximately 5 hours later.

Thank you again to our validator community. All funds were safe.
"""


def test_a_chain_halt_report_keeps_its_metadata_out_and_its_cause_and_fix_in() -> None:
    draft = imported(CHAIN_HALT)
    assert "race condition" in draft.root_cause
    assert "rolled back to the prior image" in draft.resolution
    for said in (
        "under investigation",
        "86 consecutive",
        "all times",
        "funds",
        "5 hours later",
        "Root cause identified",
    ):
        assert said not in draft.root_cause
        assert said not in draft.resolution


def test_the_sentence_models_candidates_keep_harm_said_in_words_and_the_fields_do_not() -> None:
    # the shipped sentence model was fitted on candidates made without METADATA_SAID's cut: its inputs stay as
    # they were (fold A one organisation out lost three causes when they changed); the stored fields lose it
    from bot.importer.cause_fix import candidates_of

    text = (
        "# Relay outage\n\n## What happened\n\nImpacted users experienced 504 timeout responses in all regions.\n\n"
        "## Root cause\n\nThe relay's disk filled up with logs. Impacted users experienced 504 timeout responses.\n"
    )
    assert any("experienced 504" in c.text for c in candidates_of(text, "relay.md"))
    draft = imported(text)
    assert "disk filled up" in draft.root_cause
    assert "experienced" not in draft.root_cause
