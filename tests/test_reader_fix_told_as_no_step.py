"""A fix word that names no step taken is no fix (issue 23, pmfix, seventeenth session). Three shapes, read on fold A's
stored fixes: the cause told with a fix word inside it ("… because of some logs that didn't get rotated"), a fix said
only as what could or would happen or as what someone else was asked for ("could fix this", "a remote tech has been
contacted to restore connectivity"), and a status page's state line behind a time it writes its own way ("8:45PM - ",
"Aug 28 @ 6:17AM"), said to "appear to have been" resolved, or only starting to come back. What an importing team sees:
the stored fix is a step someone took, or nothing; a step told beside any of these stays."""

from __future__ import annotations

import pytest

from bot.reader import cues_fix
from bot.reader.fix import names_no_step
from tests.test_reader_fix_not_yet import imported, status_page
from tests.test_reading_limits import unbounded_then_more

NO_STEP = [
    "The root disk on the application server filled up completely because of some logs that didn't get rotated.",
    "The error stemmed from rotating all API tokens after the recent security incident.",
    "The issue was caused by incomplete replication of zones after their signatures had been renewed.",
    "Aggressive per-call pruning could fix this but risks losing critical context mid-agent execution.",
    "Assuming that all goes as planned, the earliest that power would be restored to servers would be Wednesday.",
    "A remote tech has been contacted to restore connectivity.",
    "All the servers except one are up and we are talking to the campus network team to resolve this.",
    "We are working with them to understand why this is happening and resolve the issue.",
    "I'd appreciate if some subject expert helped me resolve this question.",
    "- 8:45PM - The outage has been fully resolved.",
    "**Update: Aug 28 @ 6:17AM** - Web Server has recovered.",
    "Update: The host's issues appear to have been resolved.",
    "11:10PM - Services Started coming back online",
]


@pytest.mark.parametrize("sentence", NO_STEP)
def test_a_fix_word_that_names_no_step_is_never_the_stored_fix(sentence: str) -> None:
    assert names_no_step(sentence)
    draft = imported(status_page(sentence, "Pages of the site return errors."))
    assert draft.resolution is None  # an empty fix is honest; a cause or a hope is no step to repeat


@pytest.mark.parametrize(
    "sentence",
    [
        "Due to a bug in the release, we rolled back the deploy.",  # the cause first, then the step
        "The outage was caused by a bad config, which was reverted at 14:00.",  # the step told after the cause
        "The disk filled because logs were not rotated; we deleted the old logs.",  # a step in its own clause
        "We reverted the change that caused the outage.",  # the step, with what it undid
        "The issue was resolved after the cache was invalidated.",  # resolved by a step
        "The web server was restored from the nightly backup.",  # restored from something: a step
        "We are working with the vendor and rolled back the deploy.",  # a step beside the work with others
        "Reverted 14:05 - all services are restored.",  # a step's word before a time is no month (review F82)
    ],
)
def test_a_step_told_beside_a_cause_or_a_state_is_kept(sentence: str) -> None:
    assert not names_no_step(sentence)


def test_the_frames_read_a_members_text_with_bounded_repeats_only() -> None:
    for pattern in (cues_fix.FIX_INSIDE_THE_CAUSE, cues_fix.FIX_HYPOTHETICAL, cues_fix.STATE_OF_THE_INCIDENT):
        assert unbounded_then_more(pattern) == []
