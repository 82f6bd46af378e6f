"""Semantic recall's pure parts: what text stands for a memory's meaning, its sentences, and
the query's vector as recall's other steps see it.

A memory is embedded as one text (what happened first, the stack trace last: embedding models
read a few hundred words at most), its opening apart (title, symptoms, error: what a first report
says, read by the judgement) and sentence by sentence, so that a card can name the sentence
closest to the query. Which model made a vector travels with it: vectors of two
models are never compared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.models import MemoryDraft, RecallQuery

MAX_EMBEDDED_CHARS = 2000
"""Per text sent to the model: small models read ~256 word pieces; hosted ones refuse huge inputs."""
MAX_SENTENCES = 8
MAX_SENTENCE_CHARS = 240
MIN_SENTENCE_CHARS = 12
SHOWN_SENTENCE_CHARS = 140

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])|\n\s*\n|\n(?=\s*[-*•]\s)")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class QueryMeaning:
    """The query embedded by `model`: candidates are compared with vectors of that model only."""

    model: str
    vector: tuple[float, ...]


def _joined(*parts: str | None) -> str:
    return "\n".join(p.strip() for p in parts if p and p.strip())


def memory_text(draft: MemoryDraft) -> str:
    """The one text embedded for a memory: title and what people saw first, the error last."""
    failed = "; ".join(a.action for a in draft.failed_attempts)
    text = _joined(
        draft.title, draft.symptoms, draft.root_cause, draft.diagnosis, draft.error_message,
        draft.resolution, failed, draft.lesson,
    )  # fmt: skip
    return text[:MAX_EMBEDDED_CHARS]


def opening_text(draft: MemoryDraft) -> str:
    """The memory's opening embedded apart: its title, what people saw first and the error. A
    responder's first report says symptoms in two lines; the whole text's vector is its body's
    (judgement.py's meaning_head reads the query's cosine with this one, as `head` reads words)."""
    return _joined(draft.title, draft.symptoms, draft.error_message)[:MAX_EMBEDDED_CHARS]


def query_text(query: RecallQuery) -> str:
    """The text embedded for a query, read the way a memory is."""
    return _joined(query.title, query.text, query.error_message)[:MAX_EMBEDDED_CHARS]


def sentences(draft: MemoryDraft) -> list[str]:
    """The memory's sentences a card may quote, in reading order (the title first), distinct,
    each clipped; a stack trace contributes its first line only."""
    out: list[str] = []
    error_head = (draft.error_message or "").strip().splitlines()[:1]
    for part in (
        draft.title,
        draft.symptoms,
        draft.root_cause,
        draft.diagnosis,
        *error_head,
        draft.resolution,
        draft.lesson,
    ):
        if not part:
            continue
        for piece in _SENTENCE_END.split(part):
            sentence = _SPACE.sub(" ", piece).strip(" -*•")
            if len(sentence) < MIN_SENTENCE_CHARS or sentence in out:
                continue
            out.append(sentence[:MAX_SENTENCE_CHARS])
            if len(out) == MAX_SENTENCES:
                return out
    return out


def quoted(sentence: str) -> str:
    """A sentence as a card shows it: short, on one line."""
    flat = _SPACE.sub(" ", sentence).strip()
    return flat if len(flat) <= SHOWN_SENTENCE_CHARS else flat[: SHOWN_SENTENCE_CHARS - 1].rstrip() + "…"
