"""Signals: what each candidate has going for it, each a number in [0, 1]."""

from __future__ import annotations

import math
from collections.abc import Mapping, Set
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from bot.models import MemoryRecord, RecallQuery, TruthState
from bot.recall.alerts import same_alert
from bot.recall.candidates import TITLE_QUERY_BONUS, Candidate
from bot.recall.tokens import tokenize, word_pairs

# A verified fix outranks an unverified guess with the same text.
TRUTH_WEIGHT: dict[TruthState, float] = {
    TruthState.VERIFICATION_CONFIRMED: 1.0,
    TruthState.HUMAN_CONFIRMED: 0.9,
    TruthState.UNCONFIRMED_HYPOTHESIS: 0.6,
    TruthState.SUPERSEDED: 0.5,
    TruthState.REJECTED: 0.0,
}
RECENCY_HALF_LIFE_DAYS = 365.0
RARE_COUNTED = 3
"""How many of the query's rarest terms a memory holds a rarity read over its whole text counts (features.py's
HEAD_RARE_CAP, three, is head_rarity's cap in the same unit). body_rarity, which read it, was removed (issue 27:
docs/BENCHMARKS.md, r27-feat, and hy27); kept for the organisation-discounted rarity (r27-orgwords)."""


@dataclass(frozen=True, slots=True)
class Signals:
    lexical: float
    """BM25 relative to the best candidate's (1 for the best)."""
    coverage: float
    """Share of the query's weight (idf, title terms counted thrice as in the lexical score)
    carried by the terms the memory holds: absolute, 1 for a memory holding every query term."""
    title_overlap: float
    """Share of the query title's weight (idf) that the memory's title names too."""
    title_echo: float
    """Share of the memory title's terms that the query names (a re-filing echoes the title)."""
    signature: float
    """1 when the memory failed with the same error signature."""
    concepts: float
    """Share of the query's incident vocabulary concepts the memory names too."""
    same_service: float
    truth: float
    recency: float
    feedback: float
    semantic: float | None = None
    """Similarity in meaning relative to the other candidates (min-max: 1 for the closest, 0 for
    the farthest); None when the query was not embedded or the memory has no vector."""
    similarity: float | None = None
    """The raw cosine similarity behind `semantic` (absolute, comparable between queries)."""
    head: float = 0.0
    """Like `coverage`, against the memory's title, symptoms and error only: a short first report
    covers little of a long postmortem, but what it says is what the postmortem's opening says."""
    same_alert: float | None = None
    """1 when the memory's incident fired one of the query's alerts (bot/recall/alerts.py); None
    when the query has no alerts (a declared incident, a replay), so nothing changes for it."""
    cause: float = 0.0
    """Like `head`, against the memory's root cause and diagnosis: a responder who types the cause
    they suspect names what the memory found, not what it saw (judgement_rules.by_rule reads it)."""
    head_echo: float = 0.0
    """`head` the other way round: the share of the memory's title, symptoms and error terms the
    query names. A long query (a ticket pasted whole) leaves most of its own terms unmatched even
    by its duplicate, so its `head` is low, while it names much of the duplicate's opening; a two-
    line first report names little of anything (judgement_rules.by_rule reads it, ECHO_CLOSE)."""
    lone_word: bool = False
    """The memory's title, symptoms and error hold exactly one of the query's several terms: a lone
    shared word ("office" in an office-printer query), which stands out of an almost empty candidate
    list however little it says (features.FEATURES' head_standout reads 0 for it)."""
    head_rarity: float = 0.0
    """The idf of the query's terms found in the memory's title, symptoms and error, summed and
    counted in terms no memory holds (Candidate.rarest_idf): not a share like `head`. A two-line
    report whose rare words are the opening's carries more evidence than one naming a single
    word, though both cover half of what they say (features.FEATURES' head_rare)."""
    phrase_share: float = 0.0
    """Share of the query's phrases (tokens.word_pairs: two words in a row, each weighing the mean
    idf of its words) that the memory says too, anywhere in its text: a status page's entries
    share their words from one incident to the next, the same failure says them together."""
    query_phrases: float = 0.0
    """The weight of all the query's phrases, counted in terms no memory holds (as head_rarity):
    how much a query says; a ticket pasted whole says dozens of phrases, a first report a few."""
    head_found: tuple[tuple[str, float], ...] = ()
    """The query's terms the memory's title, symptoms and error hold, each with its idf in terms no
    memory holds (head_rarity is their sum): which of them a neighbour holds too is read against
    the other candidates (views.exclusive)."""
    matched_rarity: float = 0.0
    """The idf of the rarest of the query's terms the memory holds anywhere (its matched terms), in
    terms no memory holds (Candidate.rarest_idf): a name few memories say (a service, a host, a
    product, a code-name) said by the query and by this memory, wherever in the memory it is."""
    opening_similarity: float | None = None
    """The cosine of the query's vector with the memory's opening's (title, symptoms and error
    embedded apart): `head` in meaning. None with semantic recall off or no such vector yet."""
    sentence_similarity: float | None = None
    """The cosine of the query's vector with the memory's closest sentence's (meaning.sentences, what
    the card quotes): one sentence of a long postmortem may say what a two-line report says. None
    with semantic recall off or no sentence vectors."""


def _same(a: str | None, b: str | None) -> bool:
    return bool(a and b and a.strip().lower() == b.strip().lower())


@lru_cache(maxsize=65_536)
def _title_terms(title: str) -> frozenset[str]:
    # the same memories come back query after query: their titles are tokenized once
    return frozenset(tokenize(title))


@lru_cache(maxsize=4_096)
def _head_terms(title: str, symptoms: str | None, error: str | None) -> frozenset[str]:
    return frozenset(tokenize(title)) | frozenset(tokenize(symptoms or "")) | frozenset(tokenize(error or ""))


def opening_terms(memory: MemoryRecord) -> frozenset[str]:
    """The terms of a memory's title, symptoms and error: its opening, what `head` is read against
    (features.features_of tells near-duplicates by them)."""
    return _head_terms(memory.title, memory.symptoms, memory.error_message)


@lru_cache(maxsize=4_096)
def _cause_terms(root_cause: str | None, diagnosis: str | None) -> frozenset[str]:
    return frozenset(tokenize(root_cause or "")) | frozenset(tokenize(diagnosis or ""))


@lru_cache(maxsize=4_096)
def _phrases(*texts: str | None) -> frozenset[tuple[str, str]]:
    return frozenset(pair for text in texts for pair in word_pairs(text))


def _weighted_share(wanted: tuple[str, ...], found: Set[str], idf: Mapping[str, float]) -> float:
    """Σ idf of the wanted terms found / Σ idf of all wanted terms (a repeated term counts again)."""
    total = sum(idf.get(t, 0.0) for t in wanted)
    return sum(idf.get(t, 0.0) for t in wanted if t in found) / total if total > 0 else 0.0


def _share(terms: frozenset[str], among: frozenset[str]) -> float:
    return len(terms & among) / len(terms) if terms else 0.0


def measure(
    query: RecallQuery, candidates: list[Candidate], now: datetime, query_concepts: tuple[str, ...] = ()
) -> list[Signals]:
    query_title = tuple(dict.fromkeys(tokenize(query.title)))
    query_known = frozenset(candidates[0].query_idf) if candidates else frozenset()
    # the title's terms thrice, as the lexical score weighs them (TITLE_QUERY_BONUS)
    query_weighted = tuple(candidates[0].query_idf) + query_title * int(TITLE_QUERY_BONUS) if candidates else ()
    top = max((c.lexical for c in candidates), default=0.0) or 1.0
    # min-max like the lexical score's division by the best: measured better than raw cosine
    # (the cosines of one query's candidates sit in a narrow band that differs between queries)
    cosines = [c.semantic for c in candidates if c.semantic is not None]
    idf = candidates[0].query_idf if candidates else {}
    phrases = {
        p: (idf.get(p[0], 0.0) + idf.get(p[1], 0.0)) / 2 for p in _phrases(query.title, query.text, query.error_message)
    }
    said = sum(phrases.values())
    rarest = candidates[0].rarest_idf if candidates else 0.0
    low, high = (min(cosines), max(cosines)) if cosines else (0.0, 0.0)
    out: list[Signals] = []
    for c in candidates:
        m = c.memory
        when = m.happened_at  # None: an undated imported postmortem, neither new nor old
        age_days = max(0.0, (now - when).total_seconds() / 86400.0) if when else RECENCY_HALF_LIFE_DAYS
        votes = c.helpful_votes - c.not_relevant_votes
        coverage = _weighted_share(query_weighted, set(c.matched_terms), c.query_idf)
        title = _title_terms(m.title)
        head = _head_terms(m.title, m.symptoms, m.error_message)
        found = query_known & head
        text_phrases = _phrases(m.title, m.symptoms, m.error_message, m.root_cause, m.diagnosis, m.resolution, m.lesson)
        out.append(
            Signals(
                lexical=c.lexical / top,
                coverage=coverage,
                # a query without a title (an error text alone) is judged on its coverage
                title_overlap=_weighted_share(query_title, title, c.query_idf) if query_title else coverage,
                title_echo=_share(title, query_known),
                signature=1.0 if c.same_signature else 0.0,
                concepts=len(c.shared_concepts) / len(query_concepts) if query_concepts else 0.0,
                same_service=1.0 if _same(query.service, m.service) else 0.0,
                truth=TRUTH_WEIGHT[m.truth_state],
                recency=math.pow(0.5, age_days / RECENCY_HALF_LIFE_DAYS),
                feedback=0.5 + 0.5 * math.tanh(votes / 2.0),
                semantic=None if c.semantic is None else ((c.semantic - low) / (high - low) if high > low else 1.0),
                similarity=c.semantic,
                head=_weighted_share(query_weighted, head, c.query_idf),
                same_alert=(1.0 if same_alert(query, m) else 0.0) if query.alerts else None,
                cause=_weighted_share(query_weighted, _cause_terms(m.root_cause, m.diagnosis), c.query_idf),
                head_echo=_share(head, query_known),
                lone_word=len(query_known) > 1 and len(query_known & head) == 1,
                head_rarity=sum(c.query_idf[t] for t in found) / c.rarest_idf if c.rarest_idf else 0.0,
                phrase_share=sum(w for p, w in phrases.items() if p in text_phrases) / said if said > 0 else 0.0,
                query_phrases=said / rarest if rarest else 0.0,
                head_found=tuple(sorted((t, c.query_idf[t] / c.rarest_idf) for t in found)) if c.rarest_idf else (),
                matched_rarity=max((c.query_idf.get(t, 0.0) for t in c.matched_terms), default=0.0) / c.rarest_idf
                if c.rarest_idf
                else 0.0,
                opening_similarity=c.opening_semantic,
                sentence_similarity=c.sentence_semantic,
            )
        )
    return out
