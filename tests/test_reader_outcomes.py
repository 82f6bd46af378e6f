"""How a postmortem says an action did not work beyond the plain cue words (issue 23): a later
entry that finds the trouble still or again there, an action that had no effect, and what never
becomes a failed attempt however it is worded (a recovery that relapsed, a state someone checked)."""

from __future__ import annotations

from bot.importer.markdown import parse_markdown
from bot.reader import Statement, read
from bot.reader.narrative import attempts_in, failed_in_prose


def timeline(*entries: str) -> list[Statement]:
    return [Statement(text, ref=f"timeline entry {i}", section="timeline") for i, text in enumerate(entries)]


def test_a_later_entry_that_finds_the_trouble_still_there_tells_the_action_failed_and_quotes_where() -> None:
    reading = read(
        timeline(
            "09:40 We flushed the CDN cache for the checkout pages.",
            "09:44 Looked at the origin's request graphs.",
            "09:52 Support reports the checkout page is still failing for EU shoppers.",
            "10:30 The origin certificate was renewed and checkout recovered.",
        )
    )
    [attempt] = reading.failed_attempts()
    assert attempt.text == "09:40 We flushed the CDN cache for the checkout pages"
    assert attempt.why == "09:52 Support reports the checkout page is still failing for EU shoppers"
    # the responder sees where each half was said: the action's entry and the one that found it failing
    assert [q.statement for q in attempt.quotes] == [0, 2]
    # the recovery is the fix, never an attempt
    assert [f.quotes[0].statement for f in reading.fixes()] == [3]


def test_the_same_trouble_coming_back_after_an_action_is_its_outcome_whatever_the_entry_opens_with() -> None:
    [attempt] = read(
        timeline(
            "14:02 The stuck build agent is drained and a fresh build is queued.",
            "14:31 After the build fails again on the lint step, the agent pool is inspected.",
        )
    ).failed_attempts()
    assert attempt.text.startswith("14:02 The stuck build agent is drained")
    assert attempt.why.startswith("14:31 After the build fails again")


def test_a_recovery_that_relapsed_or_a_state_someone_checked_is_never_a_failed_attempt() -> None:
    relapsed = timeline(
        "16:05 Queue workers were restarted and the backlog is resolved.",
        "16:40 Operator notes the backlog is still growing on shard 3.",
    )
    checked = timeline(
        "11:10 Priya confirms every replica is upgraded to 4.2.",
        "11:25 Dashboards show replication lag is still high on the read pool.",
    )
    assert not read(relapsed).failed_attempts()
    assert not read(checked).failed_attempts()


def test_an_action_that_had_no_effect_is_a_failed_attempt_with_its_why() -> None:
    text = (
        "# Webhook deliveries delayed\n\n## Resolution\n\n"
        "Raising the webhook worker concurrency to 64 was not successful, since the queue stayed flat.\n\n"
        "Moving the delivery queue to its own database fixed the delay.\n"
    )
    draft = parse_markdown(text, team_id="T", incident_id="pm-webhooks")
    [attempt] = draft.failed_attempts
    assert attempt.action.startswith("Raising the webhook worker concurrency to 64")
    assert "Moving the delivery queue" in draft.resolution
    told = timeline(
        "Engineer applied the network policy again to the payments namespace.",
        "It was a no-op: the egress rules read the same as before.",
    )
    [no_op] = read(told).failed_attempts()
    assert no_op.text.startswith("Engineer applied the network policy")
    assert "no-op" in no_op.why


def test_an_attempt_whose_failure_is_told_after_the_reason_is_one_attempt_with_that_failure() -> None:
    told = (
        "We attempted to switch the orders queue over to the standby broker. "
        "The standby had no copy of the topic configuration. "
        "It refused to take over the orders queue as the standby broker."
    )
    [attempt] = read([Statement(told, section="resolution")]).failed_attempts()
    assert attempt.text == "We attempted to switch the orders queue over to the standby broker"
    assert attempt.why == "It refused to take over the orders queue as the standby broker"
    # the same attempt followed by its recovery is no failed attempt
    recovered = told.replace("It refused to take over", "Then the standby broker recovered and took over")
    assert not read([Statement(recovered, section="resolution")]).failed_attempts()


def test_a_later_entry_that_rejects_what_the_action_named_by_its_number_is_its_outcome() -> None:
    said = [
        "@sam submits ticket #4411 to the DNS provider to restore the zone.",
        "Customers are told on the status page.",
        'The provider closes #4411 as "won\'t fix".',
    ]
    [attempt] = read(timeline(*said)).failed_attempts()
    assert attempt.text.startswith("@sam submits ticket #4411")
    assert attempt.why == 'The provider closes #4411 as "won\'t fix"'
    assert [q.statement for q in attempt.quotes] == [0, 2]
    # another ticket's answer, or a time both entries share, is not this action's outcome
    other = [said[0], said[1], 'The provider closes #4410 as "won\'t fix".']
    assert not read(timeline(*other)).failed_attempts()


def test_looking_for_what_is_wrong_that_found_nothing_is_not_a_failed_attempt() -> None:
    # the responder reads "did not work" lines as steps to skip; a search for the cause is not one
    reading = read(
        timeline(
            "09:16 Attempts to isolate the bug start again, using git bisect on the staging cluster.",
            "09:40 Research into the error returned no results.",
            "10:02 We tried restarting the proxy pods, which did not help.",
        )
    )
    [attempt] = reading.failed_attempts()
    assert attempt.text.startswith("10:02 We tried restarting the proxy pods")


def test_an_alert_or_a_clean_up_once_it_was_over_is_never_a_failed_attempt() -> None:
    alert = timeline(
        "14:02 Alert fired: KubePodCrashLooping, pod api-7 restarting, still failing readiness probe.",
        "14:05 On-call acknowledges the page.",
    )
    assert not read(alert).failed_attempts()
    assert not attempts_in(
        "After restoring service, we cleaned up the stale locks, which failed for two shards. "
        "Once we were confident it was resolved, we restarted the job workers to re-queue the jobs, which did not help."
    )
    # a component back is not the incident over: what is tried next still counts
    [attempt] = attempts_in("After the database was restored, we restarted the app servers, which did not help.")
    assert attempt["action"].startswith("After the database was restored, we restarted the app servers")


def test_the_change_that_set_it_off_is_not_a_failed_attempt() -> None:
    assert not attempts_in(
        "A routine upgrade of the cluster was started at 09:00, but it failed halfway. "
        "We merged a PR that changed the cache key, and the deploy failed, which started the incident."
    )
    [attempt] = attempts_in("We attempted to restart the service but it still failed to come up.")
    assert attempt["action"] == "We attempted to restart the service"


def test_the_systems_own_failure_after_a_change_nobody_tried_is_how_it_began_not_a_failed_attempt() -> None:
    # "Changes are deployed. The hub does not start.": the change that set it off, told as what the system did
    began = timeline(
        "22:59 Config changes are deployed to prod. The hub does not start properly.",
        "23:10 A PR for the data hub is merged.",
        "23:21 Towards the end of the build, the upgrade fails because the new hub pod does not start up.",
    )
    assert not read(began).failed_attempts()
    # a responder's step followed by the trouble's own words, or by a failure that names the step again, is
    # as often how it began: not stored (told_as_failed, issue 23: on organisations no rule was read from
    # such lines were mostly wrong)
    said = timeline(
        "22:59 We redeployed the hub to prod. The hub does not start properly.",
        "23:10 Chris triggers the Jenkins job to rebuild the search index.",
        "23:41 Chris notes the index rebuild failed due to lack of disk space.",
    )
    assert not read(said).failed_attempts()
    # told as tried, or with an outcome that refers back to the step, it is one
    tried = timeline(
        "22:59 We redeployed the hub to prod, but the hub still does not start properly.",
        "23:10 Chris tries to rebuild the search index from the Jenkins job.",
        "23:41 Chris notes the index rebuild failed due to lack of disk space.",
    )
    assert [a.text for a in read(tried).failed_attempts()] == [
        "22:59 We redeployed the hub to prod",
        "23:10 Chris tries to rebuild the search index from the Jenkins job",
    ]


def test_a_step_whose_thing_is_told_back_as_it_failing_after_but_or_however_is_a_failed_attempt() -> None:
    # "it" after the contrast is what the step was done to: the step's outcome, though no one is named
    [attempt] = attempts_in("Node pool1-13 was rebooted from the shell, however it did not come back online.")
    assert attempt == {
        "action": "Node pool1-13 was rebooted from the shell",
        "why_it_failed": "it did not come back online.",
    }
    # the system named as the subject is still how it began ("dev changes are deployed but hub does not start")
    assert not attempts_in("Dev changes are deployed to staging, but the hub does not start.")
    assert not attempts_in("The new config was rolled out and then the hub did not come back online.")


def test_prose_that_says_a_step_had_no_effect_is_a_failed_attempt_though_it_names_no_one() -> None:
    # a summary mostly tells what the system did, so a step needs someone named; a step that "did not
    # resolve the issue" is one whoever took it
    [attempt] = failed_in_prose("A planned service restart at 00:30 UTC did not resolve the issue, and it went on.")
    assert attempt["action"].startswith("A planned service restart at 00:30 UTC did not resolve the issue")
    # the system's own failure, told with no one named, stays out of a summary's attempts
    assert not failed_in_prose("The primary database was restarted and the replica did not come back.")
    assert not failed_in_prose("The cache did not help under this load pattern, as the key space was too wide.")


def test_a_failure_told_in_the_past_perfect_is_the_background_not_the_outcome_of_the_step_just_told() -> None:
    background = (
        "At this point we had copied the base backup from the bucket, but the restore tool had failed to restore "
        "any incremental backups on top of it. On March 3rd we made our first attempt at rolling out the new "
        "image. We had planned to make this rollout earlier, but we were unable to reach the template VM."
    )
    assert attempts_in(background) == []
    # told in the story's own time, the same failure is the step's outcome
    [attempt] = attempts_in("We copied the base backup from the bucket, but the restore tool failed to restore it.")
    assert attempt["action"].startswith("We copied the base backup")


def test_a_step_that_succeeded_before_something_else_failed_is_no_failed_attempt() -> None:
    told = (
        "With partner approval, a second upgrade attempt was made. "
        "This succeeded in restarting block production, but the archive node failed again."
    )
    assert attempts_in(told) == []
    [attempt] = attempts_in("A second upgrade attempt was made. This failed again on the archive node.")
    assert attempt["action"] == "A second upgrade attempt was made"


def test_what_picks_out_the_things_acted_on_a_chain_of_effects_a_relapse_or_a_pasted_log_is_no_failed_attempt() -> None:
    # the failure says which things were acted on, not how the step went
    assert attempts_in("We decided to remove the orders that could not be processed by the new worker.") == []
    # no one acted: the sentence before is an effect of something else ("This attracted …")
    chain = "This attracted more traffic and triggered a bug in how workers are scaled out. This caused the site to go down despite spare capacity."
    assert attempts_in(chain) == []
    # it worked, and the trouble came back later: a relapse, not a step that did not work
    relapse = "We pushed a fix in an attempt to restore service. This worked until the issue reoccurred that evening."
    assert attempts_in(relapse) == []
    # a log the system wrote, pasted in
    log = (
        "Jun 04 14:51:36 db1 systemd[1]: postgresql.service: Can't open PID file after restart: Operation not permitted"
    )
    assert attempts_in(log) == []
    # the same steps told as steps whose outcome was a failure are attempts
    assert attempts_in("We removed the stuck orders, which did not help.")
    assert attempts_in("We pushed a fix in an attempt to restore service. This did not help.")


def test_nothing_helped_said_after_the_steps_tells_they_did_not_work() -> None:
    [attempt] = attempts_in("We tried a few mitigations, including draining the queue, but nothing seemed to help.")
    assert attempt["action"].startswith("We tried a few mitigations")
    [attempt] = attempts_in("After an hour of restarting workers without any success, we moved the queue.")
    assert "restarting workers" in attempt["action"]


def test_a_step_taken_against_the_trouble_that_made_new_trouble_is_a_failed_attempt() -> None:
    [attempt] = attempts_in(
        "To fix this we increased the parallel processing of the status messages, which in turn led to "
        "a lot of builds not finishing visibly."
    )
    assert attempt["action"] == "To fix this we increased the parallel processing of the status messages"
    assert attempt["why_it_failed"].startswith("which in turn led to a lot of builds not finishing")
    [attempt] = attempts_in(
        "We scaled the API cluster to account for this increase in requests. "
        "This caused database connection limits to be reached within the hour."
    )
    assert attempt["why_it_failed"].startswith("This caused database connection limits")
    # the trouble it was taken against is not trouble it made; a change with no remedy named may be the trigger
    assert attempts_in("To fix the issue caused by the crash, we restarted the pods.") == []
    assert attempts_in("We deployed the new cache layer, which caused errors for an hour.") == []
