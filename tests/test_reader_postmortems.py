"""The one reader on postmortems: how an incident was found, and failed attempts that must not be
read where the words only look like one (issue 23)."""

from __future__ import annotations

from bot.importer.markdown import parse_markdown
from bot.reader import Kind, Statement, read


def timeline(*entries: str) -> list[Statement]:
    return [Statement(text, ref=f"timeline entry {i}", section="timeline") for i, text in enumerate(entries)]


def test_how_it_was_found_is_the_alert_or_report_that_started_it_never_a_missing_alert() -> None:
    reading = read(
        [
            Statement("At 09:12 Sentry began sending alerts about 502s from the API.", section="timeline"),
            Statement("No alert fired for the full disk.", section="lesson"),
            Statement("Users may see warnings while the certificate renews.", section="summary"),
        ]
    )
    assert [f.text for f in reading.of(Kind.FOUND)] == ["At 09:12 Sentry began sending alerts about 502s from the API."]
    assert not read([Statement("Nobody noticed the queue for three days.", section="summary")]).of(Kind.FOUND)
    said = [
        "14:10 New Relic raises CPU usage alert about search--prod--1.",
        "14:54 Peter posted a message on the #incident-response channel that articles were missing.",
    ]
    assert [f.text for f in read(timeline(*said)).of(Kind.FOUND)] == said


def test_an_imported_postmortem_says_how_it_was_found_before_its_investigation() -> None:
    text = (
        "# Queue outage\n\n## Timeline\n\n"
        "- 13:00 @dma noticed the ingress queue was backing up\n"
        "- 13:20 Restarted the workers, which brought the queue back to normal\n\n"
        "## Investigation\n\nThe worker logs pointed at a slow database.\n"
    )
    draft = parse_markdown(text, team_id="T", incident_id="pm-q")
    assert draft.diagnosis.startswith("@dma noticed the ingress queue was backing up")
    assert "The worker logs pointed at a slow database." in draft.diagnosis
    assert "timeline entry" in draft.provenance.fields["diagnosis"]
    # a report that says nothing of how it was found leaves the field empty
    quiet = parse_markdown(text.replace("@dma noticed", "at 13:00"), team_id="T", incident_id="pm-r")
    assert quiet.diagnosis == "The worker logs pointed at a slow database."


def test_a_recovery_or_an_aside_is_never_a_failed_attempt() -> None:
    said = [
        Statement("We restarted it, after which the database came back without issues.", section="resolution"),
        Statement(
            "So I raised the number of workers to 8 (strangely queue 17 does not work) and the queue drained.",
            section="resolution",
        ),
    ]
    assert not read(said).failed_attempts()


def test_a_later_entry_that_names_the_action_again_tells_its_failure_not_a_new_attempt() -> None:
    reading = read(
        timeline(
            "10:11 Redis instance is resized to avoid connection pool exhaustion",
            "10:15 Edge proxy cache is turned off, since resizing the instances did not solve the issue",
            "10:40 Errors are back to normal",
        )
    )
    [attempt] = reading.failed_attempts()
    assert attempt.text.startswith("10:11 Redis instance is resized")
    assert attempt.why.startswith("10:15 Edge proxy cache is turned off, since resizing")
    # a later entry that tries something of its own is that entry's attempt, not the earlier one's
    [own] = read(
        timeline(
            "Pushed new deploy configs; staging started rebooting",
            "Tried deleting the rebooting pods, which did not help",
        )
    ).failed_attempts()
    assert own.text.startswith("Tried deleting the rebooting pods")


def test_attempts_told_the_way_real_timelines_tell_them() -> None:
    attempts = read(
        timeline(
            # a sentence may open with a handle; the one before it is not part of the attempt
            "@sam sees the dns pod should serve this node. @sam deletes the dns pod and finds yet another network error.",
            # a state said of what came before names no action
            "This took several minutes per deployment because the pods could not be evicted.",
            "I discover that downgrading postgres without a restart does *not* fix the problem.",
            "A restart of php-fpm puts the service back online for a short time only, then it is unresponsive again.",
            "Chris tries the Jenkins job to rebuild the index.",
            "Chris notes the index rebuild failed due to lack of disk space.",
        )
    ).failed_attempts()
    assert [a.text[:22] for a in attempts] == [
        "@sam deletes the dns p",
        "I discover that downgr",
        "A restart of php-fpm p",
        "Chris tries the Jenkin",
    ]
    assert attempts[-1].why == "Chris notes the index rebuild failed due to lack of disk space"


def test_a_solution_section_tells_the_fix_and_what_was_tried_first() -> None:
    text = (
        "# Disk full on the products pool\n\n## What happened\n\nSaving a product failed: no space left on device.\n\n"
        "## Solving\n\nFirst step was to remove the old datasets, as they were no longer needed\n"
        "But this gained 22 GB only, which does not seem to be a solution for more than the short term.\n\n"
        "We then moved the images to the new server, which freed 2 TB.\n"
    )
    draft = parse_markdown(text, team_id="T", incident_id="pm-s")
    assert "moved the images to the new server" in draft.resolution
    assert [a.action for a in draft.failed_attempts] == ["First step was to remove the old datasets"]


def test_a_plan_for_failure_a_state_or_what_the_system_did_is_never_a_failed_attempt() -> None:
    said = [
        # a plan for the case it fails, not a failure
        "As an alternative, if this approach didn't succeed, a shadow fork would be created for testing.",
        # a state told with "still": no one's action before it ("blocks" of a chain are not "blocking")
        "Discussion identifies that the Nimbus nodes are still missing blocks.",
        "As the containerised build is still not fit for production I merged the changes and restored the node.",
        # the system acted, not a responder
        "The command fails, and the templates are automatically rolled back by AWS.",
        # "its recurrence" is a noun, and a follow-up; "failed over" is a failover
        "To prevent its recurrence, we have filed a ticket and added an alarm.",
        "I created a new follower database and then failed over to use it as the primary.",
    ]
    for sentence in said:
        assert not read([Statement(sentence, section="resolution")]).failed_attempts(), sentence


def test_everyday_ways_to_say_an_attempt_failed() -> None:
    said = {
        # "That said" opens the sentence: a discourse marker, not "that" pointing back
        "That said I issued a zfs rollback to see if it would help, it didn't.": "That said I issued a zfs rollback",
        "We ssh'd in and rebooted in rescue mode but rescue mode was not useful to us.": "We ssh'd in and rebooted",
        "We restarted the indexer but were unable to get it to pick up new documents.": "We restarted the indexer",
    }
    for sentence, action in said.items():
        [attempt] = read([Statement(sentence, section="resolution")]).failed_attempts()
        assert attempt.text.startswith(action), sentence


def test_an_action_named_again_entries_later_where_it_failed_is_one_attempt() -> None:
    attempts = read(
        timeline(
            "1:29 PM Engineer attempts hub pod restarts.",
            "1:35 PM Tech Lead's hypothesis is that something on the core nodes is maxed out.",
            "1:36 PM To test, engineer deletes one of the hub pods now to see if it comes back.",
            "1:38 PM It does.",
            "1:42 PM Tech Lead notes we still need to find the underlying cause.",
            '2:35 PM Engineer notes "am a fair way through restarting hub pods and they are not having the intended effect".',
        )
    ).failed_attempts()
    assert [a.text for a in attempts] == ["1:29 PM Engineer attempts hub pod restarts"]
    assert "restarting hub pods and they are not having the intended effect" in attempts[0].why
    # the same verb on another object is another action: no link
    [own] = read(
        timeline(
            "1:29 PM Engineer attempts hub pod restarts.",
            "1:35 PM Tech Lead's hypothesis is that something on the core nodes is maxed out.",
            "1:40 PM Engineer restarts the proxy, but it is still failing.",
        )
    ).failed_attempts()
    assert own.text.startswith("1:40 PM Engineer restarts the proxy")


def test_a_recovery_a_cause_or_a_partial_success_is_not_a_failed_attempt_but_a_plain_action_that_failed_is() -> None:
    assert not read(
        timeline(
            "14:02 A node previously cordoned, pool1-14, was rebooted.",
            "14:10 It came back online and was uncordoned.",
            "14:20 The hub and proxy pods are restarted since there were plenty of redirect errors.",
            "14:25 This seems to catch most users, although some requests still failed with a 599 timeout.",
        )
    ).failed_attempts()
    assert not read(
        [Statement("Insufficient testing caused a new kind of outage.", section="summary")]
    ).failed_attempts()
    [attempt] = read(
        [Statement("I first created a file with no extension and it did not work.", section="resolution")]
    ).failed_attempts()
    assert attempt.text.startswith("I first created a file")


def test_an_action_that_broke_something_else_or_could_not_be_done_failed() -> None:
    said = {
        "Yuvi made a fix to get the R hub working, but this fix resulted in breaking the Stat 20 hub.": "Yuvi made a fix",
        "Attempting to access the provisioner via ssh fails with an inactive billing error.": "Attempting to access",
        "Not able to fix this issue by putting yes before running apt-get.": "Not able to fix",
    }
    for sentence, action in said.items():
        [attempt] = read([Statement(sentence, section="resolution")]).failed_attempts()
        assert attempt.text.startswith(action), sentence
    # what a quoted email asks for is not an action taken
    assert not read(
        timeline(
            "We received an email from the vendor > Microsoft will delete the subscription and all attached data.",
            "The hub was unreachable even though the VMs were online.",
        )
    ).failed_attempts()
