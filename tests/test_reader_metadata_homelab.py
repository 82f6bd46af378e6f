"""Metadata in a homelab's postmortems (issue 23, bench/devset_metadata's tuning-orgs-6: organisations outside both
folds): that nothing or no one was hit, said in words; how often it has happened; an aside of figures inside a cause's
sentence. None may be stored as the fix or the cause; a cause, a step or a version told beside the same words is still
read."""

from __future__ import annotations

import pytest

from bot.reader import cues_metadata, without_metadata
from bot.reader.metadata_kind import metadata_kind
from tests.test_reader_metadata import imported
from tests.test_reading_limits import unbounded_then_more


@pytest.mark.parametrize(
    "line",
    [
        # no one and nothing hit, said in words
        "None caused user-facing outages.",
        "There was no customer impact.",
        "No public service impact.",
        "The CronJob's core function was **not** affected.",
        # how often it has happened
        "This is the third outage this month.",
        "- Recurred every hour until mitigated",
    ],
)
def test_a_line_of_that_shape_is_never_stored_as_a_fix_or_a_cause(line: str) -> None:
    assert without_metadata(line) == "", line


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        # the count of incidents goes, the rest of the sentence stays
        (
            "This is the second Thanos-compact corruption incident in 11 days, and the compactor was left running.",
            "and the compactor was left running.",
        ),
        # an aside of figures goes from the cause's sentence
        (
            "Thanos-compact, during first-pass downsampling of block `01KX` (14 days of raw data, 1.83 billion samples, "
            "compaction level 4), hit a checksum error.",
            "Thanos-compact, during first-pass downsampling of block `01KX`, hit a checksum error.",
        ),
    ],
)
def test_only_the_metadata_of_the_sentence_goes(line: str, kept: str) -> None:
    assert without_metadata(line) == kept


@pytest.mark.parametrize(
    "line",
    [
        "We upgraded to the patched releases (v1.2.3, v1.3.1) and restarted the pods.",
        "Restarted the pooler (port 5432, 6432) and the errors stopped.",
        "We rolled back to the previous release (build 1234, commit abc123) and errors stopped.",
        "The job recurred every night at 2am because cron was misconfigured.",
        "We restarted the job every hour to keep it alive.",
        "No alerts were configured for the disk, so the volume filled up unnoticed.",
    ],
)
def test_a_cause_a_step_or_a_version_told_beside_those_words_is_read_whole(line: str) -> None:
    assert without_metadata(line) == line


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("There was no customer impact.", "impact"),
        ("None caused user-facing outages.", "impact"),
        ("This is the third outage this month.", "figures, blank or note"),
    ],
)
def test_each_shape_is_counted_under_its_kind_not_as_other(line: str, kind: str) -> None:
    assert metadata_kind(line) == kind


def test_a_homelab_postmortem_stores_its_cause_without_the_figures_aside() -> None:
    draft = imported(
        "# Thanos compact crash loop\n\n"
        "## Root cause\n\n"
        "Thanos-compact, during downsampling of block `01KX` (14 days of raw data, 1.83 billion samples, compaction "
        "level 4), hit a corrupted index because an interrupted upload left the block truncated.\n\n"
        "## Resolution\n\n"
        "We marked the bad block with `no-downsample-mark.json` and restarted the compactor. "
        "There was no customer impact.\n"
    )
    assert draft.root_cause is not None and "interrupted upload" in draft.root_cause, draft.root_cause
    assert "1.83 billion samples" not in draft.root_cause, draft.root_cause
    assert draft.resolution is not None and "marked the bad block" in draft.resolution, draft.resolution
    assert "no customer impact" not in draft.resolution, draft.resolution


@pytest.mark.parametrize("name", ["RECURRENCE", "FIGURES_ASIDE", "METADATA_IMPACT"])
def test_the_patterns_cannot_backtrack_over_a_crafted_line(name: str) -> None:
    assert unbounded_then_more(getattr(cues_metadata, name)) == []
