"""Words in an incident channel that say the incident is over ("resolved", "all clear",
"mitigated"…): the moment to ask for what was learned. Questions and negations do not count
("is it resolved?", "not resolved yet")."""

from __future__ import annotations

import re

_OVER = re.compile(
    r"\b(?:resolved|all[ -]clear|mitigated|(?:is|are|'s|been|got it) fixed|fixed now|back to normal|"
    r"(?:fully )?recovered|incident (?:is )?(?:over|closed)|we(?:'re| are) (?:all )?good(?: now)?|closing (?:this|the incident))\b",
    re.IGNORECASE,
)
_NEGATED = re.compile(
    r"\b(?:not|isn'?t|aren'?t|wasn'?t|no|never|un|nearly|almost|partially|until|once|when|if|will|'ll|going to|should|before)\W+(?:\w+\W+){0,2}$",
    re.IGNORECASE,
)


def says_it_is_over(text: str) -> bool:
    """True for "all clear, errors at zero" or "Resolved!"; False for "is it resolved?",
    "not resolved yet" or "we'll say all clear once the queue drains"."""
    for sentence in re.split(r"(?<=[.!?\n])\s*", text):
        sentence = sentence.strip()
        if not sentence or sentence.endswith("?"):
            continue
        for match in _OVER.finditer(sentence):
            if not _NEGATED.search(sentence[: match.start()]):
                return True
    return False
