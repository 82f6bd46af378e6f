"""Which sentences of a postmortem say its cause, or its fix: a small logistic model over cue words,
where the sentence sits and (for the fix) words, beyond what the cue words alone can tell.

The cue words (bot/reader/cues.py) find "caused by …" and "resolved by …"; many real reports say
it otherwise ("Tonight we were mitigating a large inbound DDoS attack", "the datacentre confirmed
a transit provider was passing traffic on damaged fiber"). Each candidate sentence gets features:
its crude-stemmed words and word pairs, the cues it matches, the section it sits in, each cue with
that section ("x:root_cause+cause"), where in the document it is and its length; a head per field
("cause", "fix") gives the probability that it says that field. A head weighs only the features it
was fitted on: the cause head none of the words (one organisation out on fold A, words learned one
organisation's subjects and cost the cause; docs/BENCHMARKS.md, issue 23 tenth pass), the fix head
words seen in four organisations or more.

The coefficients are data (bot/data/reader_sentences.json), fitted by bench/fit_reader_sentences.py
(with bot/reader/fit.py, the reader's one fitting routine) on one organisation fold of eval/postmortems
and reported on the other (then the other way). Pure Python at run time: a dictionary look-up per
feature; work linear in the text (capped per sentence and per document).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from bot.reader.cues import (
    CAUSE,
    CAUSE_HEDGE,
    CAUSE_NEGATED,
    CRITIQUE,
    DID_NOT_WORK,
    FIX,
    PENDING,
    RESOLVED,
    TRIED,
)

MAX_SENTENCE_CHARS = 1_000  # features are read from a sentence's first 1,000 characters
MAX_CANDIDATES = 600  # sentences of one document considered at most
_WORD = re.compile(r"[a-z][a-z0-9']+")
_SUFFIXES = ("ings", "ing", "ies", "ied", "es", "ed", "ly", "s")
_CUES = {
    "cause": CAUSE,
    "fix": FIX,
    "resolved": RESOLVED,
    "failed": DID_NOT_WORK,
    "tried": TRIED,
    "critique": CRITIQUE,
    "pending": PENDING,
    "hedge": CAUSE_HEDGE,
    "negated": CAUSE_NEGATED,
}
_WORDS_PER_SENTENCE = 60


@dataclass(frozen=True, slots=True)
class Candidate:
    """One sentence of a document: its text, the kind of section it sits in ("summary",
    "root_cause", "timeline", "title", "other", …), where that is for the person, and its place
    in the document (0 first … 1 last). Its features are read from `text`."""

    text: str
    section: str
    origin: str = ""
    position: float = 0.0
    stored: str = ""  # what a field stores when it is picked, when not `text` (a list's metadata items cut)


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def word_features(text: str) -> list[str]:
    """A sentence's crude-stemmed words ("w:restart") and word pairs ("b:restart_the") from its
    first `_WORDS_PER_SENTENCE` words: what the sentence says, beyond any cue word."""
    words = [_stem(w) for w in _WORD.findall(text[:MAX_SENTENCE_CHARS].lower())[:_WORDS_PER_SENTENCE]]
    found = [f"w:{w}" for w in words]
    found += [f"b:{a}_{b}" for a, b in zip(words, words[1:], strict=False)]
    return found


def features(candidate: Candidate) -> list[str]:
    text = candidate.text[:MAX_SENTENCE_CHARS]
    found = word_features(text)
    words = sum(1 for f in found if f.startswith("w:"))
    cues = [name for name, pattern in _CUES.items() if pattern.search(text)]
    found += [f"cue:{name}" for name in cues]
    found += [f"x:{candidate.section}+{name}" for name in cues]
    found.append(f"sec:{candidate.section}")
    found.append(f"pos:{min(int(candidate.position * 5), 4)}")
    found.append(f"len:{min(words // 10, 4)}")
    return list(dict.fromkeys(found))


def sigmoid(z: float) -> float:
    """The logistic function, clamped so that no score overflows (shared with bot/reader/fit.py)."""
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@dataclass(slots=True)
class Head:
    bias: float = 0.0
    weights: dict[str, float] = field(default_factory=dict)
    threshold: float = 0.5
    keep: int = 2  # at most this many sentences make the field

    def probability(self, feats: Sequence[str]) -> float:
        return sigmoid(self.bias + sum(self.weights.get(f, 0.0) for f in feats))


@dataclass(slots=True)
class SentenceModel:
    heads: dict[str, Head] = field(default_factory=dict)
    fitted_on: str = ""

    def as_json(self) -> dict:
        return {
            "fitted_on": self.fitted_on,
            "heads": {
                name: {
                    "bias": round(h.bias, 5),
                    "threshold": h.threshold,
                    "keep": h.keep,
                    "weights": {f: round(w, 5) for f, w in sorted(h.weights.items()) if abs(w) >= 1e-4},
                }
                for name, h in self.heads.items()
            },
        }

    @classmethod
    def from_json(cls, data: dict) -> SentenceModel:
        heads = {
            name: Head(float(h["bias"]), dict(h["weights"]), float(h["threshold"]), int(h.get("keep", 2)))
            for name, h in data.get("heads", {}).items()
        }
        return cls(heads, str(data.get("fitted_on", "")))


@lru_cache(maxsize=1)
def _shipped() -> SentenceModel:
    path = resources.files("bot").joinpath("data/reader_sentences.json")
    if not path.is_file():
        return SentenceModel()
    return SentenceModel.from_json(json.loads(path.read_text(encoding="utf-8")))


_override: list[SentenceModel] = []


def use_model(model: SentenceModel | None) -> None:
    """Read with `model` instead of the shipped one (None: the shipped one again). For the fitting
    bench, which reads one fold with the model fitted on the other."""
    _override[:] = [model] if model is not None else []


def model() -> SentenceModel:
    return _override[0] if _override else _shipped()


# a sentence that quotes an error, a log line or code reports what was seen, not what caused or fixed
# it (labelled metadata in eval/: "timed out while fetching a snapshot from S3"): never the model's pick
QUOTES_WHAT_WAS_SEEN = re.compile(
    r"[`\"“”]|\b(?:timed out|time ?outs?|exception|traceback|stack ?trace|\d{3} (?:bad gateway|error))\b", re.I
)


# what a quote holds: a code span or a double-quoted span (bounded, read from the capped sentence)
_QUOTED_SPAN = re.compile(r"`([^`]{0,400})`|[\"“]([^\"“”]{0,400})[\"”]")
_SEEN_WORDS = re.compile(
    r"\b(?:timed out|time ?outs?|exception|traceback|stack ?trace|\d{3} (?:bad gateway|error))\b", re.I
)


def only_names_in_quotes(text: str) -> bool:
    """True when a sentence's quotes only name things (`prod`, `thread_stack`, "Origin Shield": at most
    three words and 40 characters each) and it names no error: a cause told with its names, not what
    was seen. Measured for the cause head on fold A one organisation out (docs/BENCHMARKS.md r23-cause)."""
    text = text[:MAX_SENTENCE_CHARS]
    if _SEEN_WORDS.search(text) or text.count("`") % 2:
        return False
    spans = [a or b for a, b in _QUOTED_SPAN.findall(text)]
    return all(len(span) <= 40 and len(span.split()) <= 3 for span in spans)


def probability(candidate: Candidate, head: str) -> float:
    """The head's probability that `candidate` says its field (0.0 when the model has no such head)."""
    chosen = model().heads.get(head)
    return chosen.probability(features(candidate)) if chosen is not None else 0.0


def best(candidates: Sequence[Candidate], head: str) -> list[tuple[Candidate, float]]:
    """The candidates the head is sure enough of (at most its `keep`, most probable first), never
    one that quotes what was seen (an error, a log line, code); for the cause, one whose quotes
    only name things is read."""
    chosen = model().heads.get(head)
    if chosen is None:
        return []

    def quotes_what_was_seen(text: str) -> bool:
        said = QUOTES_WHAT_WAS_SEEN.search(text[:MAX_SENTENCE_CHARS]) is not None
        return said and not (head == "cause" and only_names_in_quotes(text))

    plain = [c for c in candidates[:MAX_CANDIDATES] if not quotes_what_was_seen(c.text)]
    scored = [(c, chosen.probability(features(c))) for c in plain]
    sure = sorted((s for s in scored if s[1] >= chosen.threshold), key=lambda s: -s[1])
    return sure[: chosen.keep]
