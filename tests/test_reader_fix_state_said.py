"""The state said of anything, with no step named, is no fix (issue 23, pmfix, eighteenth session). Read on fold A's
stored fixes: a status line whose subject is outside the incident nouns ("Storage and network performance in the London
(LON1) region has returned to normal levels"), "everything is back online", "The issue has been remediated", "the hubs
are back online" beside a symptom. What an importing team sees: the stored fix is a step someone took, or nothing; a
step told beside the state stays, and so does a thing said restored (a container restored is a step, said passively)."""

from __future__ import annotations

import pytest

from bot.reader import cues_fix
from bot.reader.fix import names_no_step
from tests.test_reader_fix_not_yet import imported, status_page
from tests.test_reading_limits import unbounded_then_more

NO_STEP = [
    "Storage and network performance in the London (LON1) region has returned to normal levels.",
    "The issue has been remediated and the queue for delivering posts and comments is going down.",
    "The populate.bash call is complete, and everything is back online!",
    "After a few moments the hubs are back online.",
    "Wynton is back online but the problematic file system is kept offline.",
    "Compute and Kubernetes cluster instance services in the FRA1 region are operating normally.",
    "Traffic rose again after those issues were resolved.",
    "When the node comes back online, kubectl reports no more hung pods.",
    "23:56 — Confirm the burn-rate alerts have all resolved in Alertmanager.",
    "***Resolved*** We are happy that all systems have returned to normal.",
    "SSH and mail access to campus have been restored.",
    "All compute and Kubernetes cluster instance services in the FRA1 region have been restored.",
    "We consider the original incident resolved.",
    "11:15PM CT — Services Restored.",
]


@pytest.mark.parametrize("sentence", NO_STEP)
def test_a_state_with_no_step_named_is_never_the_stored_fix(sentence: str) -> None:
    assert names_no_step(sentence)
    draft = imported(status_page(sentence, "Pages of the site return errors."))
    assert draft.resolution is None  # an empty fix is honest; the state is no step to repeat


@pytest.mark.parametrize(
    "sentence",
    [
        "We rolled back the deploy and everything is back online.",  # the step beside the state
        "The configuration has been corrected and normal service is back to normal.",  # a step said in the passive
        "At 04:33am UTC, the metrics container was restored, and nginx is running again.",  # a thing restored
        "One of the facility's chillers has been restored to operation and temperatures are stable.",
        "The issue was resolved after the cache was invalidated.",  # resolved by a step
        "The service is back online after we replaced the failed disk.",  # the step after the state
        "@alice restarted the proxy and the site is operational.",  # who acted, named
        "The on-call engineer has resolved the DNS fault.",  # resolved with its object: a step
        "We restarted it; we consider the incident resolved.",  # the step before the incident declared over
        "Failover 2024-03-05 - services were restored",  # a step and a date before the subject
    ],
)
def test_a_step_told_beside_the_state_is_kept(sentence: str) -> None:
    assert not names_no_step(sentence)


def test_the_state_frames_read_a_members_text_with_bounded_repeats_only() -> None:
    for pattern in (cues_fix.STATE_SAID, cues_fix.ACTOR_SAID):
        assert unbounded_then_more(pattern) == []
