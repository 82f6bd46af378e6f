"""When a sentence of the root cause was said is never stored as part of the cause (issue 23: dates are metadata,
never a cause; pmcause's T): the date or time that opens a cause sentence goes and its words stay; a date inside the
sentence, a log line's stamp, a version number and a date followed by no clause of its own are kept; the fix is not cut."""

from __future__ import annotations

import pytest

from bot.reader.metadata_time import WHEN_OPENS, cause_without_when
from tests.test_reader_metadata import imported
from tests.test_reading_limits import unbounded_then_more


def _report(cause: str, fix: str = "We restarted the router and traffic recovered.") -> str:
    return f"# Outage on 2024-03-18\n\n## Root cause\n\n{cause}\n\n## Resolution\n\n{fix}\n"


def test_the_date_that_opens_the_stored_cause_goes_and_the_cause_stays() -> None:
    draft = imported(
        _report(
            "On July 16, 2023, the infrastructure team left the firewall of the cache server disabled after a reboot."
        )
    )
    assert draft.root_cause == "The infrastructure team left the firewall of the cache server disabled after a reboot."


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("- 6:55PM - Found a failed network card in the mail server", "Found a failed network card in the mail server"),
        (
            "**2021-07-16 at 3:50PM CDT** The SDN controller failed to start after the upgrade.",
            "The SDN controller failed to start after the upgrade.",
        ),
        (
            "2023-02-01 Heavy use of dask-gateway evicted the core pods",
            "Heavy use of dask-gateway evicted the core pods",
        ),
        (
            "At 23:04 the node running the only Boskos pod was drained.",
            "The node running the only Boskos pod was drained.",
        ),
        (
            "A release went out. On May 16, 2023,we introduced a config kind without a handler.",
            "A release went out. We introduced a config kind without a handler.",
        ),
        ("2023-09-27 / The certificate was not renewed on off2.", "The certificate was not renewed on off2."),
    ],
)
def test_when_it_was_said_goes_the_rest_of_the_sentence_stays(said: str, kept: str) -> None:
    assert cause_without_when(said) == kept


@pytest.mark.parametrize(
    "said",
    [
        # no clause of its own after the date: cutting it would leave a fragment
        "On February 16 starting at 14:43 CST our monitoring detected the mail server offline.",
        "On April 14, 2025 <security@pypi.org> was notified of a privilege that persisted.",
        # a log line's stamp, not when a sentence was said
        "Nov 25 22:24:55 ovh3 smartd[2244]: Device: /dev/sde failed its self-test",
        # a version, not a time
        "1.20: the upgrade removed the security group the application needed.",
        # a time inside the cause is part of what it says
        "The responsiveness of one of the file servers became unreliable around 04:20.",
    ],
)
def test_a_cause_whose_sentences_open_with_no_date_is_kept_as_written(said: str) -> None:
    assert cause_without_when(said) == said


def test_a_sentence_that_was_only_when_goes_whole() -> None:
    said = "A bad config push broke DNS resolution.\n2024-03-18: Outage."
    assert cause_without_when(said) == "A bad config push broke DNS resolution."


def test_the_fix_keeps_its_time() -> None:
    draft = imported(_report("A bad config push broke DNS resolution.", fix="At 14:05 we rolled the config push back."))
    assert draft.resolution == "At 14:05 we rolled the config push back."


def test_the_cut_does_linear_work_on_any_text() -> None:
    assert unbounded_then_more(WHEN_OPENS) == []
    said = "On 12:30, " * 5_000 + "- **2024-01-01 at 1:00** " * 2_000
    assert len(cause_without_when(said)) <= len(said)
