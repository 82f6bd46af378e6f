"""The authority and privacy rules as a table: who may do what, and what a refusal says."""

from __future__ import annotations

import pytest

from bot.policy import Act, Actor, NotAllowed, Reviewers, may, require, visible_in

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
