"""Code-aware tokens for lexical recall.

Measured on the dev corpus (docs/RECALL-NOTES): splitting CamelCase, dotted.names and snake_case
while keeping the whole word too, lowercasing, dropping ids, and stemming each helped BM25.
PostgreSQL's `english` parser does none of that, so recall indexes these tokens itself (as a
`simple` tsvector).

Incidents are named by codes as much as by words, so some numbers are terms: HTTP status and
exit codes (`502`, `137`), `errno 28` / `exit code 1` / `signal 9` (as `errno:28`, `exit:1`,
`signal:9`), and error codes mixing letters and digits (`ORA-00060`, `E11000`). Ids, timestamps
and their fragments (`59z` of `12:00:59Z`) stay out. Words are stemmed by Snowball (English).
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterable, Iterator

import Stemmer

# bounded repeats (a word's run at most 200 characters, a compound at most 51 parts; longer runs are
# read as more than one word): every message and memory is tokenised, and a pattern may not backtrack
# over the rest of it
_RAW = re.compile(r"[\w$]{1,200}(?:[.\-][\w$]{1,200}){0,50}", re.UNICODE)
_SPLIT = re.compile(r"[._\-$]+")
_CAMEL = re.compile(
    r"[A-Z]{1,200}(?=[A-Z][a-z])|[A-Z]?[a-z]{1,200}|[A-Z]{1,200}|\d{1,200}|[^\W\d_a-zA-Z]{1,200}", re.UNICODE
)
_NUMBER = re.compile(r"^\d{1,200}(?:[.,]\d{1,200}){0,50}$")
_HEXISH = re.compile(r"^(?:0x)?[0-9a-f]{7,}$")
_HAS_DIGIT = re.compile(r"\d")
_ID = re.compile(
    r"^(?:0x[0-9a-f]{1,200}|[0-9a-f]{7,200}(?:-[0-9a-f]{2,200}){0,50}|[0-9a-f]{4,200}(?:-[0-9a-f]{2,200}){1,50})$"
)
_MEASURE = re.compile(r"^\d{1,200}(?:[.,]\d{1,200})?[a-z]{1,3}$")  # 500ms, 30s, 4gb: a quantity, not a name
_STATUS = re.compile(r"^[1-5]\d\d$")
_STATUS_PLURAL = re.compile(r"^([1-5]\d\d)s$", re.IGNORECASE)  # "502s"
_ERROR_CODE = re.compile(r"^[a-z]{1,8}-?\d{3,}$")
# what varies between two sightings of one failure; stripped before tokenizing so that its
# fragments ("59z", "0800") never become terms
_VOLATILE = re.compile(
    "|".join(
        (
            r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?)?",
            r"\b\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?\b",
            r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
            r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b",
        )
    ),
    re.IGNORECASE,
)
# "errno 28", "exit code 137", "exit status 1", "signal 9": the number means something only
# next to its word
_CODED = re.compile(r"\b(errno|exit|signal)(?:\s{1,40}(?:code|status))?\s{0,40}[:=]?\s{0,40}(\d{1,3})\b", re.IGNORECASE)

# Measured on jira-dev: this short list ranks better than Snowball's fuller English one (R@5
# 0.729 against 0.725); words that are no reason to show a memory are kept out of the reasons
# instead (reasons.GENERIC).
STOPWORDS = frozenset(
    """a an and are as at be but by for from has have if in into is it its of on or that the
    their then there these this to was were will with we our you your i me my not no so than
    too very can could should would just also been being do does did when while which who
    what where how all any some such only own same other after before again further once
    here why both each few more most up down out over under off about against between through
    during above below until because until he she they them his her him""".split()
)

# Longer "words" are blobs (base64, minified code, runaway repeats): no one searches for them,
# and PostgreSQL refuses tsvector lexemes over 2,047 bytes.
MAX_TERM_CHARS = 64
MIN_STEM_CHARS = 4

_local = threading.local()


def _stemmer() -> Stemmer.Stemmer:
    # a Stemmer is not safe to share between threads
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = Stemmer.Stemmer("english")
    return stemmer


def stem(word: str) -> str:
    """Snowball (English) stem of an alphabetic word: connections → connect, retries → retri."""
    if len(word) < MIN_STEM_CHARS or not word.isalpha():
        return word
    return _stemmer().stemWord(word)


def _is_id(word: str) -> bool:
    """Ids, hex and UUIDs: they differ between two sightings of the same failure."""
    lowered = word.lower()
    if _NUMBER.match(lowered):
        return not _STATUS.match(lowered)
    return bool(_ID.match(lowered) and _HAS_DIGIT.search(lowered)) or bool(_MEASURE.match(lowered))


def _keep(word: str) -> bool:
    if len(word) < 2 or len(word) > MAX_TERM_CHARS or word in STOPWORDS:
        return False
    if _NUMBER.match(word):
        return bool(_STATUS.match(word))
    if _HEXISH.match(word) and _HAS_DIGIT.search(word):
        return False
    return True


def _word_terms(raw: str) -> tuple[tuple[str, str], ...]:
    """(term, word) pairs of one raw word; the same for every occurrence of it."""
    if raw.isascii() and raw.isalpha() and (raw.islower() or raw.isupper() or raw[1:].islower()):
        # a plain word (most of any text): no id, code, number or Camel parts to find
        lowered = raw.lower()
        if 2 <= len(lowered) <= MAX_TERM_CHARS and lowered not in STOPWORDS:
            return ((stem(lowered), raw),)
        return ()
    if _is_id(raw) and not _STATUS_PLURAL.match(raw):
        return ()  # an id
    plural = _STATUS_PLURAL.match(raw)
    if plural:
        return ((plural.group(1), raw),)
    whole = raw.lower().strip(".-_$")
    if _ERROR_CODE.match(whole):
        return ((whole, raw),)  # ORA-00060, E11000: one term
    parts = [p for p in _SPLIT.split(raw) if p and not _is_id(p)]
    pieces: list[str] = []
    for part in parts:
        if _ERROR_CODE.match(part.lower()):
            pieces.append(part)  # E11000 inside a longer name stays one term
        else:
            pieces.extend(_CAMEL.findall(part) or [part])
    out = [(whole, raw)] if len(pieces) > 1 and _keep(whole) else []
    for piece in pieces:
        lowered = piece.lower()
        if _keep(lowered):
            out.append((stem(lowered), piece))
    return tuple(out)


def _terms(text: str) -> Iterator[tuple[str, str]]:
    """(term, the word it came from) for each term of `text`, in order, with repeats.

    Each distinct word is read once per text (texts repeat their words: a long message's work
    grows with its vocabulary, and plain words skip the code-shaped checks)."""
    for match in _CODED.finditer(text):
        word, number = match.group(1).lower(), str(int(match.group(2)))
        yield f"{word}:{number}", match.group(0)
    stripped = _VOLATILE.sub(" ", text)
    seen: dict[str, tuple[tuple[str, str], ...]] = {}
    for match in _RAW.finditer(stripped):
        raw = match.group(0)
        if raw.isdigit() and stripped[match.start() - 1 : match.start()] == ":":
            continue  # a line number or port (Foo.java:208, host:443)
        found = seen.get(raw)
        if found is None:
            found = seen[raw] = _word_terms(raw)
        yield from found


def tokenize(text: str | None) -> list[str]:
    """Terms of `text`, in order, with repeats (term frequency matters)."""
    if not text:
        return []
    return [term for term, _ in _terms(text)]


def surface_forms(*texts: str | None) -> dict[str, str]:
    """term → the first word of the texts it came from (reasons show words, never stems)."""
    out: dict[str, str] = {}
    for text in texts:
        if text:
            for term, word in _terms(text):
                out.setdefault(term, word)
    return out


def term_counts(texts: Iterable[tuple[str | None, int]]) -> Counter[str]:
    """Weighted term frequencies: each (text, weight) pair counts its terms `weight` times."""
    counts: Counter[str] = Counter()
    for text, weight in texts:
        for term in tokenize(text):
            counts[term] += weight
    return counts


_CLAUSE_END = re.compile(r"[.!?;:](?:\s|$)|\n")


def word_pairs(text: str | None) -> list[tuple[str, str]]:
    """The text's phrases: each two words that follow each other in one clause, as terms (a
    compound word such as `mybinder.org` is one word, its whole term), stop words, ids and numbers
    between them left out. Two incidents that read alike word for word ("cluster launches
    disrupted") share phrases where a neighbour holds the same words scattered."""
    if not text:
        return []
    stripped = _VOLATILE.sub(" ", text)
    pairs: list[tuple[str, str]] = []
    previous: str | None = None
    end = 0
    seen: dict[str, tuple[tuple[str, str], ...]] = {}
    for match in _RAW.finditer(stripped):
        raw = match.group(0)
        if _CLAUSE_END.search(stripped[end : match.start()]):
            previous = None  # a sentence or line ends between them
        end = match.end()
        found = seen.get(raw)
        if found is None:
            found = seen[raw] = _word_terms(raw)
        if not found:
            continue
        term = found[0][0]
        if previous is not None and previous != term:
            pairs.append((previous, term))
        previous = term
    return pairs
