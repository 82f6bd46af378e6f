"""What an imported postmortem may store as "did not work" (issue 23, precision first on organisations
no rule was read from): one step, told as tried or with an outcome that refers back to it
(bot/reader/cues_attempts.py `told_as_failed`). A wrong "did not work" line makes the next responder
skip a step, so a line that only says something failed after a step stays out (docs/BENCHMARKS.md,
r23-attempts, third pass)."""

from __future__ import annotations

import pytest

from bot.importer.markdown import parse_markdown
from bot.reader import cues_attempts
from tests.test_reading_limits import unbounded_then_more


def stored(body: str) -> list[tuple[str, str]]:
    text = f"# API outage 2026-03-02\n\n{body}\n\n## Root cause\n\nThe connection pool was too small.\n"
    draft = parse_markdown(text, team_id="T", incident_id="pm-bar")
    return [(a.action, a.why_it_failed) for a in draft.failed_attempts]


def test_a_change_whose_only_outcome_is_that_it_failed_is_not_stored_as_a_failed_attempt() -> None:
    # the deploy that failed is as often what set the incident off as a step tried against it
    assert not stored(
        "## Timeline\n\n- 14:00 Alerts fire for API errors.\n"
        "- 14:05 We deployed release 4.2 to production and the deploy failed.\n"
        "- 14:20 We rolled back to 4.1 and service is restored.\n"
    )
    # told as tried, it is one
    assert stored(
        "## Timeline\n\n- 14:00 Alerts fire for API errors.\n"
        "- 14:05 We tried deploying release 4.2 to production, and the deploy failed.\n"
        "- 14:20 We rolled back to 4.1 and service is restored.\n"
    ) == [("We tried deploying release 4.2 to production, and the deploy failed", "")]


def test_a_failure_named_entries_later_needs_the_step_told_as_tried() -> None:
    later = "- 23:41 Chris notes the index rebuild failed due to lack of disk space.\n- 23:50 The disk is resized; search works.\n"
    assert not stored(
        "## Timeline\n\n- 23:00 Search returns no results.\n"
        "- 23:10 Chris triggers the Jenkins job to rebuild the search index.\n" + later
    )
    assert stored(
        "## Timeline\n\n- 23:00 Search returns no results.\n"
        "- 23:10 Chris tries to rebuild the search index from the Jenkins job.\n" + later
    ) == [
        (
            "Chris tries to rebuild the search index from the Jenkins job",
            "Chris notes the index rebuild failed due to lack of disk space",
        )
    ]


def test_a_failure_someone_saw_is_not_a_step_that_failed() -> None:
    assert not stored(
        "## Resolution\n\nWe saw the reverse proxy is stopped and cannot be restarted. "
        "We moved traffic to the second proxy and the site came back.\n"
    )


def test_list_items_run_together_are_not_stored_as_one_attempt() -> None:
    # several steps (and their outcomes) in one line: no one of them is the failed attempt
    assert not stored(
        "## Resolution\n\n- Validators isolated. - AP node crash resolved via restart, but identity resolution still "
        "failed. - Partner consensus obtained to retry upgrade. - Second upgrade attempt initiated. - AP node failed again\n"
    )


def test_steps_told_as_tried_or_with_an_outcome_that_refers_back_are_stored() -> None:
    assert stored(
        "## Timeline\n\n- 14:00 Alerts fire for API errors.\n"
        "- 14:05 We tried rolling back the release, but the errors persisted.\n"
        "- 14:10 Restarting the pods did not help.\n"
        "- 14:12 We restarted the indexer but were unable to get it to pick up new documents.\n"
        "- 14:15 The proxy pod is restarted. This does not resolve the issue.\n"
        "- 14:20 We raised the connection limit and service is restored.\n"
    ) == [
        ("We tried rolling back the release", "the errors persisted."),
        ("Restarting the pods did not help", ""),
        ("We restarted the indexer", "were unable to get it to pick up new documents."),
        ("The proxy pod is restarted", "This does not resolve the issue"),
    ]


@pytest.mark.parametrize("name", ["STEP_OUTCOME", "CONTRAST", "OPENS_ON_THE_STEP", "LIST_MARKER", "LIST_DASH"])
def test_the_bars_patterns_cannot_backtrack_over_a_members_text(name: str) -> None:
    assert unbounded_then_more(getattr(cues_attempts, name)) == []


def test_a_step_told_as_having_worked_is_not_stored_as_failed_for_what_failed_after_it() -> None:
    # the step worked: what failed after it is something else (or a remainder), not its outcome; the next
    # responder reading "did not work" would skip the upgrade that did help
    assert not stored(
        "## Timeline\n\n- 09:00 Block production halts after the upgrade.\n"
        "- 09:30 With partner approval, a second upgrade attempt was made.\n"
        "- 09:40 This succeeded in reinitiating block production, but the AP node failed again.\n"
    )
    assert not stored(
        "## Timeline\n\n- 10:00 Downloads fail for all users.\n"
        "- 10:20 We hurriedly pushed an untested fix in a misguided attempt to restore services.\n"
        "- 10:25 This worked and provided the team with a false sense of security as the issue reoccurred that evening.\n"
    )
    assert not stored(
        "## Timeline\n\n- 10:00 Downloads fail for all users.\n"
        "- 10:20 We tried a rollback, which helped, but some downloads still failed.\n"
    )
    # the same words negated say the step did not work: stored
    assert stored(
        "## Timeline\n\n- 10:00 Downloads fail for all users.\n"
        "- 10:20 We tried restarting the workers, but it did not seem to help and downloads still failed.\n"
        "- 10:30 We attempted a rollback. It hasn't helped.\n"
        "- 10:40 We rolled back the database and service is restored.\n"
    ) == [
        ("We tried restarting the workers", "it did not seem to help and downloads still failed."),
        ("We attempted a rollback", "It hasn't helped"),
    ]


def test_the_worked_check_cannot_backtrack_over_a_members_text() -> None:
    assert unbounded_then_more(cues_attempts.NEGATED_BEFORE) == []


def test_that_after_but_is_the_step_told_back_and_a_that_picking_out_things_stays_a_qualifier() -> None:
    # "but that didn't fix it": the step is the subject of its outcome, not "the pods that failed"
    assert stored("## What happened\n\nWe rolled back the config, but that didn't fix it.\n") == [
        ("We rolled back the config", "that didn't fix it.")
    ]
    assert stored("## What happened\n\nWe restarted nginx and that did not help.\n") == [
        ("We restarted nginx and that did not help", "")
    ]
    assert not stored("## What happened\n\nWe restarted the pods that failed to start.\n")
    assert not stored("## What happened\n\nWe removed the jobs that could not be processed.\n")
