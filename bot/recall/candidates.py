"""The candidate step's types: what the store's search hands to the pure steps after it."""

from __future__ import annotations

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
    extra: dict[str, float] = field(default_factory=dict)


def bm25_idf(doc_count: int, df: int) -> float:
    """Lucene's BM25 idf: never negative, so a common term can add little but never subtract."""
    import math

    return math.log(1.0 + (doc_count - df + 0.5) / (df + 0.5))


BM25_K1 = 1.2
BM25_B = 0.75
TITLE_QUERY_BONUS = 2.0
