"""A fix line that tells no step taken yet, whatever its fix words: a plan or a forecast, what is expected,
a state that only looks right, a pointer to where the fix is told, a follow-up (issue 23, r23-fix). What an
importing team would see: the stored fix is the step taken, or nothing, never "we will restore routes"."""

from __future__ import annotations

import pytest

from bot.importer.markdown import parse_markdown
from bot.reader import cues_fix
from bot.reader.fix import names_no_step
from tests.test_reading_limits import unbounded_then_more


def imported(text: str):  # noqa: ANN201 - a MemoryDraft
    return parse_markdown(text, team_id="T", incident_id="pm-1", name="2024-05-02-routes.md")


def status_page(*updates: str) -> str:
    """A status page's entry: front matter, then its updates, newest first."""
    body = "\n\n---\n\n".join(f"2024-05-02 1{i}:00:00 UTC\n\n{u}" for i, u in enumerate(updates))
    return f"---\ntitle: Routes to Ashburn degraded\nseverity: disrupted\nresolved: true\n---\n\n{body}\n"


NOT_YET = [
    "We will restore routes once we get the all clear.",  # a plan
    "Will be back up when they fix their end.",  # a forecast, someone else's fix
    "We will continue to monitor and will update if required.",
    "I'll fix it up there, then I'll bring it back here.",
    "Instances launched during the disruption should be coming up correctly.",  # what is expected
    "Affected workloads are being restored and the recovery process looks stable.",  # the state
    "Our region partner advises that while network connectivity has been restored, there remains a small chance.",
    "Now that the timeline of the outage is established, we explain what actions took place to resolve it.",
    "This post details how I went about fixing the problem and then digs deeper into what happened.",
    "To prevent its recurrence, we have filed a ticket to make our caching system more tolerant of Redis outages.",
]


@pytest.mark.parametrize("sentence", NOT_YET)
def test_a_line_that_tells_no_step_taken_yet_names_no_step(sentence: str) -> None:
    assert names_no_step(sentence)


@pytest.mark.parametrize("update", NOT_YET)
def test_a_status_update_that_tells_no_step_taken_yet_is_never_the_stored_fix(update: str) -> None:
    draft = imported(status_page(update, "Routes to our Ashburn PoP are dropping packets."))
    assert draft.resolution is None  # an empty fix is honest; a plan would send the next responder astray


@pytest.mark.parametrize(
    "sentence",
    [
        "We rolled back the deploy and are monitoring the error rates.",  # the step, then the watch
        "Restarted the pods, which will clear the stuck sessions.",  # what it will do: the step is told
        "We rolled back the release to prevent further errors.",  # a step told with its purpose
        "Service has been restored after we failed over to the replica.",
        "We have been able to restore routes to the Dallas PoP.",
    ],
)
def test_a_step_told_beside_a_plan_or_a_watch_is_kept(sentence: str) -> None:
    assert not names_no_step(sentence)


def test_the_step_taken_is_stored_without_the_plan_after_it() -> None:
    draft = imported(
        status_page(
            "We pulled routes from the Ashburn PoP and traffic is served from Dallas. We will restore routes once "
            "the datacentre gives the all clear.",
            "Routes to our Ashburn PoP are dropping packets.",
        )
    )
    assert "pulled routes from the Ashburn PoP" in draft.resolution
    assert "will restore routes" not in draft.resolution


@pytest.mark.parametrize("name", ["FIX_NOT_YET", "FIX_ELSEWHERE", "FIX_FOR_LATER"])
def test_the_frames_read_a_members_text_with_bounded_repeats_only(name: str) -> None:
    assert unbounded_then_more(getattr(cues_fix, name)) == []
