"""Incident vocabulary: phrases that name the same operational mechanism, kept as data.

"pool checkout timed out" and "connection slots exhausted" share no word, yet both are
connection pool exhaustion. The vocabulary (bot/data/concepts.json, extended by a team's own
file) maps phrases to concept names; `detect` names the concepts a text talks about.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path

from bot.recall.tokens import stem as _stem

_WORD = re.compile(r"[a-z][a-z0-9_]*")

MAX_GAP = 2
"""Words allowed between two words of a phrase ("pool checkout has timed out" still matches)."""


def words(text: str) -> list[str]:
    """Lowercased words with plurals folded; stopwords kept ("out of memory" is not "memory")."""
    return [_stem(w) for w in _WORD.findall(text.lower())]


@dataclass(frozen=True, slots=True)
class Concept:
    name: str
    phrases: tuple[tuple[str, ...], ...]  # each phrase as its tokens


@dataclass(frozen=True)
class Vocabulary:
    concepts: tuple[Concept, ...]

    @cached_property
    def _by_first_word(self) -> dict[str, list[tuple[int, tuple[str, ...]]]]:
        index: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
        for number, concept in enumerate(self.concepts):
            for phrase in concept.phrases:
                index.setdefault(phrase[0], []).append((number, phrase))
        return index

    def detect(self, *texts: str | None) -> tuple[str, ...]:
        """Names of the concepts any of the texts mentions, in vocabulary order."""
        index = self._by_first_word
        found: set[int] = set()
        for text in texts:
            if not text:
                continue
            tokens = words(text)
            for start, token in enumerate(tokens):
                for number, phrase in index.get(token, ()):
                    if number not in found and _matches_at(tokens, start, phrase):
                        found.add(number)
        return tuple(self.concepts[n].name for n in sorted(found))


def _matches_at(tokens: Sequence[str], start: int, phrase: Sequence[str]) -> bool:
    """Whether the phrase starts at `start`, its words in order, at most MAX_GAP words apart."""
    at = start
    for word in phrase[1:]:
        window = tokens[at + 1 : at + 2 + MAX_GAP]
        if word not in window:
            return False
        at = at + 1 + window.index(word)
    return True


class VocabularyError(ValueError):
    pass


def parse_vocabulary(data: object, *, source: str = "vocabulary") -> list[tuple[str, list[str]]]:
    if not isinstance(data, dict) or not isinstance(data.get("concepts"), list):
        raise VocabularyError(f"{source}: expected an object with a 'concepts' list")
    out: list[tuple[str, list[str]]] = []
    for i, item in enumerate(data["concepts"]):
        name = item.get("name") if isinstance(item, dict) else None
        phrases = item.get("phrases") if isinstance(item, dict) else None
        if not isinstance(name, str) or not name.strip() or not isinstance(phrases, list):
            raise VocabularyError(f"{source}: concept {i} needs a 'name' and a list of 'phrases'")
        if not all(isinstance(p, str) for p in phrases):
            raise VocabularyError(f"{source}: concept {name!r}: every phrase must be a string")
        out.append((name.strip(), phrases))
    return out


def build_vocabulary(entries: Iterable[tuple[str, list[str]]]) -> Vocabulary:
    """Concepts in first-seen order; a repeated name adds its phrases to the earlier concept."""
    merged: dict[str, list[tuple[str, ...]]] = {}
    for name, phrases in entries:
        bucket = merged.setdefault(name, [])
        for phrase in phrases:
            tokens = tuple(words(phrase))
            if tokens and tokens not in bucket:
                bucket.append(tokens)
    return Vocabulary(tuple(Concept(name, tuple(p)) for name, p in merged.items()))


def _default_entries() -> list[tuple[str, list[str]]]:
    text = resources.files("bot").joinpath("data/concepts.json").read_text(encoding="utf-8")
    return parse_vocabulary(json.loads(text), source="bot/data/concepts.json")


@lru_cache(maxsize=8)
def load_vocabulary(extra_path: Path | None = None) -> Vocabulary:
    """The built-in vocabulary, extended by a team's file when one is given."""
    entries = _default_entries()
    if extra_path is not None:
        try:
            data = json.loads(Path(extra_path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise VocabularyError(f"{extra_path}: cannot read the concept vocabulary: {exc}") from exc
        entries += parse_vocabulary(data, source=str(extra_path))
    return build_vocabulary(entries)
