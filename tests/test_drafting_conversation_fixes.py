"""The offline drafter on what is and is not the fix (issue 23): a fix said only as a state ("That
worked", "Fixed!") is the step said before it, or none; what was tried, doubted, said not to work,
what would have helped and the trouble said fixed are no fix; a symptom that names an earlier fix is
not the resolution. Measured on real conversations by bench/reading_eval_conversations.py."""

from __future__ import annotations

import pytest

from tests.test_drafting_conversations import draft  # the same channel, drafted offline


def test_a_symptom_that_mentions_an_earlier_fix_is_not_the_resolution() -> None:
    result = draft(
        ("ana", "the docs still show the old version"),
        ("ben", "the fix was merged days ago but has not propagated to the mirror"),
    )
    assert result.resolution is None


def test_a_fix_said_as_a_state_is_the_action_said_before_it() -> None:
    # "That worked" names nothing: the fix is what was done just before, quoted with the words that say it worked
    result = draft(
        ("ana", "The site is down since noon"),
        ("ben", "Enabling the firewall's attack mode for now."),
        ("ben", "Also restarting the web server."),
        ("ben", "That worked."),
    )
    assert result.resolution is not None and result.resolution.text == "Also restarting the web server"
    assert [q.text for q in result.resolution.quotes] == ["Also restarting the web server.", "That worked."]


@pytest.mark.parametrize("said", ["That worked.", "It works now, thanks!"])
def test_a_state_with_nothing_done_before_it_is_no_fix(said: str) -> None:
    result = draft(("ana", "Builds are stuck in the queue"), ("ben", "I'll have a look"), ("ana", said))
    assert result.resolution is None


def test_a_fix_said_as_resolved_after_doing_something_is_drafted() -> None:
    result = draft(
        ("ana", "The CDN returns 500 intermittently"),
        ("ben", "This is resolved after deploying the new proxy config."),
    )
    assert result.resolution is not None and "deploying the new proxy config" in result.resolution.text


def test_a_step_the_same_message_says_did_not_work_is_not_the_fix() -> None:
    result = draft(
        ("ana", "A build is just stuck, it never started"),
        ("ana", "disabled CI integration in my project, enabled back. Closed-Opened PR: new one is stuck"),
        ("ana", "Looks like fixed."),
    )
    assert result.resolution is None or "enabled back" not in result.resolution.text


def test_what_caused_it_is_the_cause_not_the_fix() -> None:
    result = draft(
        ("ana", "Demo site is down, the browser says there is a DNS server error"),
        ("ben", "Thank you for letting us know.\nSome changes to our DNS caused this. It is fixed now."),
    )
    assert result.resolution is None
    assert result.root_cause is not None and "changes to our DNS" in result.root_cause.text


def test_a_bare_fixed_names_no_fix_but_points_back_to_the_step_before_it() -> None:
    alone = draft(
        ("ana", "https://example.org TLS certificate expired"), ("ben", "Fixed! Thanks again for the report.")
    )
    assert alone.resolution is None
    after = draft(
        ("ana", "https://example.org TLS certificate expired"),
        ("ben", "I renewed the certificate by hand and reloaded nginx."),
        ("ben", "Fixed!"),
    )
    assert after.resolution is not None and "renewed the certificate" in after.resolution.text


@pytest.mark.parametrize(
    "said",
    [
        "We tried rebooting the gateway, the only answer was host is unreachable.",
        "I tried restarting the builds, started a separate request and pushed an amended commit.",
    ],
)
def test_what_was_tried_is_not_the_fix(said: str) -> None:
    # a thread that tells no fix: what someone tried is an attempt or a check, never the resolution
    result = draft(("ana", "The server will not start since this morning"), ("ben", said))
    assert result.resolution is None


def test_a_step_someone_doubts_worked_is_a_failed_attempt_not_the_fix() -> None:
    result = draft(
        ("ana", "The site is dead after the last revision"),
        ("ben", "Reverted the last two revisions. I don't think the reversions worked."),
    )
    assert result.resolution is None
    assert [a.action for a in result.failed_attempts] == ["Reverted the last two revisions"]


@pytest.mark.parametrize(
    "said",
    [
        "The last one just finished updating. If it had been only one of the two bugs, this would have been resolved "
        "ten hours earlier.",
        "Restarting the agents wouldn't have helped, the queue itself was full.",
    ],
)
def test_what_would_have_happened_is_never_the_fix_nor_a_failed_attempt(said: str) -> None:
    result = draft(
        ("ana", "The package mirror has served stale files since Monday"),
        ("ben", "Thanks, I see two mirrors out of sync and am checking each one now."),
        ("ben", said),
        ("ana", "Looks fixed, thanks!"),
    )
    assert result.resolution is None or "would" not in result.resolution.text
    assert result.failed_attempts == []


def test_a_fix_told_beside_what_would_have_helped_is_still_the_fix() -> None:
    result = draft(
        ("ana", "The package mirror has served stale files since Monday"),
        ("ben", "We deployed a fix for the sync job."),
        ("ben", "Restarting the sync job would have fixed it sooner, we did not think of it."),
        ("ana", "It works now"),
    )
    assert result.resolution is not None and "Deployed a fix for the sync job" in result.resolution.text


def test_trouble_said_to_have_been_fixed_names_no_fix() -> None:
    result = draft(
        ("ana", "Login gives a 502 Bad Gateway"),
        ("ben", "Yes, there were some technical problems on our side yesterday, which have been fixed now."),
        ("ana", "so all is good, thanks"),
    )
    assert result.resolution is None


def test_a_step_told_in_the_passive_beside_the_state_is_still_the_fix() -> None:
    result = draft(
        ("ana", "Login gives a 502 Bad Gateway"),
        ("ben", "The expired certificate has been renewed and the login has been fixed."),
    )
    assert result.resolution is not None and "certificate has been renewed" in result.resolution.text


@pytest.mark.parametrize(
    "said",
    [
        "I've fixed it, please allow a few minutes to propagate.",
        "Fixed now, thanks",
        "Thank you for reporting, we have resolved the issue.",
    ],
)
def test_the_trouble_said_fixed_with_no_step_named_is_no_fix(said: str) -> None:
    # the fix field would read "Fixed it": an empty field is honest, the responder learns nothing from that one
    result = draft(("ana", "The docs site returns 404 since the branch rename"), ("ben", said))
    assert result.resolution is None


@pytest.mark.parametrize(
    ("said", "fix"),
    [
        ("I fixed the baseUrl and it should be reachable again", "fixed the baseUrl"),
        ("We fixed it by restarting the sync worker.", "restarting the sync worker"),
    ],
)
def test_a_step_named_beside_fixed_is_still_the_fix(said: str, fix: str) -> None:
    # "fixed" with what was fixed, or how, names the step: the veto above leaves it the fix
    result = draft(("ana", "The API answers 502 Bad Gateway"), ("ben", said))
    assert result.resolution is not None and fix in result.resolution.text
