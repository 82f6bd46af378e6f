"""Small text helpers for the guard and the offline investigator."""

from __future__ import annotations

import re

from bot.recall.tokens import tokenize

_SPACE = re.compile(r"\s+")
_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "`": "'"})
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)\s*")


def normalise(text: str) -> str:
    """For 'is this quote in that text': case, curly quotes and spacing do not matter."""
    return _SPACE.sub(" ", text.translate(_QUOTES)).strip().casefold()


def clip(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _verb_stem(term: str) -> str:
    """restarted / restarting → restart: enough to match an action against a past attempt."""
    for suffix in ("ing", "ed"):
        if term.endswith(suffix) and len(term) > len(suffix) + 3:
            return term[: -len(suffix)]
    return term


def terms(text: str | None) -> set[str]:
    return {_verb_stem(t) for t in set(tokenize(text))}  # each distinct term once: a long text repeats them


def similarity(a: str, b: str) -> float:
    """Jaccard overlap of content words."""
    ta, tb = terms(a), terms(b)
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / len(ta | tb)


def coverage(part: str, whole_terms: set[str]) -> float:
    """How much of `part`'s content words appear in `whole_terms`."""
    tp = terms(part)
    if not tp:
        return 0.0
    return len(tp & whole_terms) / len(tp)


def quote_found(quote: str, corpus: str) -> bool:
    """Whether a quote (already normalised corpus) is really in the text; '…' may join pieces."""
    pieces = [p.strip(" \"'<>‹›") for p in _ELLIPSIS.split(normalise(quote))]
    pieces = [p for p in pieces if p]
    return bool(pieces) and all(p in corpus for p in pieces)
