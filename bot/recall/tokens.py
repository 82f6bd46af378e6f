"""Code-aware tokens for lexical recall.

Measured on the dev corpus (docs/RECALL-NOTES): splitting CamelCase, dotted.names and snake_case
while keeping the whole word too, lowercasing, dropping pure numbers and hex ids, and light
plural stemming each helped BM25. PostgreSQL's `english` parser does none of that, so recall
indexes these tokens itself (as a `simple` tsvector).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

_RAW = re.compile(r"[\w$]+(?:[.\-][\w$]+)*", re.UNICODE)
_SPLIT = re.compile(r"[._\-$]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_a-zA-Z]+", re.UNICODE)
_NUMBER = re.compile(r"^\d+(?:[.,]\d+)*$")
_HEXISH = re.compile(r"^(?:0x)?[0-9a-f]{6,}$")
_HAS_DIGIT = re.compile(r"\d")
_ID = re.compile(r"^(?:0x)?[0-9a-f]{4,}(?:-[0-9a-f]{2,})*$")

STOPWORDS = frozenset(
    """a an and are as at be but by for from has have if in into is it its of on or that the
    their then there these this to was were will with we our you your i me my not no so than
    too very can could should would just also been being do does did when while which who
    what where how all any some such only own same other after before again further once
    here why both each few more most up down out over under off about against between through
    during above below until because until he she they them his her him""".split()
)


def _stem(word: str) -> str:
    """Light plural stemming: connections → connection, retries → retry, classes → class."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "os")):
        return word[:-1]
    return word


def _is_id(word: str) -> bool:
    """Numbers, hex ids and UUIDs: they differ between two sightings of the same failure."""
    lowered = word.lower()
    return bool(_NUMBER.match(lowered) or (_ID.match(lowered) and _HAS_DIGIT.search(lowered)))


# Longer "words" are blobs (base64, minified code, runaway repeats): no one searches for them,
# and PostgreSQL refuses tsvector lexemes over 2,047 bytes.
MAX_TERM_CHARS = 64


def _keep(word: str) -> bool:
    if len(word) < 2 or len(word) > MAX_TERM_CHARS or word in STOPWORDS or _NUMBER.match(word):
        return False
    if _HEXISH.match(word) and _HAS_DIGIT.search(word):
        return False
    return True


def tokenize(text: str | None) -> list[str]:
    """Terms of `text`, in order, with repeats (term frequency matters)."""
    if not text:
        return []
    out: list[str] = []
    for match in _RAW.finditer(text):
        raw = match.group(0)
        if _is_id(raw):
            continue
        parts = [p for p in _SPLIT.split(raw) if p and not _is_id(p)]
        pieces: list[str] = []
        for part in parts:
            pieces.extend(_CAMEL.findall(part) or [part])
        lowered = [p.lower() for p in pieces]
        whole = raw.lower().strip(".-_$")
        if len(lowered) > 1 and _keep(whole):
            out.append(whole)
        for piece in lowered:
            if _keep(piece):
                out.append(_stem(piece))
    return out


def term_counts(texts: Iterable[tuple[str | None, int]]) -> Counter[str]:
    """Weighted term frequencies: each (text, weight) pair counts its terms `weight` times."""
    counts: Counter[str] = Counter()
    for text, weight in texts:
        for term in tokenize(text):
            counts[term] += weight
    return counts
