"""The candidate step's types: what the store's search hands to the pure steps after it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.models import MemoryRecord


@dataclass(frozen=True, slots=True)
class Candidate:
    memory: MemoryRecord
    lexical: float
    """BM25 of the whole query plus twice BM25 of the query's title (one number, ≥ 0)."""
    matched_terms: tuple[str, ...]
    helpful_votes: int = 0
    not_relevant_votes: int = 0
    same_signature: bool = False
    """The memory's error signature equals the query's (same failure, other ids)."""
    shared_concepts: tuple[str, ...] = ()
    """Incident vocabulary concepts both the query and the memory name."""
    semantic: float | None = None
    """Cosine similarity of the query's and the memory's vectors (one model); None when either
    has none (semantic recall off, the endpoint down, the memory not embedded yet)."""
    closest_sentence: str | None = None
    """The memory's sentence closest in meaning to the query."""
    opening_semantic: float | None = None
    """Cosine similarity of the query's vector and the memory's opening's (its title, symptoms and
    error embedded apart, meaning.opening_text); None when the memory has no such vector yet."""
    sentence_semantic: float | None = None
    """Cosine similarity of the query's vector and closest_sentence's (meaning.sentences, embedded one
    by one); None when the memory has no sentence vectors."""
    query_idf: Mapping[str, float] = field(default_factory=dict)
    """idf of every query term (one mapping shared by a query's candidates), a term no memory
    holds counting as the rarest, the bank counted as at least JUDGED_BANK_SIZE memories: what
    relevance is judged with (floor.py), on a scale that `lexical` alone lacks."""
    rarest_idf: float = 0.0
    """query_idf's value for a term no memory holds: the unit Signals.head_rarity counts in."""
    extra: dict[str, float] = field(default_factory=dict)


def bm25_idf(doc_count: int, df: int) -> float:
    """Lucene's BM25 idf: never negative, so a common term can add little but never subtract."""
    import math

    return math.log(1.0 + (doc_count - df + 0.5) / (df + 0.5))


JUDGED_BANK_SIZE = 100
"""In a bank of four, a word two memories share is not common: the bank is small. Relevance is
judged as if the bank held at least this many memories (ranking uses the true statistics)."""
BM25_K1 = 1.2
BM25_B = 0.75
TITLE_QUERY_BONUS = 2.0
