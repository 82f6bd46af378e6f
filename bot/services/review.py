"""Review in Slack: what a person's App Home shows (incidents awaiting an outcome, memories
waiting for review, recent memories, a recall search), and where a review is seen from.
Confirming and rejecting are the recall service's, under the one authority policy.

What is shown is what the person may see: a private channel's incident or memory only to the
people in that channel. Whether someone is in a channel is Slack's to say: the caller passes
`is_member(channel_id)`, asked only for private channels.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta

from bot.memory.nudges import NudgeStore
from bot.memory.port import MemoryStore
from bot.models import IncidentRecord, MemoryRecord, RecallMatch, RecallQuery, TruthState, utcnow
from bot.policy import Actor
from bot.recall.alerts import recurring_alerts
from bot.recall.judgement import split_by_tier
from bot.services.recall import RecallService

IsMember = Callable[[str], Awaitable[bool]]
SHOWN = 5  # per list: App Home is read at a glance, and Slack allows 100 blocks in all
SCANNED = 100  # how many are looked at to find SHOWN the person may see


@dataclass(frozen=True, slots=True)
class HomeContent:
    awaiting: list[IncidentRecord] = field(default_factory=list)
    to_review: list[MemoryRecord] = field(default_factory=list)
    to_review_more: bool = False
    recent: list[MemoryRecord] = field(default_factory=list)
    query: str | None = None
    found: list[RecallMatch] = field(default_factory=list)
    found_weak: bool = False
    """Nothing strong: `found` are the closest few (tier weak), named as such, as /recall names them."""
    recurring: list[str] = field(default_factory=list)
    """`HighErrorRate on payments: 3 times in 90 days: INC-…`: alerts of confirmed incidents that recur"""


class _Visibility:
    """Private things only for members of their channel; each channel asked about once."""

    def __init__(self, is_member: IsMember) -> None:
        self._is_member = is_member
        self._known: dict[str, bool] = {}

    async def __call__(self, is_private: bool, channel_id: str | None) -> bool:
        if not is_private:
            return True
        if not channel_id:
            return False  # fail closed: a private thing with no channel is shown to nobody
        if channel_id not in self._known:
            try:
                self._known[channel_id] = await self._is_member(channel_id)
            except Exception:  # noqa: BLE001 - Slack could not say: not shown
                self._known[channel_id] = False
        return self._known[channel_id]


class ReviewService:
    def __init__(self, memory: MemoryStore, nudges: NudgeStore, recall: RecallService, *, shown: int = SHOWN) -> None:
        self._memory = memory
        self._nudges = nudges
        self._recall = recall
        self._shown = shown

    async def home(
        self, team_id: str, is_member: IsMember, *, actor: Actor | None = None, query: str | None = None
    ) -> HomeContent:
        """What `actor` sees; incidents awaiting an outcome only if their resolution would close
        them (bot/policy.py: the channel's members, its declarer, reviewers, admins)."""
        visible = _Visibility(is_member)
        awaiting: list[IncidentRecord] = []
        for incident, _ in await self._nudges.awaiting_outcome(team_id, limit=SCANNED):
            if len(awaiting) >= self._shown:
                break
            if await visible(incident.is_private, incident.channel) and await self._may_close(
                actor, incident, is_member
            ):
                awaiting.append(incident)
        unconfirmed = await self._memory.list(team_id, truth_states=[TruthState.UNCONFIRMED_HYPOTHESIS], limit=SCANNED)
        to_review = [m for m in unconfirmed.memories if await visible(m.is_private, m.channel_id)]
        # reusable ones asked of the store: after a big import the newest hundred are all unconfirmed
        reusable = [state for state in TruthState if state.reusable]
        recent_page = await self._memory.list(team_id, truth_states=reusable, limit=SCANNED)
        recent = [m for m in recent_page.memories if await visible(m.is_private, m.channel_id)]
        days = self._recall.recurrence_days  # counted from the newest SCANNED confirmed memories the person may see
        recurring = [r.line(days) for r in recurring_alerts(recent, utcnow() - timedelta(days=days))]
        found: list[RecallMatch] = []
        found_weak = False
        if query and query.strip():
            # no channel: the store leaves private memories out of the search altogether
            matches = await self._recall.recall(RecallQuery(team_id=team_id, title=query.strip()[:3000], limit=20))
            # what the thread and /recall would show (strong, or the weak few): one judgement decides
            strong, weak, _ = split_by_tier(matches)
            shown, found_weak = strong + weak, not strong and bool(weak)
            found = [m for m in shown if await visible(m.memory.is_private, m.memory.channel_id)]
        return HomeContent(
            awaiting=awaiting[: self._shown],
            to_review=to_review[: self._shown],
            to_review_more=len(to_review) > self._shown,
            recent=recent[: self._shown],
            query=query.strip() if query else None,
            found=found[: self._shown],
            found_weak=found_weak and bool(found),
            recurring=recurring[: self._shown],
        )

    async def _may_close(self, actor: Actor | None, incident: IncidentRecord, is_member: IsMember) -> bool:
        if actor is None:
            return False
        access = self._recall.access
        if access.may_close(actor, incident, in_channel=False):  # no need to ask Slack
            return True
        try:
            return access.may_close(actor, incident, in_channel=await is_member(incident.channel))
        except Exception:  # noqa: BLE001 - Slack could not say: not offered
            return False

    async def seen_from(
        self, team_id: str, incident_id: str, channel_id: str | None, is_member: IsMember
    ) -> str | None:
        """Where a memory is acted on from: the request's channel, or — from App Home, which has
        none — the memory's own private channel when the person is in it. The policy's privacy
        rule then decides (bot/services/access.py): a private memory seen from elsewhere is not
        found."""
        if channel_id:
            return channel_id
        memory = await self._memory.get(team_id, incident_id)
        if memory.is_private and memory.channel_id and await _Visibility(is_member)(True, memory.channel_id):
            return memory.channel_id
        return None
