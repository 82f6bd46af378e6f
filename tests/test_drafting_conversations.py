"""The offline drafter on talk as real incident channels hold it (the error kinds issue 23 names,
and the way responders actually say a cause, a fix or an attempt): what a responder would see in
the drafted modal. Measured on real conversations by bench/reading_eval_conversations.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.drafting.rules import HYPOTHESIS, OfflineDrafter
from bot.models import TimelineEntry
from bot.reader import conversation_features, cues_conversation
from bot.reader.conversation import read_conversation
from bot.reader.conversation_features import Message, split_sentences
from bot.text_limits import MESSAGE_CHARS
from tests.test_reading_limits import Counted

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def draft(*messages: tuple[str, str]):  # (author, text)
    timeline = [
        TimelineEntry(author=a, text=t, at=T0 + timedelta(minutes=i), message_ts=f"1772442{i:03d}.000100")
        for i, (a, t) in enumerate(messages)
    ]
    return OfflineDrafter().answer(timeline, [])


def test_a_cause_and_a_fix_told_plainly_are_drafted_with_their_quotes() -> None:
    result = draft(
        ("ana", "Builds are not starting for any project since this morning"),
        ("ben", "Having a look..."),
        ("ben", "Should be all working now"),
        ("ana", "Thanks! May I ask what the problem was?"),
        ("ben", "Disk filled up so we moved files to a much larger partition. Should not happen again"),
    )
    assert result.root_cause is not None and "Disk filled up" in result.root_cause.text
    assert result.resolution is not None and "moved files to a much larger partition" in result.resolution.text
    assert result.resolution.quotes[0].author == "ben"
    assert result.failed_attempts == []


@pytest.mark.parametrize(
    ("said", "cause"),
    [
        ("Looks like Cloudflare is down causing issues to many services including ours", "Cloudflare is down"),
        ("I think this was caused by a stale certificate that nginx kept serving", "stale certificate"),
    ],
)
def test_a_hedged_cause_is_offered_as_a_hypothesis(said: str, cause: str) -> None:
    result = draft(
        ("ana", "The CDN returns 500 for every request"),
        ("ben", said),
        ("ben", "Configured DNS to proxy through Cloudflare, which provides general stability."),
    )
    assert result.root_cause is not None
    assert result.root_cause.text.startswith(HYPOTHESIS) and cause in result.root_cause.text


def test_attempts_that_did_not_help_are_drafted() -> None:
    result = draft(
        ("ana", "Build is stuck and never starts. I tried to cancel the previous one and start a new one, but nothing happened."),
        ("ben", "We had issues with build processing earlier. Should be fine now."),
    )  # fmt: skip
    assert [a.action for a in result.failed_attempts] == ["Tried to cancel the previous one and start a new one"]
    assert result.failed_attempts[0].why_it_failed == "Nothing happened"


@pytest.mark.parametrize(
    "channel",
    [
        # a recovery: "again" is not "it failed again"
        [("ana", "the scheduler is stuck, no agents spawning"), ("ben", "restarted it and the agents are spawning again")],
        # the root cause, confessed: not an attempt
        [("ana", "timers did not fire overnight"),
         ("ben", "I had disabled the timers during maintenance and forgot to turn them back on, sorry")],
        # a workaround offered to others
        [("ana", "pod install fails with a 500 from the CDN"),
         ("ana", "Quick fix: simply changing the source in Podfile works for us in our CI")],
    ],
)  # fmt: skip
def test_what_is_not_a_failed_attempt_is_not_drafted_as_one(channel: list[tuple[str, str]]) -> None:
    assert draft(*channel).failed_attempts == []


def test_not_knowing_the_root_cause_is_not_a_root_cause() -> None:
    result = draft(
        ("ana", "the API was down for an hour"),
        ("ben", "not sure what the root cause was, but for now it's fixed"),
    )
    assert result.root_cause is None


def test_an_issue_template_heading_is_not_how_it_was_found() -> None:
    result = draft(("ana", "Describe the outage: 503 Service Not Available, seen in the logs"), ("ben", "bounced"))
    assert result.diagnosis is None


def test_a_sentence_is_not_cut_at_i_e() -> None:
    assert split_sentences("The cache was stale, i.e. the old certificate was served. We restarted nginx.") == [
        "The cache was stale, i.e. the old certificate was served.",
        "We restarted nginx.",
    ]


def test_the_modal_says_which_fields_it_could_not_fill() -> None:
    result = draft(("ana", "Builds not starting"), ("ben", "Looks fixed now"))
    assert any("root cause" in note and "fix" in note for note in result.notes)


def test_the_reader_reads_a_crafted_flood_within_its_caps_in_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    tally = [0]
    for name, cue in list(cues_conversation.CONVERSATION_CUES.items()):
        monkeypatch.setitem(cues_conversation.CONVERSATION_CUES, name, Counted(cue, tally))
    conversation_features.cues_of.cache_clear()
    flood = "".join(f"tried restarting {i}, still failing. " for i in range(2_000))[:MESSAGE_CHARS]
    reading = read_conversation([Message("ana", flood)] * 3)
    assert len(reading.sentences) <= conversation_features.MAX_SENTENCES
    assert all(len(s.text) <= conversation_features.SENTENCE_CHARS for s in reading.sentences)
    assert 0 < tally[0] <= 60 * 3 * len(flood)  # each cue group over each sentence once

    # below every cap (each message's, the reading's), twice the messages are twice the text: about
    # twice the work, where work growing with the square of what is read would be four times
    def channel(messages: int) -> list[Message]:
        said = (" ".join(f"Tried restarting {m}-{i}, still failing." for i in range(40)) for m in range(messages))
        return [Message(("ana", "ben")[m % 2], text) for m, text in enumerate(said)]

    small, large = channel(24), channel(48)  # 960 and 1,920 sentences: under the reading's 2,000
    work = []
    for messages in (small, large):
        tally[0] = 0
        conversation_features.cues_of.cache_clear()
        assert len(read_conversation(messages).sentences) == 40 * len(messages)
        work.append(tally[0])
    assert sum(len(m.text) for m in large) <= 2.05 * sum(len(m.text) for m in small)
    assert work[1] <= 2.2 * work[0]
    conversation_features.cues_of.cache_clear()


def test_a_confessed_cause_is_drafted_as_the_cause() -> None:
    result = draft(
        ("ana", "The nightly timers did not fire and no backups ran"),
        ("ben", "My bad: I had disabled the timers during maintenance and forgot to turn them back on."),
        ("ben", "We have re-enabled the timers and the backups are running again."),
    )
    assert result.failed_attempts == []
    assert result.root_cause is not None and "forgot to turn them back on" in result.root_cause.text


@pytest.mark.parametrize(
    ("said", "action"),
    [
        ("Cloning a new database doesn't help, the job still fails.", "Cloning a new database"),
        ("I tried resetting the token, same outcome each time.", "Tried resetting the token"),
    ],
)
def test_attempts_said_without_the_usual_words_are_found(said: str, action: str) -> None:
    result = draft(("ana", "Deploys fail with 403 since this morning"), ("ben", said))
    assert [a.action for a in result.failed_attempts] == [action]


def test_past_the_sentence_cap_the_newest_sentences_are_read() -> None:
    chatter = [("ben", "\n".join(f"node {n}{i}" for i in range(1_000))) for n in range(3)]  # 3,000 sentences
    result = draft(("ana", "the queue is stuck"), *chatter, ("ben", "We deployed a fix and rebuilt the index."))
    assert result.resolution is not None and "deployed a fix" in result.resolution.text


@pytest.mark.parametrize(
    ("said", "cause"),
    [
        ("GitHub had an outage, so the webhooks never reached us.", "GitHub had an outage"),
        ("It was a DNS problem on our side.", "DNS problem"),
        ("The certificate was not renewed: the renewal job failed silently.", "renewal job failed"),
        ("This was a regression in the last release of the scheduler.", "regression"),
    ],
)
def test_a_cause_said_in_everyday_words_by_the_one_who_fixed_it_is_drafted(said: str, cause: str) -> None:
    # a cause said the way any maintainer might say it, in a thread the drafter never saw
    result = draft(
        ("ana", "Builds are not triggered on push since this morning"),
        ("cleo", "Same for us on two repositories"),
        ("ben", f"Sorry about that. {said}"),
        ("ben", "We restarted the worker and builds are running again."),
        ("ana", "Works now, thanks!"),
    )
    assert result.root_cause is not None and cause in result.root_cause.text
    assert result.root_cause.quotes[0].author == "ben"


@pytest.mark.parametrize(
    "said",
    ["I think the backlog seems to clear now", "We are sorry this has caused so much trouble!", "Maybe, not sure yet"],
)
def test_a_sentence_that_names_no_cause_is_not_drafted_as_the_root_cause(said: str) -> None:
    result = draft(("ana", "Jobs are queued and never start"), ("ben", "Looking into it"), ("ben", said))
    assert result.root_cause is None


@pytest.mark.parametrize(
    "said",
    [
        "We rebooted the database host and took it out of the pool.",
        "The worker restarted at 5:34pm.",
        "Moved the timers to systemd, got everything running smoothly again.",
    ],
)
def test_an_action_nobody_says_failed_is_not_drafted_as_a_failed_attempt(said: str) -> None:
    result = draft(("ana", "The status page is down for everyone"), ("ben", said), ("ana", "thanks"))
    assert result.failed_attempts == []


@pytest.mark.parametrize(
    ("said", "cause"),
    [
        ("Reason: the queue host ran with too little memory.", "too little memory"),
        ("I was tidying the terraform this morning and accidentally deleted the bucket policy.", "deleted the bucket"),
        ("The renewal ran, but the proxy didn't reload the new certificate.", "didn't reload"),
    ],
)
def test_a_cause_stated_as_a_reason_a_slip_or_a_part_that_did_not_do_its_job_is_drafted(said: str, cause: str) -> None:
    result = draft(
        ("ana", "Uploads fail with a 500 since this morning"),
        ("ben", said),
        ("ben", "I have restored it and everything should be working now."),
    )
    assert result.root_cause is not None and cause in result.root_cause.text


@pytest.mark.parametrize(
    ("said", "cause", "hedged"),
    [
        (
            "The bucket was pointing to a region we shut down last week, so uploads were failing for everyone.",
            "pointing to a region we shut down",
            False,
        ),
        ("We think it might be some custom DNS work on the account.", "custom DNS work", True),
    ],
)
def test_a_cause_told_by_what_came_of_it_or_as_what_it_might_be_is_drafted(said: str, cause: str, hedged: bool) -> None:
    result = draft(
        ("ana", "Uploads fail with a 500 since this morning"),
        ("ben", said),
        ("ben", "I have moved it to the new region."),
    )
    assert result.root_cause is not None and cause in result.root_cause.text
    assert result.root_cause.text.startswith(HYPOTHESIS) is hedged


@pytest.mark.parametrize(
    "channel",
    [
        [("ana", "Requests to the API fail with 502. After the latest update the cluster didn't scale up properly.")],
        [
            ("ana", "The certificate expired on the site"),
            ("ben", "The post-mortem is that the renewal happened ok, but nginx didn't restart or reload the certs."),
        ],
        [
            ("ana", "The site is down"),
            ("ben", "It died overnight due to a leak and systemd didn't restart it correctly."),
        ],
        [
            ("ana", "Jobs never start"),
            ("ben", "We upgraded the build clusters yesterday, that didn't change anything."),
        ],
    ],
)
def test_a_part_that_did_not_do_its_job_or_work_done_before_the_incident_is_no_failed_attempt(
    channel: list[tuple[str, str]],
) -> None:
    # "nginx didn't reload the certs" tells the cause; "upgraded … yesterday" was done before the incident
    assert draft(*channel).failed_attempts == []


@pytest.mark.parametrize(
    ("asked", "reply", "action"),
    [
        ("Could you please retrigger it?", "@ana even now it fails", "Retrigger it"),
        ("We had issues with build processing earlier. Could you try restarting them now?", "hm, still doesnt work",
         "Restarting them now"),
    ],
)  # fmt: skip
def test_a_suggestion_the_next_reply_says_failed_is_a_failed_attempt(asked: str, reply: str, action: str) -> None:
    result = draft(("ana", "The cloud build throws an error since yesterday"), ("ben", asked), ("ana", reply))
    assert [(a.action, a.why_it_failed) for a in result.failed_attempts] == [(action, reply[0].upper() + reply[1:])]


@pytest.mark.parametrize(
    "reply",
    ["Thanks, I will try that tonight", "That fixed it, thanks!", "Could it be the cache instead? Still failing here"],
)
def test_a_suggestion_nobody_says_failed_is_no_failed_attempt(reply: str) -> None:
    result = draft(
        ("ana", "The cloud build throws an error since yesterday"), ("ben", "Could you retrigger it?"), ("ana", reply)
    )
    assert result.failed_attempts == []


def test_a_failure_told_before_a_step_is_the_earlier_steps() -> None:
    result = draft(
        ("ana", "Website down, CPU at 100%"),
        ("ana", 'Enabling "under attack" mode as an interim measure:'),
        ("ana", "Didn't help! Also restarting web server."),
        ("ana", "That worked."),
    )
    assert result.resolution is not None and "restarting web server" in result.resolution.text


def test_a_question_without_its_question_mark_is_no_cause() -> None:
    said = "are you seeing pods in the build cluster in the wrong namespace"
    reading = read_conversation([Message("ana", "prow jobs are stuck"), Message("ben", said)])
    assert reading.cause is None or reading.sentences[reading.cause.sentence].text != said


def test_a_sentence_written_in_lower_case_ends_at_its_full_stop() -> None:
    assert split_sentences("Nope still dead. the last reversion seemed to kill the world.") == [
        "Nope still dead.",
        "the last reversion seemed to kill the world.",
    ]
    for one in (
        "we've managed to exhaust our IOPS quota... by a factor of two",
        "The code update from 1. is broken and the backend won't start",
        "docker needs some maintenance w.r.t. cleanup",
    ):
        assert split_sentences(one) == [one]


def test_a_cause_said_by_pointing_back_is_the_sentence_it_points_at() -> None:
    result = draft(
        ("ana", "The API returns HTTP 500 on every search"),
        ("ben", "We deployed new search code this morning. It may be the cause."),
        ("ana", "ok, thanks"),
    )
    assert result.root_cause is not None
    assert result.root_cause.text == f"{HYPOTHESIS}We deployed new search code this morning"
    assert [q.text for q in result.root_cause.quotes] == [
        "We deployed new search code this morning.",
        "It may be the cause.",
    ]


def test_a_pointer_to_no_cause_told_drafts_no_cause() -> None:
    result = draft(
        ("ana", "The API returns HTTP 500 on every search"),
        ("ben", "Could that be the cause?"),
        ("ben", "That explains why it broke."),
    )
    assert result.root_cause is None
