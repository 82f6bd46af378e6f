"""Failed attempts on organisations the postmortem rules were never read on (issue 23, precision
first): kinds of line that are never a responder's step however they are worded (someone using the
service, the system's own tries, a change long before it, working out what is wrong), and plain ways a
step's outcome is said in the same sentence ("but nothing happened", "but still …", "never connected").
Read from fold A's conversations and from how postmortems are written, measured on fold A's postmortems
(docs/BENCHMARKS.md, r23-attempts)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.reader import cues_attempts
from bot.reader.narrative import attempts_in, failed_in_prose
from bot.reader.narrative_timeline import failed_in_timeline
from tests.test_reading_limits import unbounded_then_more


def test_someone_using_the_service_is_the_symptom_not_an_attempt() -> None:
    assert not attempts_in("When we tried to log in to the console, the page failed to load.")
    assert not attempts_in(
        "Cocoapods website and CDN are down. I am getting errors in both CI and locally when trying to install "
        "the pods, it still fails."
    )
    assert not attempts_in("Connection attempts to the primary database failed.")
    # a step someone tried against the trouble stays one
    [attempt] = attempts_in("We tried to restart the primary database, but it still failed to start.")
    assert attempt["action"].startswith("We tried to restart the primary database")


def test_the_system_acting_on_itself_is_not_a_responders_attempt() -> None:
    assert not attempts_in("Our monitoring attempted to restart the container, which failed repeatedly.")
    assert not attempts_in("Kubernetes restarted the pod several times but it kept crashing.")
    [attempt] = attempts_in("We restarted the pod several times but it kept crashing.")
    assert attempt["action"].startswith("We restarted the pod")


def test_a_change_made_weeks_before_is_not_an_attempt_during_it() -> None:
    assert not attempts_in("We bumped boskos last week, from a version that worked to a version that did not work.")
    assert not attempts_in("We bumped boskos two weeks ago, and the new version did not work.")
    # the day before is still the incident when it spans days
    [attempt] = attempts_in("We restarted the indexer yesterday, but it did not help.")
    assert attempt["action"].startswith("We restarted the indexer yesterday")


def test_working_out_what_is_wrong_is_not_a_step_against_it() -> None:
    entries = [
        SimpleNamespace(text="I am still attempting to figure out why the branchprotector failed to drop statuses")
    ]
    assert not failed_in_timeline(entries)
    assert not attempts_in("We tried to work out what broke the queue, but it still failed.")


def test_a_steps_outcome_said_in_plain_words_in_the_same_sentence() -> None:
    [attempt] = failed_in_prose("I tried to cancel the previous build and start a new one, but nothing happened.")
    assert attempt["action"] == "I tried to cancel the previous build and start a new one"
    assert attempt["why_it_failed"] == "nothing happened."
    [attempt] = failed_in_prose("I restarted the server but still leading to the error.")
    assert attempt["action"] == "I restarted the server"
    [attempt] = failed_in_prose("We cleared the cache, but I still can't log in.")
    assert attempt["action"] == "We cleared the cache"
    [attempt] = failed_in_prose("We tried to turn it on but it never connected.")
    assert attempt["action"] == "We tried to turn it on"
    [attempt] = failed_in_prose("I reset the runner's token but it didnt help.")
    assert attempt["action"] == "I reset the runner's token"
    # "still" that tells what was still needed or still fine is no failure
    assert not failed_in_prose("We restarted the pods but still had to wait for the cache to warm up.")
    assert not failed_in_prose("We restarted the pods, but the service was still healthy.")


def test_a_step_told_as_having_worked_is_no_failed_attempt_whatever_fails_after_it() -> None:
    # the issue's own example: a recovery stored with the next sentence as its why
    assert not failed_in_prose(
        "We reduced the max_connections setting, after which the database restarted without issues. "
        "However, some queries still failed for a few minutes."
    )
    assert not attempts_in("We restarted the API pods and the service recovered, but some jobs still failed.")
    # a sub-step's success is not the step's ("which successfully wrote to the log file" … "failed due to …")
    [attempt] = attempts_in("We re-ran the restore command, which successfully wrote the log, but it failed again.")
    assert attempt["action"].startswith("We re-ran the restore command")


def test_a_remainder_conceded_is_not_the_step_failing() -> None:
    assert not attempts_in(
        "We scaled the workers to 20. The queue drained within minutes, although a few jobs still failed."
    )
    # the step inside the concession, the failure in the main clause: the step did not work
    [attempt] = attempts_in(
        "Though the subscription is re-enabled for an hour, the portal still does not permit changes."
    )
    assert "re-enabled" in attempt["action"]


def test_a_clean_up_once_the_service_was_healthy_is_not_an_attempt() -> None:
    assert not attempts_in(
        "We manually re-ran the failed jobs once the service was healthy, but some of them failed again due to stale data."
    )
    [attempt] = attempts_in("We manually re-ran the failed jobs, but some of them failed again due to stale data.")
    assert attempt["action"].startswith("We manually re-ran the failed jobs")


def test_trying_to_find_the_cause_is_not_a_step_against_the_trouble() -> None:
    assert not attempts_in("We tried to identify the root cause but were unable to reproduce the issue.")
    [attempt] = attempts_in("We tried to restart the broker but were unable to get it running.")
    assert attempt["action"].startswith("We tried to restart the broker")


def test_a_status_update_saying_the_step_has_not_resolved_it_is_its_outcome() -> None:
    entries = [
        SimpleNamespace(text="Update: We applied a configuration change to the load balancers."),
        SimpleNamespace(
            text="Update: The configuration change has not resolved the issue. We are investigating further."
        ),
    ]
    [(entry, attempt)] = failed_in_timeline(entries)
    assert attempt["action"] == "Update: We applied a configuration change to the load balancers"
    assert attempt["why_it_failed"].startswith("Update: The configuration change has not resolved the issue")
    [attempt] = failed_in_prose("We restarted the workers, but this hasn't helped.")
    assert attempt["action"] == "We restarted the workers"
    # the state after a fix said to be deployed is not its failure
    assert not failed_in_timeline(
        [
            SimpleNamespace(text="We have deployed a fix."),
            SimpleNamespace(text="We have not yet resolved every report."),
        ]
    )


def test_the_trouble_said_to_remain_after_a_step_is_its_outcome() -> None:
    def timeline(*texts: str) -> list[SimpleNamespace]:
        return [SimpleNamespace(text=t) for t in texts]

    [(_, attempt)] = failed_in_timeline(timeline("We restarted the database.", "The site remains unavailable."))
    assert (attempt["action"], attempt["why_it_failed"]) == (
        "We restarted the database",
        "The site remains unavailable",
    )
    assert failed_in_timeline(timeline("We restarted the database.", "Error rates remain high."))
    assert failed_in_timeline(timeline("We restarted the database.", "Errors are unchanged."))
    # a recovery word negated is no recovery
    assert failed_in_timeline(timeline("We restarted the database.", "The problem is not fixed."))
    [attempt] = failed_in_prose("We restarted the database, but the site remained unavailable.")
    assert attempt["action"] == "We restarted the database"
    # "remaining" names what is left to do, not the trouble staying
    assert not attempts_in(
        "Workloads are now recovering, and we are continuing to try and restore any remaining affected resources."
    )
    assert not failed_in_timeline(timeline("We restarted the database.", "The site remains available to most users."))


def test_a_step_decided_against_or_not_yet_taken_is_no_attempt() -> None:
    # what the next responder would read as "tried, did not work" was never done
    assert not attempts_in(
        "Because of this, we decided to not restart the resynchronization, instead we let it continue in the hope "
        "it would finish, but it failed again."
    )
    assert not attempts_in("We chose not to fail over the database, and the errors continued.")
    assert not attempts_in(
        "Before the fix could be deployed to production, the production instance went down again and was brought back."
    )
    # the step taken stays one, whatever "before" or a decision says elsewhere in the sentence
    [attempt] = attempts_in("We decided to restart the resynchronization, but it failed again.")
    assert attempt["action"].startswith("We decided to restart the resynchronization")
    [attempt] = attempts_in("We restarted the pods before the deploy could finish, but they still crashed.")
    assert attempt["action"].startswith("We restarted the pods")


@pytest.mark.parametrize(
    "name",
    ["FIGURING_OUT", "USED_THE_SERVICE", "SYSTEM_ACTED", "STEP_WORKED", "CONCEDED", "NEGATED_RECOVERY", "NOT_TAKEN"],
)
def test_the_patterns_added_here_cannot_backtrack_over_a_members_text(name: str) -> None:
    # a member's message reaches them: every repeat followed by more pattern is bounded
    assert unbounded_then_more(getattr(cues_attempts, name)) == []


def test_a_failure_told_as_the_reason_for_a_step_is_not_that_steps_outcome() -> None:
    # the step before "since" / "because" was done next; what failed is the step the reason names
    [attempt] = failed_in_prose("We scaled the workers up, since restarting them did not help.")
    assert attempt["action"] == "restarting them"
    assert attempt["why_it_failed"] == "did not help"
    entries = [
        SimpleNamespace(
            text="Edge proxy Redis cache is turned off, since resizing the instances did not solve the issue"
        )
    ]
    [(_, attempt)] = failed_in_timeline(entries)
    assert attempt["action"] == "resizing the instances"
    # the reason names no step: the trouble that led to it, no failed attempt at all
    assert not attempts_in("We restarted the database because it kept crashing.")
    assert not attempts_in("We restarted the database as the replica was still failing.")
    # a contrast before the reason, or "as" that opens no clause: the step's own outcome, as before
    [attempt] = attempts_in("We restarted the pods, but as they were still crashing we rolled back.")
    assert attempt["action"] == "We restarted the pods"
    [attempt] = attempts_in("We restarted the pods as well, which did not help.")
    assert attempt["action"] == "We restarted the pods"
