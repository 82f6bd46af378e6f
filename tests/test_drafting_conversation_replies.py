"""The offline drafter on a step and the reply that says how it went (issue 23): "I restarted the
runner." answered "Still seeing the same error" is a failed attempt, quoted with the reply, and
never the fix; a reply that says it worked, or only that someone is still looking, is no failed
attempt. Measured on real conversations by bench/reading_eval_conversations.py."""

from __future__ import annotations

import pytest

from bot.reader import conversation
from bot.reader.sentences import Head, SentenceModel
from tests.test_drafting_conversations import draft  # the same channel, drafted offline


@pytest.mark.parametrize(
    ("step", "reply", "action"),
    [
        ("I restarted the deploy runner. Can you check now?", "Still seeing the same error",
         "I restarted the deploy runner"),
        ("I restarted the web server.", "Hm. Still down for me", "I restarted the web server"),
    ],
)  # fmt: skip
def test_a_step_the_next_message_says_did_not_work_is_a_failed_attempt(step: str, reply: str, action: str) -> None:
    result = draft(("ana", "The docs site serves 404s since 9:00"), ("ben", step), ("ana", reply))
    assert [(a.action, a.why_it_failed) for a in result.failed_attempts] == [(action, reply.split(". ")[-1])]
    assert [q.author for q in result.failed_attempts[0].quotes] == ["ben", "ana"]


@pytest.mark.parametrize(
    "reply", ["Still seeing the same error", "Thanks. Still getting 404s on every page", "Hm. That didn't help"]
)
def test_a_step_the_next_message_says_did_not_work_is_no_fix(reply: str) -> None:
    result = draft(
        ("ana", "The docs site serves 404s since 9:00"),
        ("ben", "Flushed the CDN cache for the docs site."),
        ("ana", reply),
    )
    assert result.resolution is None


def test_the_fix_after_a_step_that_did_not_work_is_the_later_one() -> None:
    result = draft(
        ("ana", "The docs site serves 404s since 9:00"),
        ("ben", "I restarted the web server."),
        ("ana", "Hm. Still down for me"),
        ("ben", "Renewed the expired certificate, the site is back up"),
    )
    assert [a.action for a in result.failed_attempts] == ["I restarted the web server"]
    assert result.resolution is not None and "Renewed the expired certificate" in result.resolution.text


@pytest.mark.parametrize("reply", ["That worked, thanks!", "Still investigating on our side", "ok"])
def test_a_step_the_reply_does_not_say_failed_is_no_failed_attempt(reply: str) -> None:
    result = draft(
        ("ana", "The docs site serves 404s since 9:00"),
        ("ben", "Flushed the CDN cache for the docs site."),
        ("ana", reply),
    )
    assert result.failed_attempts == []


@pytest.mark.parametrize(
    "channel",
    [
        # the step says itself it worked; "Again, …" opens a new remark, not an outcome
        [("ana", "Celery jobs are stuck in the queue"),
         ("ben", "I stopped everything, including rabbit. And restarted and it worked OK."),
         ("ben", "Again, slightly concerned about Flower messing up the events")],
        # a step doubted or said as what cannot be done is no step taken
        [("ana", "Jobs have been queued since noon"),
         ("ben", "The backlog on that job probably cannot be cleared for another six hours."),
         ("ana", "Hm. Still pending here")],
    ],
)  # fmt: skip
def test_a_reply_after_what_was_no_step_taken_or_a_step_that_worked_is_no_failed_attempt(
    channel: list[tuple[str, str]],
) -> None:
    # whatever weight a fit gives the reply (heads that read nothing else: a fold-B fit drafted both)
    trusting = SentenceModel({"attempt": Head(-5.0, {"reply_failed": 10.0}, threshold=0.8, keep=20)}, "test")
    conversation.use_models(trusting)
    try:
        assert draft(*channel).failed_attempts == []
    finally:
        conversation.use_models(None)


@pytest.mark.parametrize(
    ("asked", "reply", "action"),
    [
        ("Did you try clearing the cache?", "Yes, no change", "Clearing the cache"),
        ("Have you tried restarting the runner?", "yep, didn't help", "Restarting the runner"),
    ],
)
def test_a_question_whether_a_step_was_tried_answered_yes_no_change_is_the_step_that_failed(
    asked: str, reply: str, action: str
) -> None:
    result = draft(("ana", "The build is stuck since 9:00"), ("ben", asked), ("ana", reply))
    assert [(a.action, a.why_it_failed) for a in result.failed_attempts] == [(action, reply[0].upper() + reply[1:])]


@pytest.mark.parametrize(
    "channel",
    [
        # a check: "to see if they all work again" says no outcome
        [("ana", "The Windows nightly builds have not run since Monday"),
         ("ben", "The build disk was full, I freed 40 GB."),
         ("ben", "I restarted all nightlies to see if they all work again.")],
        # thanks, said again
        [("ana", "The worker is not picking up jobs"), ("ben", "I restarted the worker."), ("ana", "Thanks again!")],
    ],
)  # fmt: skip
def test_again_said_of_no_trouble_is_no_failure(channel: list[tuple[str, str]]) -> None:
    assert draft(*channel).failed_attempts == []


@pytest.mark.parametrize(
    ("said", "action"),
    [
        ([("ben", "I restarted the bridge."), ("ana", "It kicked me again after a minute.")], "Restarted the bridge"),
        ([("ben", "I rebooted, deleted the app and reinstalled it. It won't let me log in.")],
         "I rebooted, deleted the app and reinstalled it"),
    ],
)  # fmt: skip
def test_the_trouble_said_again_or_a_refusal_after_a_step_is_its_failure(
    said: list[tuple[str, str]], action: str
) -> None:
    result = draft(("ana", "I can't log in since this morning"), *said)
    assert [a.action for a in result.failed_attempts] == [action]


def test_trying_to_use_the_service_and_meeting_the_trouble_is_the_symptom_not_a_failed_attempt() -> None:
    result = draft(
        ("ana", "I tried to access the dashboard but it still returns 502."),
        ("ben", "I tried to download the release again, same error."),
    )
    # using the service is the symptom; a retry is a step taken
    assert [a.action for a in result.failed_attempts] == ["Tried to download the release again"]


def test_what_caused_it_said_before_a_step_that_failed_is_not_a_failed_attempt() -> None:
    # whatever weight a fit gives "the next sentence says it failed" (fold A's fit: 0.89 for such a cause)
    trusting = SentenceModel({"attempt": Head(-5.0, {"next_failed": 10.0, "failed_outcome": 10.0}, 0.8, 20)}, "test")
    conversation.use_models(trusting)
    try:
        result = draft(
            ("ana", "Our CI cannot pull images since yesterday"),
            ("ben", "Same for us."),
            ("ana", "The problem is, the token has been blocked for a day and it seems denied requests count too. "
                    "I tried to reset the token but nothing changed."),
        )  # fmt: skip
    finally:
        conversation.use_models(None)
    assert [a.action for a in result.failed_attempts] == ["Tried to reset the token"]


def test_a_step_taken_to_see_if_it_works_is_not_the_fix() -> None:
    result = draft(
        ("ana", "Windows nightlies broken"),
        ("ben", "I deleted 33 GB of temporary files and restarted the builds on the build host. The disk was full."),
        ("ben", "The other host seemed to build this night. I restarted all nightlies to see if they all work again."),
    )
    assert result.resolution is not None and "deleted 33 GB of temporary files" in result.resolution.text


@pytest.mark.parametrize(
    "said",
    [
        "It looks like it got spun up on another node when the old one was drained and then crash looped forever.",
        "I've just removed the CNAME and it might be a browser cache of the old CNAME record.",
    ],
)
def test_a_cause_offered_with_doubt_is_not_the_fix_whatever_step_it_names(said: str) -> None:
    # whatever weight a fit gives a step said (fold A's fit drafted both as the fix)
    trusting = SentenceModel({"fix": Head(-5.0, {"did": 10.0, "said_action": 10.0}, threshold=0.6, keep=1)}, "test")
    conversation.use_models(trusting)
    try:
        result = draft(("ana", "The docs site serves 404s since 9:00"), ("ben", said))
    finally:
        conversation.use_models(None)
    assert result.resolution is None


def test_what_keeps_it_from_happening_again_is_not_the_fix() -> None:
    # whatever weight a fit gives a step said (two steps alike: the later one would be the fix)
    trusting = SentenceModel({"fix": Head(-5.0, {"did": 10.0}, threshold=0.6, keep=1)}, "test")
    conversation.use_models(trusting)
    try:
        result = draft(
            ("ana", "The nightly releases are missing"),
            ("ben", "The disk was full. I deleted the old images and the builds are restarted."),
            ("ben", "I've updated things so future failures won't delete the existing nightly releases, "
                    "to hopefully prevent this in the future."),
        )  # fmt: skip
    finally:
        conversation.use_models(None)
    assert result.resolution is not None and "deleted the old images" in result.resolution.text


def test_what_we_managed_to_break_is_the_cause_not_the_fix() -> None:
    result = draft(
        ("ana", "Jobs are crawling, I/O throttling everywhere"),
        ("ben", "(we've managed to exhaust our IOPS quota by a factor of two.)"),
        ("ben", "I'm migrating capacity to the node pool with bigger disks."),
    )
    assert result.resolution is None or "exhaust" not in result.resolution.text
    assert result.root_cause is not None and "exhaust our IOPS quota" in result.root_cause.text
