"""Recall for an incident or for free text, with conflicts flagged (never blended).

This is where the pure pipeline (bot/recall) meets the store: the store finds the candidates
for the query's terms, the pipeline ranks them, and conflicts are found once, on what is shown.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Protocol

from bot.memory.port import MemoryStore
from bot.models import FeedbackKind, IncidentRecord, MemoryAlert, MemoryRecord, RecallMatch, RecallQuery, TruthState
from bot.observability import Metrics, bind
from bot.policy import Act, Actor
from bot.recall.alerts import recurrence_line
from bot.recall.conflicts import conflict_clusters
from bot.recall.floor import DEFAULT_FLOOR
from bot.recall.judgement import split_by_tier
from bot.recall.pipeline import Recaller
from bot.rules.model import Rule
from bot.services.access import Access
from bot.services.meaning import SemanticRecall
from bot.services.rules import RuleService

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RecallResult:
    matches: list[RecallMatch]
    """What a responder is shown as a thread: the strong matches (bot/recall/judgement.py)."""
    conflicts: dict[str, list[list[str]]] = field(default_factory=dict)
    """service → incident_ids of shown memories grouped by the root cause they name, for the
    services whose shown memories name two or more (groups disagree; one group's members agree)"""
    under_floor: list[RecallMatch] = field(default_factory=list)
    """Recalled but not shown (tier below)."""
    weak: list[RecallMatch] = field(default_factory=list)
    """Nothing strong, but these few are close: named in one line, the responder decides."""
    known_patterns: list[Rule] = field(default_factory=list)
    """approved rules that fire on the incident: context for what to check, shown first"""
    recurrence: str | None = None
    """`4th time in 90 days: INC-…` (its alerts fired before), or `new: nothing like it in memory`"""


class AlertMemory(Protocol):
    """The alerts an incident fired, and the confirmed memories of its service that fired them too."""

    async def fired_for(self, team_id: str, incident_id: str) -> list[MemoryAlert]: ...

    async def recurring(self, query: RecallQuery, service: str, names: list[str], since: datetime) -> list[str]: ...


class RecallService:
    def __init__(
        self,
        memory: MemoryStore,
        *,
        recaller: Recaller | None = None,
        limit: int = 5,
        floor: float = DEFAULT_FLOOR,
        metrics: Metrics | None = None,
        semantic: SemanticRecall | None = None,
        rules: RuleService | None = None,
        access: Access | None = None,
        alerts: AlertMemory | None = None,
        alert_labels: str = "",
        recurrence_days: int = 90,
    ) -> None:
        self._memory = memory
        # an incident's alerts (team, incident id), and the labels naming one (RECALL_ALERT_LABELS)
        self._alerts = alerts
        self._alert_labels = [k.strip() for k in alert_labels.split(",") if k.strip()]
        self._recurrence_days = recurrence_days  # RECURRENCE_WINDOW_DAYS
        self._semantic = semantic
        # the query is read with the vocabulary the store indexed the memories with
        self._recaller = (recaller or Recaller(vocabulary=memory.vocabulary)).with_floor(floor)
        self._rules = rules
        self._limit = limit
        self._floor = floor
        self._metrics = metrics
        self._access = access

    @property
    def keeps_private_text(self) -> bool:
        """Whether a query's text from a private channel must be marked so (semantic recall on,
        private channels kept from the embeddings endpoint): callers then find out the channel's privacy."""
        return self._semantic is not None and not self._semantic.include_private

    @property
    def access(self) -> Access:
        if self._access is None:
            raise RuntimeError("this RecallService was built without the access policy")
        return self._access

    async def recall(self, query: RecallQuery) -> list[RecallMatch]:
        """The memories most like the query, each with its score, components and reasons."""
        terms = self._recaller.terms(query)
        if self._semantic is None:
            candidates = await self._memory.candidates(query, terms)
        else:
            # None when the endpoint fails: then recall is lexical, as without embeddings
            meaning = await self._semantic.query_meaning(query)
            candidates = await self._memory.candidates(query, terms, meaning=meaning)
        return self._recaller.rank(query, terms, candidates)

    async def _timed(self, query: RecallQuery, kind: str) -> list[RecallMatch]:
        if self._metrics is None:
            return await self.recall(query)
        with self._metrics.timed(self._metrics.recall_latency, kind=kind):
            return await self.recall(query)

    def _shown(self, matches: list[RecallMatch]) -> RecallResult:
        """What a responder is shown: the strong matches and their conflicts, or the weak few."""
        strong, weak, below = split_by_tier(matches)
        return RecallResult(strong, conflict_clusters(strong, self._recaller.vocabulary), below, weak)

    async def for_incident(self, incident: IncidentRecord) -> RecallResult:
        bind(incident=incident.incident_id)
        # the incident's own memory (resolved before, now recalled in its channel) is not "past"
        fired = await self._alerts.fired_for(incident.team, incident.incident_id) if self._alerts is not None else []
        query = RecallQuery.for_incident(
            incident, incident.team, limit=self._limit, exclude_ids=[incident.incident_id], private=incident.is_private,
            isolated=incident.is_isolated, alerts=fired, alert_labels=self._alert_labels,
        )  # fmt: skip
        # the approved rules that fire do not depend on what is recalled: both are read at once
        matches, patterns, past = await asyncio.gather(
            self._timed(query, "incident"), self.known_patterns(incident), self._recurring(incident, query)
        )
        shown = self._shown(matches)
        recurrence = recurrence_line(past, self._recurrence_days, found=bool(shown.matches or shown.weak))
        return replace(shown, known_patterns=patterns, recurrence=recurrence)

    @property
    def recurrence_days(self) -> int:
        """RECURRENCE_WINDOW_DAYS: how far back a recurrence is counted."""
        return self._recurrence_days

    async def _recurring(self, incident: IncidentRecord, query: RecallQuery) -> list[str]:
        """The confirmed memories of the incident's service that fired one of its alerts' names
        within RECURRENCE_WINDOW_DAYS of its start, newest first."""
        if self._alerts is None or not query.alerts or not incident.service:
            return []
        since = incident.started_at - timedelta(days=self._recurrence_days)
        names = sorted({a.name for a in query.alerts})
        return await self._alerts.recurring(query, incident.service, names, since)

    async def known_patterns(self, incident: IncidentRecord) -> list[Rule]:
        """Approved rules that fire on the incident; recall goes on without them if they fail."""
        if self._rules is None or incident.is_isolated:
            return []  # an isolated channel is shown nothing built from other channels' memories
        try:
            return await self._rules.known_patterns(incident, incident.team)
        except Exception:  # noqa: BLE001 - a rule is extra context, never worth losing the recall
            log.warning("known patterns for %s were not loaded", incident.incident_id, exc_info=True)
            return []

    async def for_text(
        self, team_id: str, channel_id: str | None, text: str, *, private_channel: bool = False,
        isolated_channel: bool = False,
    ) -> RecallResult:  # fmt: skip
        query = RecallQuery(
            team_id=team_id, title=text, channel_id=channel_id, limit=self._limit, private=private_channel,
            isolated=isolated_channel,
        )  # fmt: skip
        return self._shown(await self._timed(query, "text"))

    async def feedback(
        self, team_id: str, incident_id: str, user_id: str, kind: FeedbackKind, *, channel_id: str | None
    ) -> None:
        """Anyone's vote, on a memory they can see from `channel_id`."""
        await self.access.memory(team_id, incident_id, channel_id)
        await self._memory.record_feedback(team_id, incident_id, user_id, kind)

    async def reject(
        self, team_id: str, incident_id: str, actor: Actor, reason: str, *, channel_id: str | None
    ) -> MemoryRecord:
        """Reject a memory seen from `channel_id`: NotAllowed unless the policy lets `actor`."""
        memory = await self.access.memory(team_id, incident_id, channel_id)
        await self.access.require(actor, Act.REJECT, memory)
        return await self._memory.transition(
            team_id, incident_id, TruthState.REJECTED, actor=actor.id, actor_name=actor.name, reason=reason
        )

    async def confirm(
        self, team_id: str, incident_id: str, actor: Actor, note: str, *, channel_id: str | None
    ) -> MemoryRecord:
        """Confirm a memory seen from `channel_id` (unconfirmed → human_confirmed, `note` kept in
        its audited history), or verify a self-verified one (→ verification_confirmed, by someone
        other than its resolver): NotAllowed unless the policy lets `actor`."""
        memory = await self.access.memory(team_id, incident_id, channel_id)
        if memory.self_verified:
            await self.access.require(actor, Act.VERIFY, memory)
            return await self._memory.transition(
                team_id, incident_id, TruthState.VERIFICATION_CONFIRMED, actor=actor.id, actor_name=actor.name,
                reason=note, verification_note=note,
            )  # fmt: skip
        await self.access.require(actor, Act.CONFIRM, memory)
        return await self._memory.transition(
            team_id, incident_id, TruthState.HUMAN_CONFIRMED, actor=actor.id, actor_name=actor.name, reason=note
        )

    async def memory(
        self, team_id: str, incident_id: str, *, channel_id: str | None, channel_isolated: bool | None = None
    ) -> MemoryRecord:
        """`/incident show`: the memory, if it may be seen from `channel_id`, else MemoryNotFound."""
        return await self.access.memory(team_id, incident_id, channel_id, channel_isolated=channel_isolated)
