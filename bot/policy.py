"""Who may do what to the team's memory, and where a memory may be seen. Pure: no I/O.

Authority: moving a truth state (confirm, reject, supersede), resolving as verified, replacing
a resolution and purging belong to the incident's declarer, the configured reviewers
(MEMORY_REVIEWERS) and workspace admins. Closing an incident belongs to them and to the members
of the incident's channel. Everyone may give feedback, and add corrections (unverified
additions) to a memory they can see. Nobody verifies their own fix: "verified" needs someone
other than the resolution's author. A refusal says who can.

An incident with no declarer (opened from a channel's name, or by an alert) gives the
declarer's rights to the first member of its channel who acts in it (`declarer_rights`); until
then, to the reviewers and admins alone.

Privacy: a memory kept from a private channel is shown, corrected or acted on only in that
channel. An incident of a private channel is likewise acted on only from there. An isolated
channel (Slack Connect, or with guests under GUEST_CHANNELS=isolated) keeps its memories to itself
like a private one, and is shown nothing else: `visible_in(..., channel_isolated=True)`. The SQL
of recall (bot/memory/search.py) applies the same rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Act(StrEnum):
    FEEDBACK = "give feedback on a memory"
    CORRECT = "add a correction"
    CONFIRM = "confirm a memory"
    REJECT = "reject a memory"
    SUPERSEDE = "supersede a memory"
    RESOLVE_VERIFIED = "mark a fix as verified"
    PURGE = "purge a memory"
    RESOLVE = "close the incident"
    REVISE = "replace the incident's resolution"
    VERIFY = "verify a fix"


OPEN_TO_EVERYONE = frozenset({Act.FEEDBACK, Act.CORRECT})
OPEN_TO_THE_CHANNEL = frozenset({Act.RESOLVE})  # and to those who hold authority over the incident


@dataclass(frozen=True, slots=True)
class Actor:
    """Someone acting: a Slack user (their id is what the audit keeps) or the CLI's operator."""

    id: str
    name: str | None = None
    is_admin: bool = False  # a workspace admin or owner
    is_reviewer: bool = False  # listed in MEMORY_REVIEWERS, directly or through a user group

    @classmethod
    def operator(cls, user: str) -> Actor:
        """Whoever runs the CLI holds the database itself: an admin, recorded as `cli:<user>`."""
        return cls(id=f"cli:{user}", name=None, is_admin=True)


@dataclass(frozen=True, slots=True)
class Reviewers:
    """MEMORY_REVIEWERS as configured: user ids (U…, W…) and user group ids (S…)."""

    users: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()

    @classmethod
    def parse(cls, setting: str | None) -> Reviewers:
        ids = [part.strip() for part in (setting or "").replace(";", ",").replace(" ", ",").split(",") if part.strip()]
        return cls(
            users=tuple(i for i in ids if not i.startswith("S")), groups=tuple(i for i in ids if i.startswith("S"))
        )

    def mentions(self) -> list[str]:
        # Slack renders these as names; a user mention in an ephemeral message pings no one
        return [f"<@{u}>" for u in self.users] + [f"<!subteam^{g}>" for g in self.groups]


class NotAllowed(Exception):
    """An act refused by the policy; the message says who can, in words (a modal's inline error
    is plain text of at most 150 characters); `people()` names them."""

    def __init__(self, act: Act, *, declared_by: str | None, reviewers: Reviewers) -> None:
        self.act = act
        self.declared_by = declared_by
        self.reviewers = reviewers
        super().__init__(f"Only {who_can(act, declared_by=declared_by, reviewers=reviewers)} can {act.value}.")

    def people(self) -> list[tuple[str, list[str]]]:
        """(role, Slack mentions) of the people who can, besides the workspace's admins."""
        named = [("declarer", [f"<@{self.declared_by}>"])] if self.declared_by else []
        if self.reviewers.users or self.reviewers.groups:
            named.append(("reviewers", self.reviewers.mentions()))
        return named


def who_can(act: Act, *, declared_by: str | None, reviewers: Reviewers) -> str:
    if act in OPEN_TO_EVERYONE:
        return "anyone who can see the memory"
    people = ["a member of the incident's channel"] if act in OPEN_TO_THE_CHANNEL else []
    people += ["the incident's declarer"] if declared_by else []
    if reviewers.users or reviewers.groups:
        people.append("a memory reviewer")
    people.append("a workspace admin")
    said = people[0] if len(people) == 1 else ", ".join(people[:-1]) + " or " + people[-1]
    return said + (" other than the resolution's author" if act is Act.VERIFY else "")


def may(
    actor: Actor, act: Act, *, declared_by: str | None, in_channel: bool = False, author: str | None = None
) -> bool:
    """Whether `actor` may do `act`. `in_channel`: the actor is a member of the incident's
    channel (Slack says; only closing asks). `author`: who wrote the resolution (verifying asks:
    nobody verifies their own)."""
    if act is Act.VERIFY and author is not None and actor.id == author:
        return False
    if act in OPEN_TO_EVERYONE or actor.is_admin or actor.is_reviewer:
        return True
    if act in OPEN_TO_THE_CHANNEL and in_channel:
        return True
    return declared_by is not None and actor.id == declared_by


def require(
    actor: Actor,
    act: Act,
    *,
    declared_by: str | None,
    reviewers: Reviewers,
    in_channel: bool = False,
    author: str | None = None,
) -> None:
    """Raise NotAllowed (saying who can) unless `actor` may do `act`."""
    if not may(actor, act, declared_by=declared_by, in_channel=in_channel, author=author):
        raise NotAllowed(act, declared_by=declared_by, reviewers=reviewers)


def declarer_rights(declared_by: str | None, *, first_member: str | None = None) -> str | None:
    """Who holds the declarer's rights over an incident: its declarer; for an incident with no
    declarer (opened from a channel's name or by an alert), the first member of its channel who
    acted in it; None while nobody has: then the reviewers and admins alone hold them."""
    return declared_by or first_member


# Slack ids of DMs (D…) and legacy private channels / group DMs (G…) are private by construction.
_PRIVATE_ID_PREFIXES = ("D", "G")


def private_by_id(channel_id: str | None) -> bool:
    """Whether a channel's id alone says it is private (a DM, a group DM, a legacy private channel)."""
    return (channel_id or "").startswith(_PRIVATE_ID_PREFIXES)


def kept_to_home(*, is_private: bool, is_isolated: bool) -> bool:
    """Whether what is kept from a channel is shown only there: a private channel's, and an
    isolated one's (shared with another organisation, or with guests under GUEST_CHANNELS=isolated)."""
    return is_private or is_isolated


def visible_in(
    *, is_private: bool, home_channel: str | None, channel_id: str | None, channel_isolated: bool = False
) -> bool:
    """Whether something kept from `home_channel` may be shown in `channel_id`. Private things
    only at home; with no channel known (a CLI, a DM with no context) private is never shown.
    An isolated channel (`channel_isolated`) is shown only what was kept from it: private
    channels see the others' public memories, an isolated one does not (another organisation
    or guests read it)."""
    at_home = home_channel is not None and channel_id == home_channel
    return at_home or (not is_private and not channel_isolated)
