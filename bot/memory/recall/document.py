"""What recall indexes for a memory, and what it searches with for a query.

The title is counted three times in the indexed document so that a long stack trace cannot
drown it (measured: +0.014 MRR@10 on the dev corpus).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bot.memory.recall.tokens import term_counts, tokenize
from bot.models import MemoryDraft, RecallQuery

TITLE_WEIGHT = 3


@dataclass(frozen=True, slots=True)
class IndexedDocument:
    terms: Counter[str]

    @property
    def length(self) -> int:
        return sum(self.terms.values())


@dataclass(frozen=True, slots=True)
class QueryTerms:
    """Distinct terms of the whole query and of its title alone (scored twice as much)."""

    all_terms: tuple[str, ...]
    title_terms: tuple[str, ...]


def memory_document(draft: MemoryDraft) -> IndexedDocument:
    failed = "\n".join(f"{a.action}\n{a.why_it_failed}" for a in draft.failed_attempts)
    return IndexedDocument(
        term_counts(
            [
                (draft.title, TITLE_WEIGHT),
                (draft.symptoms, 1),
                (draft.error_message, 1),
                (draft.root_cause, 1),
                (draft.diagnosis, 1),
                (draft.resolution, 1),
                (failed, 1),
                (draft.lesson, 1),
                (" ".join(draft.tags), 1),
            ]
        )
    )


def _distinct(terms: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(terms))


def query_terms(query: RecallQuery) -> QueryTerms:
    title = tokenize(query.title)
    rest = tokenize(query.text) + tokenize(query.error_message)
    return QueryTerms(all_terms=_distinct(title + rest), title_terms=_distinct(title))
