"""Finding patterns: confirmed episodes that recur by mechanism and remediation.

Pure: memories in, candidate groups and rule proposals out. Only evidence counts — a memory a
person confirmed (human or verification) other than by verifying their own fix, with a known
root cause and fix, from a channel everyone may see (a rule shows its incidents' ids and text to the whole team). Unconfirmed,
rejected and superseded memories never count.

Grouping is by stable features before words:
1. the diagnosis mechanism — the vocabulary's concepts named in the root cause and how it was
   found (else in the title, symptoms and error; else the error signature);
2. within one mechanism, the remediation — episodes are linked when their root cause and fix
   share at least MIN_SHARED_TERMS distinctive terms, and a fair share of them (terms naming the mechanism itself, and
   terms used under most of the bank's mechanisms, say nothing about which fix it was);
3. a linked group keeps the members that share its core terms; at `min_episodes` it is a
   candidate.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.models import MemoryDraft, MemoryRecord
from bot.recall.concepts import Vocabulary, words
from bot.recall.signature import error_signature
from bot.recall.tokens import surface_forms, tokenize
from bot.rules.model import DeadEnd, Decision, Provenance, RootCause, Rule, RuleMatch

DEFAULT_MIN_EPISODES = 3
MIN_SHARED_TERMS = 2
MIN_OVERLAP = 0.2
"""Shared terms as a share of the shorter write-up's distinctive terms. Measured: two long public
postmortems of one organisation with different causes share 7 of 81 terms (0.09); the recurring
pairs of eval/incidents share 0.22-0.25, the seeded leak episodes of the tests 0.33-0.5."""
MAX_CORE_TERMS = 6
MAX_CHECKS = 5
MAX_DEAD_ENDS = 8
COMMON_SHARE = 0.5
"""A term used under more than this share of the bank's mechanisms is common, not distinctive."""
MIN_MECHANISMS_FOR_COMMON = 4

# words of every remediation write-up that say nothing about which fix it was
GENERIC_TERMS = frozenset(
    """fix fixed deploy deployed hotfix patch patched issue incident problem change changed
    update updated applied added made back normal again now new ran run""".split()
)


@dataclass(frozen=True, slots=True)
class Episode:
    """One confirmed memory, reduced to what a pattern is made of."""

    memory: MemoryRecord
    mechanism: tuple[str, ...]  # concept names, or ("signature: …",) when no concept is named
    signature: str | None
    terms: frozenset[str]  # distinctive terms of root cause and fix

    @property
    def incident_id(self) -> str:
        return self.memory.incident_id

    @property
    def when(self) -> datetime:
        return self.memory.occurred_at or self.memory.resolved_at or self.memory.created_at


@dataclass(frozen=True, slots=True)
class Candidate:
    episodes: tuple[Episode, ...]  # newest first
    core_terms: tuple[str, ...]

    @property
    def core_words(self) -> tuple[str, ...]:
        """The core terms as the memories wrote them ("retry", never the stem "retri"): what a
        rule file, its id and its title show (matching stems them again: rule_terms)."""
        texts = [t for e in self.episodes for t in (e.memory.root_cause, e.memory.resolution)]
        surfaces = surface_forms(*texts)
        return tuple(surfaces.get(t, t).lower() for t in self.core_terms)

    @property
    def mechanism(self) -> tuple[str, ...]:
        return self.episodes[0].mechanism

    @property
    def incident_ids(self) -> list[str]:
        return sorted(e.incident_id for e in self.episodes)


def is_evidence(memory: MemoryRecord) -> bool:
    """Independently confirmed: a resolver's own "verified" (self-verified) is not evidence yet."""
    return bool(
        memory.reusable
        and not memory.self_verified
        and memory.root_cause
        and memory.resolution
        and not memory.is_private
    )


def diagnosis_mechanism(memory: MemoryDraft, vocabulary: Vocabulary) -> tuple[str, ...]:
    """The mechanism the diagnosis names; what was seen stands in when the diagnosis names none."""
    found = vocabulary.detect(memory.root_cause, memory.diagnosis)
    if found:
        return found
    found = vocabulary.detect(memory.title, memory.symptoms, memory.error_message)
    if found:
        return found
    signature = error_signature(memory.error_message)
    return (f"signature: {signature}",) if signature else ()


def mechanism_words(mechanism: Sequence[str], vocabulary: Vocabulary) -> frozenset[str]:
    out: set[str] = set()
    for concept in vocabulary.concepts:
        if concept.name in mechanism:
            out.update(w for phrase in concept.phrases for w in phrase)
            out.update(words(concept.name))
    return frozenset(out)


def cause_and_fix_terms(memory: MemoryDraft, ignore: frozenset[str]) -> frozenset[str]:
    terms = tokenize(memory.root_cause) + tokenize(memory.resolution)
    return frozenset(t for t in terms if t not in ignore and t not in GENERIC_TERMS and "-" not in t and "." not in t)


def episodes_of(memories: Iterable[MemoryRecord], vocabulary: Vocabulary) -> list[Episode]:
    """Evidence episodes, with the terms common to the bank's mechanisms dropped from each."""
    raw: list[Episode] = []
    for memory in memories:
        if not is_evidence(memory):
            continue
        mechanism = diagnosis_mechanism(memory, vocabulary)
        if not mechanism:
            continue
        terms = cause_and_fix_terms(memory, mechanism_words(mechanism, vocabulary))
        raw.append(Episode(memory, mechanism, error_signature(memory.error_message), terms))
    common = common_terms(raw)
    return [Episode(e.memory, e.mechanism, e.signature, e.terms - common) for e in raw]


def common_terms(episodes: Sequence[Episode]) -> frozenset[str]:
    """Terms used across most mechanisms ("rolled", "config"): they name no particular fix. Counted
    per mechanism, not per episode, so that a pattern that fills the bank keeps its own words."""
    by_mechanism: dict[tuple[str, ...], set[str]] = {}
    for episode in episodes:
        by_mechanism.setdefault(episode.mechanism, set()).update(episode.terms)
    if len(by_mechanism) < MIN_MECHANISMS_FOR_COMMON:
        return frozenset()
    df = Counter(t for terms in by_mechanism.values() for t in terms)
    return frozenset(t for t, n in df.items() if n / len(by_mechanism) > COMMON_SHARE)


def linked(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two write-ups share a remediation: enough shared terms, and a fair share of the shorter
    one (two long postmortems of one organisation share words like its tools' names)."""
    shared = len(a & b)
    return shared >= MIN_SHARED_TERMS and shared >= MIN_OVERLAP * min(len(a), len(b))


def _components(episodes: Sequence[Episode]) -> list[list[Episode]]:
    parent = list(range(len(episodes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # only pairs that share a term are compared (an inverted index, not every pair)
    postings: dict[str, list[int]] = {}
    for i, episode in enumerate(episodes):
        for term in episode.terms:
            postings.setdefault(term, []).append(i)
    for i, episode in enumerate(episodes):
        sharing = {j for term in episode.terms for j in postings[term] if j > i}
        for j in sharing:
            if linked(episode.terms, episodes[j].terms):
                parent[root(i)] = root(j)
    groups: dict[int, list[Episode]] = {}
    for i, episode in enumerate(episodes):
        groups.setdefault(root(i), []).append(episode)
    return list(groups.values())


def core_terms(episodes: Sequence[Episode]) -> tuple[str, ...]:
    """Terms most of the group uses, most used first (ties alphabetical, for stable ids)."""
    df = Counter(t for e in episodes for t in e.terms)
    need = max(2, math.ceil(len(episodes) / 2))
    ranked = sorted((t for t, n in df.items() if n >= need), key=lambda t: (-df[t], t))
    return tuple(ranked[:MAX_CORE_TERMS])


def shares_root_cause(terms: frozenset[str], core: Sequence[str]) -> bool:
    return len(terms & set(core)) >= min(MIN_SHARED_TERMS, len(core))


def rule_terms(words: Sequence[str]) -> list[str]:
    """A rule file's root-cause words as terms (the file holds words a reviewer reads and may
    edit; the tokenizer, and so the stems, may change between versions)."""
    return list(dict.fromkeys(t for w in words for t in tokenize(w)))


def find_candidates(
    memories: Iterable[MemoryRecord], vocabulary: Vocabulary, *, min_episodes: int = DEFAULT_MIN_EPISODES
) -> list[Candidate]:
    """Groups of at least `min_episodes` confirmed episodes with one mechanism and one remediation."""
    by_mechanism: dict[tuple[str, ...], list[Episode]] = {}
    for episode in episodes_of(memories, vocabulary):
        by_mechanism.setdefault(episode.mechanism, []).append(episode)
    candidates: list[Candidate] = []
    for block in by_mechanism.values():
        for group in _components(block):
            if len(group) < min_episodes:
                continue
            core = core_terms(group)
            if len(core) < MIN_SHARED_TERMS:
                continue
            members = [e for e in group if shares_root_cause(e.terms, core)]
            if len(members) >= min_episodes:
                members.sort(key=lambda e: (e.when, e.incident_id), reverse=True)
                candidates.append(Candidate(tuple(members), core_terms(members) or core))
    candidates.sort(key=lambda c: (-len(c.episodes), c.incident_ids))
    return candidates


# ---- a candidate as a rule proposal ---------------------------------------------------------


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def rule_id(candidate: Candidate) -> str:
    """Stable across proposals while the mechanism and the top core terms stay the same."""
    mechanism = candidate.mechanism[0].removeprefix("signature: ")
    return "R-" + _slug(" ".join([mechanism[:40], *candidate.core_words[:2]]))[:80].strip("-")


def _distinct_texts(texts: Iterable[str | None]) -> list[str]:
    seen: dict[str, str] = {}
    for text in texts:
        if text and (key := " ".join(words(text))) and key not in seen:
            seen[key] = text
    return list(seen.values())


def dead_ends(episodes: Sequence[Episode]) -> list[DeadEnd]:
    """Failed attempts across the episodes, the same action (same words) merged, most seen first."""
    merged: dict[frozenset[str], DeadEnd] = {}
    for episode in episodes:
        for attempt in episode.memory.failed_attempts:
            key = frozenset(tokenize(attempt.action)) or frozenset([attempt.action.lower()])
            known = merged.get(key)
            if known is None:
                merged[key] = DeadEnd(
                    action=attempt.action, why_it_failed=attempt.why_it_failed, seen_in=[episode.incident_id]
                )
            elif episode.incident_id not in known.seen_in:
                known.seen_in.append(episode.incident_id)
                if not known.why_it_failed:
                    known.why_it_failed = attempt.why_it_failed
    for dead_end in merged.values():
        dead_end.seen_in.sort()
    ranked = sorted(merged.values(), key=lambda d: -len(d.seen_in))
    return ranked[:MAX_DEAD_ENDS]


def propose_rule(candidate: Candidate, *, team: str, bank: str, min_episodes: int, now: datetime) -> Rule:
    """An inert rule proposal: version 1, not replayed, not reviewed."""
    newest = candidate.episodes[0].memory
    services = sorted({e.memory.service.strip().lower() for e in candidate.episodes if e.memory.service})
    signatures = sorted({e.signature for e in candidate.episodes if e.signature})
    concepts = [c for c in candidate.mechanism if not c.startswith("signature: ")]
    checks = _distinct_texts(e.memory.diagnosis for e in candidate.episodes)[:MAX_CHECKS]
    if not checks:
        checks = [f"Look for the cause these incidents confirmed: {newest.root_cause}"]
    what = ", ".join(concepts) or (signatures[0] if signatures else "one failure")
    title = f"{'/'.join(services) or 'any service'}: {what} — {' '.join(candidate.core_words[:3])}"
    rule = Rule(
        id=rule_id(candidate),
        version=1,
        title=title[:3000],
        match=RuleMatch(services=services, error_signatures=signatures, concepts=concepts),
        root_cause=RootCause(summary=newest.root_cause or "", concepts=concepts, terms=list(candidate.core_words)),
        checks=checks,
        fix=newest.resolution or "",
        dead_ends=dead_ends(candidate.episodes),
        provenance=Provenance(
            team=team, incidents=candidate.incident_ids, min_episodes=min_episodes, generated_at=now, bank=bank
        ),
        content_hash="0" * 64,
        decision=Decision.NONE,
    )
    return rule.stamped()
