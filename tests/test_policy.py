"""The authority and privacy rules as a table: who may do what, and what a refusal says."""

from __future__ import annotations

import pytest

from bot.policy import Act, Actor, NotAllowed, Reviewers, declarer_rights, may, require, visible_in

ALICE = Actor("U1", "alice")  # declared the incident
BOB = Actor("U2", "bob")
REVIEWER = Actor("U3", "carol", is_reviewer=True)
ADMIN = Actor("U4", "dan", is_admin=True)
RESTRICTED = (Act.CONFIRM, Act.REJECT, Act.SUPERSEDE, Act.RESOLVE_VERIFIED, Act.PURGE)


@pytest.mark.parametrize("act", RESTRICTED)
def test_changing_the_truth_is_for_the_declarer_reviewers_and_admins(act: Act) -> None:
    assert [may(a, act, declared_by="U1") for a in (ALICE, BOB, REVIEWER, ADMIN)] == [True, False, True, True]
    assert may(ALICE, act, declared_by=None) is False  # nobody declared it: not alice either
    assert may(Actor.operator("ops"), act, declared_by=None) is True


@pytest.mark.parametrize("act", (Act.FEEDBACK, Act.CORRECT))
def test_feedback_and_corrections_are_for_everyone(act: Act) -> None:
    assert may(BOB, act, declared_by="U1") and may(BOB, act, declared_by=None)


def test_a_refusal_says_who_can_in_words_and_names_them() -> None:
    reviewers = Reviewers.parse("U3, S0TEAM")
    assert (reviewers.users, reviewers.groups) == (("U3",), ("S0TEAM",))
    with pytest.raises(NotAllowed) as refused:
        require(BOB, Act.REJECT, declared_by="U1", reviewers=reviewers)
    assert (
        str(refused.value)
        == "Only the incident's declarer, a memory reviewer or a workspace admin can reject a memory."
    )
    assert refused.value.people() == [("declarer", ["<@U1>"]), ("reviewers", ["<@U3>", "<!subteam^S0TEAM>"])]
    with pytest.raises(NotAllowed) as alone:
        require(BOB, Act.PURGE, declared_by=None, reviewers=Reviewers())
    assert str(alone.value) == "Only a workspace admin can purge a memory." and alone.value.people() == []


def test_private_things_are_seen_only_at_home() -> None:
    assert visible_in(is_private=False, home_channel="C1", channel_id="C2")
    assert visible_in(is_private=True, home_channel="C1", channel_id="C1")
    assert not visible_in(is_private=True, home_channel="C1", channel_id="C2")
    assert not visible_in(is_private=True, home_channel="C1", channel_id=None)
    assert not visible_in(is_private=True, home_channel=None, channel_id=None)


def test_closing_belongs_to_the_channel_and_those_with_authority() -> None:
    assert may(BOB, Act.RESOLVE, declared_by="U1", in_channel=True)  # a member of the incident's channel
    assert not may(BOB, Act.RESOLVE, declared_by="U1")  # anyone else: kept as a hypothesis
    assert all(may(a, Act.RESOLVE, declared_by="U1") for a in (ALICE, REVIEWER, ADMIN))
    assert not may(BOB, Act.REVISE, declared_by="U1", in_channel=True)  # replacing is not closing
    assert str(NotAllowed(Act.RESOLVE, declared_by="U1", reviewers=Reviewers())) == (
        "Only a member of the incident's channel, the incident's declarer or a workspace admin can close the incident."
    )


def test_nobody_verifies_their_own_fix() -> None:
    assert not may(ALICE, Act.VERIFY, declared_by="U1", author="U1")
    assert not may(ADMIN, Act.VERIFY, declared_by="U1", author=ADMIN.id)
    assert may(REVIEWER, Act.VERIFY, declared_by="U1", author="U1")
    assert not may(BOB, Act.VERIFY, declared_by="U1", author="U1")
    assert str(NotAllowed(Act.VERIFY, declared_by=None, reviewers=Reviewers())).endswith(
        "a workspace admin other than the resolution's author can verify a fix."
    )


def test_an_undeclared_incident_gives_the_declarers_rights_to_the_first_member_who_acts() -> None:
    assert declarer_rights("U1", first_member="U2") == "U1"
    assert declarer_rights(None, first_member="U2") == "U2"
    assert declarer_rights(None) is None  # nobody yet: reviewers and admins alone
