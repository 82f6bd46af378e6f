"""The relevance floor: an absolute judgement of each match, so recall can say "nothing like this".

Fusion ranks candidates against each other (its lexical signal is relative to the best one), so
the best of unrelated memories always looks like a match. Relevance is judged on an absolute
scale instead, the mean of three shares in [0, 1]: how much of the query's weight the memory
matches (coverage), how much of the query title's weight its title names (title overlap), and
how much of its title the query names (title echo); the same error signature adds to it.
Measured on jira-dev and eval/incidents against coverage alone and against each with the
mechanism (concepts) added: the mean of the three kept every right memory of eval/incidents
at the floor while posting least when the right memory was absent; concepts only added false
alarms (a shared mechanism is a reason to rank, not proof of the same incident).
A memory under the floor is not shown to a responder; `incident-memory recall --all` lists it.

DEFAULT_FLOOR is chosen on jira-dev by `incident-memory replay --target-absent` (the curve of
floor vs how often the right memory passes vs how often anything passes when the right memory
is absent is in docs/BENCHMARKS.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.memory.recall.signals import Signals
from bot.models import RecallMatch

SIGNATURE_EVIDENCE = 0.3
CONCEPT_EVIDENCE = 0.3
DEFAULT_FLOOR = 0.25


def judge(signals: Signals) -> float:
    """Absolute relevance in [0, 1]."""
    shares = (signals.coverage + signals.title_overlap + signals.title_echo) / 3.0
    evidence = SIGNATURE_EVIDENCE * signals.signature + CONCEPT_EVIDENCE * signals.concepts
    return round(min(1.0, shares + evidence), 4)


def split_at_floor(matches: Sequence[RecallMatch], floor: float) -> tuple[list[RecallMatch], list[RecallMatch]]:
    """(the matches at or above the floor, those under it), each in recall order."""
    above = [m for m in matches if m.relevance >= floor]
    return above, [m for m in matches if m.relevance < floor]
