"""Rules: find patterns in the bank, propose rule files, replay them, approve them, and tell
the bot which reviewed rules apply to an incident.

Rule files are read and written only through bot.rules.files; matching and judging are pure
(bot.rules.matching); this module adds the memory bank: the evidence, and the provenance check
(a rule rests only on incidents that are still confirmed).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from bot.errors import MemoryNotFound
from bot.memory.port import MemoryStore
from bot.models import Incident, MemoryDraft, MemoryRecord, utcnow
from bot.recall.concepts import Vocabulary
from bot.rules.files import RuleFile, RuleFileError, load_rules, read_rule, rule_files, rule_path, write_rule
from bot.rules.matching import Judgement, fires, judge_cases, judge_memories
from bot.rules.model import Decision, ReplayResult, Rule
from bot.rules.patterns import DEFAULT_MIN_EPISODES, Candidate, find_candidates, propose_rule

log = logging.getLogger(__name__)
PAGE = 500


@dataclass(frozen=True, slots=True)
class Proposal:
    rule: Rule
    path: Path
    written: bool  # False: a file for this rule id exists already and was left as it is


@dataclass(frozen=True, slots=True)
class Replayed:
    rule: Rule
    path: Path
    bumped_from: int | None  # the version an unstamped edit was bumped from


@dataclass(frozen=True, slots=True)
class ReplayCorpus:
    """A replay corpus (docs/REPLAY.md) already read: its memories and its cases."""

    name: str
    memories: Sequence[MemoryDraft]
    cases: Sequence[tuple[str, Incident, Sequence[str]]]


class RuleService:
    def __init__(self, memory: MemoryStore, vocabulary: Vocabulary, folder: Path | None) -> None:
        self._memory = memory
        self._vocabulary = vocabulary
        self._folder = folder
        self._cache: dict[Path, tuple[tuple[int, int], Rule | RuleFileError]] = {}

    @property
    def folder(self) -> Path:
        if self._folder is None:
            raise RuleFileError("no rules folder: set RULES_DIR (or pass --dir)")
        return self._folder

    async def memories(self, team_id: str) -> list[MemoryRecord]:
        out: list[MemoryRecord] = []
        while True:
            page = await self._memory.list(team_id, limit=PAGE, offset=len(out))
            out.extend(page.memories)
            if not page.memories or len(out) >= page.total:
                return out

    # ---- patterns and proposals -----------------------------------------------------------

    async def patterns(self, team_id: str, *, min_episodes: int = DEFAULT_MIN_EPISODES) -> list[Candidate]:
        return find_candidates(await self.memories(team_id), self._vocabulary, min_episodes=min_episodes)

    async def propose(
        self, team_id: str, *, bank: str, min_episodes: int = DEFAULT_MIN_EPISODES, now: datetime | None = None
    ) -> list[Proposal]:
        """One inert rule file per candidate; a file that exists (maybe reviewed) is never overwritten."""
        now = now or utcnow()
        out: list[Proposal] = []
        for candidate in await self.patterns(team_id, min_episodes=min_episodes):
            rule = propose_rule(candidate, team=team_id, bank=bank, min_episodes=min_episodes, now=now)
            path = rule_path(self.folder, rule.id)
            if path.exists():
                out.append(Proposal(rule, path, written=False))
            else:
                out.append(Proposal(rule, write_rule(self.folder, rule), written=True))
        return out

    # ---- provenance, replay, approval -----------------------------------------------------

    async def check_provenance(self, rule: Rule, path: Path | None = None) -> None:
        """Refuse a rule that rests on an incident which is not (or no longer) confirmed."""
        where = f"{path}: " if path else f"{rule.id}: "
        team = rule.provenance.team
        for incident_id in rule.provenance.incidents:
            try:
                memory = await self._memory.get(team, incident_id)
            except MemoryNotFound:
                raise RuleFileError(
                    f"{where}provenance.incidents: {incident_id} is not in team {team}'s memory bank"
                ) from None
            if not memory.reusable:
                raise RuleFileError(
                    f"{where}provenance.incidents: {incident_id} is {memory.truth_state.value}; "
                    "a rule rests only on human- or verification-confirmed incidents"
                )

    def _selected(self, rule_ids: Sequence[str]) -> list[Path]:
        if rule_ids:
            return [rule_path(self.folder, rid) for rid in rule_ids]
        loaded, refused = load_rules(self.folder)
        if refused:
            raise refused[0]
        return [f.path for f in loaded]

    async def replay(
        self, rule_ids: Sequence[str] = (), *, corpus: ReplayCorpus | None = None, bank: str,
        now: datetime | None = None,
    ) -> list[Replayed]:  # fmt: skip
        """Replay each rule against its team's bank (and a corpus) and write the result into its
        file. A rule edited since it was stamped is first bumped to its next version."""
        now = now or utcnow()
        out: list[Replayed] = []
        for path in self._selected(rule_ids):
            rule = read_rule(path)
            await self.check_provenance(rule, path)
            bumped_from = None
            if rule.edited:
                bumped_from = rule.version
                rule = rule.bumped()
            judgement = judge_memories(rule, await self.memories(rule.provenance.team), self._vocabulary)
            sources = [f"bank: team {rule.provenance.team} on {bank}"]
            if corpus is not None:
                by_id = {m.incident_id: m for m in corpus.memories}
                prefix = f"{corpus.name}:"
                judgement.add(judge_memories(rule, corpus.memories, self._vocabulary, prefix=prefix))
                judgement.add(judge_cases(rule, corpus.cases, by_id, self._vocabulary, prefix=prefix))
                sources.append(f"corpus: {corpus.name}")
            rule = rule.stamped(replay=_result(rule.version, now, sources, judgement))
            out.append(Replayed(rule, write_rule(self.folder, rule), bumped_from))
        return out

    async def approve(self, rule_id: str, *, by: str, now: datetime | None = None) -> Rule:
        """Record a reviewer's approval of the rule's current version (the file is then merged
        through the team's usual review)."""
        path = rule_path(self.folder, rule_id)
        rule = read_rule(path)
        await self.check_provenance(rule, path)
        if rule.edited:
            raise RuleFileError(f"{path}: {rule.inert_because()}")
        if rule.replay is None or rule.replay.version != rule.version:
            raise RuleFileError(
                f"{path}: replay version {rule.version} first: `incident-memory rules replay {rule.id}`"
            )
        rule = rule.stamped(reviewed_by=by, approved_at=now or utcnow(), decision=Decision.APPROVED)
        write_rule(self.folder, rule)
        return rule

    # ---- what the bot uses ----------------------------------------------------------------

    def _current_files(self) -> tuple[list[RuleFile], list[RuleFileError]]:
        """The folder's rules, re-read only when a file changed."""
        if self._folder is None or not self._folder.is_dir():
            return [], []
        loaded: list[RuleFile] = []
        refused: list[RuleFileError] = []
        seen: dict[Path, tuple[tuple[int, int], Rule | RuleFileError]] = {}
        for path in rule_files(self._folder):
            try:
                stat = path.stat()
            except OSError:
                continue
            key = (stat.st_mtime_ns, stat.st_size)
            cached = self._cache.get(path)
            if cached is None or cached[0] != key:
                try:
                    cached = (key, read_rule(path))
                except RuleFileError as exc:
                    cached = (key, exc)
                    log.warning("rule file refused: %s", exc)
            seen[path] = cached
            if isinstance(cached[1], Rule):
                loaded.append(RuleFile(path, cached[1]))
            else:
                refused.append(cached[1])
        self._cache = seen
        return loaded, refused

    async def known_patterns(self, incident: Incident, team_id: str) -> list[Rule]:
        """Approved rules of the team that fire on the incident (context for what to check);
        a bad or unapproved file is skipped and logged, never raised."""
        out: list[Rule] = []
        loaded, _refused = self._current_files()
        for rule_file in loaded:
            rule = rule_file.rule
            if rule.provenance.team != team_id or not rule.active:
                continue
            if not fires(rule.match, incident, self._vocabulary):
                continue
            try:
                await self.check_provenance(rule, rule_file.path)
            except RuleFileError as exc:
                log.warning("rule not used: %s", exc)
                continue
            out.append(rule)
        return out

    def statuses(self) -> tuple[list[tuple[RuleFile, str | None]], list[RuleFileError]]:
        """Every rule file with why it is inert (None: in use), and the files refused."""
        loaded, refused = load_rules(self.folder)
        return [(f, f.rule.inert_because()) for f in loaded], refused


def _result(version: int, now: datetime, sources: list[str], judgement: Judgement) -> ReplayResult:
    return ReplayResult(
        version=version,
        ran_at=now,
        sources=sources,
        hits=sorted(judgement.hits),
        false_fires=sorted(judgement.false_fires),
        misses=sorted(judgement.misses),
        unjudged=sorted(judgement.unjudged),
    )
