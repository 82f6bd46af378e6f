"""Words in an incident channel that say the incident is over ("resolved", "all clear",
"mitigated"…): the moment to ask for what was learned. Questions and negations do not count
("is it resolved?", "not resolved yet")."""

from __future__ import annotations

import re
from bisect import bisect_left

from bot.reader.cues import OVER, OVER_NEGATIONS
from bot.text_limits import MESSAGE_CHARS

_NEGATION_WORDS = 3
_WORD = re.compile(r"[\w']+")
_SENTENCE_END = re.compile(r"(?<=[.!?\n])")  # zero-width: splitting never rescans a run of blank lines


def _negated(before: list[str]) -> bool:
    """`before`: the (up to four) words just before what was said, casefolded."""
    if any(w in OVER_NEGATIONS or w.endswith("'ll") for w in before[-_NEGATION_WORDS:]):
        return True
    # "going to say all clear": "going" may be the fourth word back, as "going to" is one phrase
    return any(a == "going" and b == "to" for a, b in zip(before, before[1:], strict=False))


def says_it_is_over(text: str, *, max_chars: int = MESSAGE_CHARS) -> bool:
    """True for "all clear, errors at zero" or "Resolved!"; False for "is it resolved?",
    "not resolved yet" or "we'll say all clear once the queue drains". Reads the first
    `max_chars` characters, in time linear in them: each sentence's words are found once, and
    each "resolved" looks at the few words before it (a 40k-character "not resolved not
    resolved …" once re-read the sentence up to every match: 6.5 s)."""
    for sentence in _SENTENCE_END.split(text[:max_chars]):
        sentence = sentence.strip()
        if not sentence or sentence.endswith("?"):
            continue
        matches = list(OVER.finditer(sentence))
        if not matches:
            continue
        words = [(w.start(), w.group().casefold()) for w in _WORD.finditer(sentence)]
        starts = [start for start, _ in words]
        for match in matches:
            last = bisect_left(starts, match.start())
            if not _negated([word for _, word in words[max(0, last - _NEGATION_WORDS - 1) : last]]):
                return True
    return False
