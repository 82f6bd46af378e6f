"""What the guard compares an answer with: the CURRENT evidence by reference, and what only the PAST says.

Current evidence is addressed as the prompt numbers it: T1, T2… for channel messages (oldest
first), or a declared field's name. Past content is what the recalled memories say about their
cause and fix that the current evidence does not: words that, in a statement about today, can
only have come from history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from bot.fence import neutralise
from bot.investigation.models import DECLARED_FIELDS, TimelineEntry
from bot.investigation.prompt import timeline_ref, when
from bot.investigation.text import normalise, terms
from bot.models import Incident, RecallMatch
from bot.recall.concepts import load_vocabulary

# Words that say how something was seen or when, not what: a restatement may add them freely.
_FRAMING = frozenset(
    "since began begin begun start started starting show shows showed showing see seeing seen saw report reports "
    "reported say says said mention mentioned about around still also both currently now today there been has".split()
)
# Two words match on a shared stem of this many letters ("timeouts" / "timed", "returned" / "returning").
_STEM = 4


def ordered(timeline: list[TimelineEntry]) -> list[TimelineEntry]:
    """The timeline in the prompt's order (oldest first), which is what T1, T2… count."""
    return sorted(timeline, key=lambda e: e.at)


def content_terms(text: str | None) -> set[str]:
    return terms(text) - _FRAMING


def stems_of(pool: set[str] | frozenset[str]) -> frozenset[str]:
    return frozenset(p[:_STEM] for p in pool if len(p) > _STEM)


def covered(term: str, pool: set[str] | frozenset[str], stems: frozenset[str] | None = None) -> bool:
    """`stems`: the pool's stems_of, when the pool is asked many times (one set look-up, not a scan)."""
    if term in pool:
        return True
    if len(term) <= _STEM:
        return False
    if stems is not None:
        return term[:_STEM] in stems
    return any(len(p) > _STEM and p[:_STEM] == term[:_STEM] for p in pool)


def coverage_of(words: set[str], pool: set[str] | frozenset[str], stems: frozenset[str] | None = None) -> float:
    return sum(covered(t, pool, stems) for t in words) / len(words) if words else 0.0


@dataclass(frozen=True)
class CurrentEvidence:
    items: dict[str, str]  # canonical ref → its text
    all_terms: frozenset[str]
    # each piece's content words and their stems, read once: the guard asks them for every
    # statement (re-reading the timeline per statement made it quadratic)
    item_terms: dict[str, frozenset[str]] = field(default_factory=dict)
    item_stems: dict[str, frozenset[str]] = field(default_factory=dict)
    all_stems: frozenset[str] = frozenset()
    raw: str = ""  # the pieces' text, joined: read again only for what is asked of it (corpus, concepts)

    @classmethod
    def of(cls, incident: Incident, timeline: list[TimelineEntry], omitted: int = 0) -> CurrentEvidence:
        """`timeline`: the messages the prompt showed; `omitted`: how many older ones it left out
        (not given: an answer cannot rest on what its model never saw, and the prompt's budget,
        not the channel's length, bounds what the guard reads). Refs count from T{omitted + 1}."""
        items: dict[str, str] = {}
        for name in DECLARED_FIELDS:
            value = getattr(incident, name, None)
            if value:
                items[name] = when(value) if name == "started_at" else str(value)
        for number, entry in enumerate(ordered(timeline), start=omitted + 1):
            items[timeline_ref(number)] = f"{entry.author}: {entry.text}"
        item_terms = {ref: frozenset(content_terms(text)) for ref, text in items.items()}
        item_stems = {ref: stems_of(words) for ref, words in item_terms.items()}
        return cls(
            items=items,
            all_terms=frozenset().union(*item_terms.values()),
            item_terms=item_terms,
            item_stems=item_stems,
            all_stems=frozenset().union(*item_stems.values()),  # stems_of(all_terms), without a second pass
            raw="\n".join(items.values()),
        )

    # A 40,000-character message costs a pass for each of these: they are read when asked, not
    # for every answer (a quote to check, a memory whose cause names a mechanism).
    @cached_property
    def corpus(self) -> str:
        """Everything, normalised, as declared and as the prompt showed it (for quotes)."""
        plain = normalise(self.raw)
        neutral = neutralise(self.raw)
        return plain + "\n" + (plain if neutral == self.raw else normalise(neutral))

    @cached_property
    def concepts(self) -> frozenset[str]:
        """The mechanisms the current evidence names (bot/recall/concepts)."""
        return frozenset(load_vocabulary().detect(self.raw))

    def resolve(self, ref: str) -> str | None:
        """The canonical ref ("t2" → "T2", "Error message" → "error_message"), or None if there is no such evidence."""
        key = ref.strip().strip("[]").strip()
        if key[:1] in "tT" and key[1:].isdigit():
            key = timeline_ref(int(key[1:]))
        else:
            key = key.casefold().replace(" ", "_")
        return key if key in self.items else None

    def _terms(self, ref: str) -> frozenset[str]:
        words = self.item_terms.get(ref)
        return words if words is not None else frozenset(content_terms(self.items[ref]))

    def terms_of(self, refs: list[str]) -> set[str]:
        return set().union(*(self._terms(r) for r in refs)) if refs else set()

    def coverage(self, statement_terms: set[str], refs: list[str]) -> float:
        """How much of a statement the cited pieces say (their words read once, at `of`; several
        pieces are asked one by one, not merged again for every statement)."""
        if refs and all(r in self.item_stems for r in refs):
            pieces = [(self.item_terms[r], self.item_stems[r]) for r in refs]
            said = sum(any(covered(t, words, stems) for words, stems in pieces) for t in statement_terms)
            return said / len(statement_terms) if statement_terms else 0.0
        pool = self.terms_of(refs)
        return coverage_of(statement_terms, pool, stems_of(pool))

    def best_support(self, statement_terms: set[str], threshold: float) -> list[str]:
        """The evidence that says a statement: the best piece, or the best two together; [] if none does."""
        scored = sorted(self.items, key=lambda r: -self.coverage(statement_terms, [r]))
        for refs in (scored[:1], scored[:2]):
            if refs and self.coverage(statement_terms, refs) >= threshold:
                return refs
        return []


@dataclass(frozen=True)
class PastMemory:
    incident_id: str
    cause_terms: frozenset[str]  # its root cause and how it was found, minus what today says
    fix_terms: frozenset[str]  # what fixed it, minus what today says
    other_terms: frozenset[str]  # its title and lesson, minus what today says
    cause_concepts: frozenset[str]  # mechanisms its cause names that today's evidence does not


@dataclass(frozen=True)
class PastContent:
    memories: tuple[PastMemory, ...] = field(default_factory=tuple)

    @classmethod
    def of(cls, matches: list[RecallMatch], current: CurrentEvidence) -> PastContent:
        vocabulary = load_vocabulary()
        now, now_stems = current.all_terms, current.all_stems or stems_of(current.all_terms)

        def only_past(*texts: str | None) -> frozenset[str]:
            return frozenset(
                t for t in set().union(*(content_terms(x) for x in texts)) if not covered(t, now, now_stems)
            )

        memories = []
        for match in matches:
            m = match.memory
            named = frozenset(vocabulary.detect(m.root_cause, m.diagnosis))
            memories.append(
                PastMemory(
                    incident_id=m.incident_id,
                    cause_terms=only_past(m.root_cause, m.diagnosis),
                    fix_terms=only_past(m.resolution),
                    other_terms=only_past(m.title, m.lesson),
                    cause_concepts=named - current.concepts if named else named,
                )
            )
        return cls(tuple(memories))

    def carried(self, text: str, *, minimum: int = 2) -> list[str]:
        """Ids of memories whose cause, fix or title this text carries (at least `minimum` of their words
        that today's evidence does not have, or a mechanism only their cause names)."""
        said = content_terms(text)
        concepts = set(load_vocabulary().detect(text))
        found = []
        for m in self.memories:
            words = {t for t in said if covered(t, set(m.cause_terms | m.fix_terms | m.other_terms))}
            if len(words) >= minimum or concepts & m.cause_concepts:
                found.append(m.incident_id)
        return found

    def cause_or_fix_words(self, text: str) -> list[str]:
        """Ids of memories whose cause or fix uses a word of this text that today's evidence does not:
        in a statement about now, one such word is already the past speaking."""
        said = content_terms(text)
        return [m.incident_id for m in self.memories if any(covered(t, set(m.cause_terms | m.fix_terms)) for t in said)]

    def fix_carried(self, text: str, *, minimum: int = 2) -> list[str]:
        """Ids of memories whose fix this text carries."""
        said = content_terms(text)
        return [m.incident_id for m in self.memories if sum(covered(t, set(m.fix_terms)) for t in said) >= minimum]
