"""The relevance floor: an absolute judgement of each match, so recall can say "nothing like this".

Fusion ranks candidates against each other (its lexical signal is relative to the best one), so
the best of unrelated memories always looks like a match. Relevance is judged on an absolute
scale instead: the mean of three shares in [0, 1] — how much of the query's weight (idf) the
memory's terms carry (coverage), how much of the query title's weight its title names (title
overlap), how much of its title the query names (title echo) — plus evidence that needs no
shared word: the same error signature, the same mechanism (incident vocabulary concepts), and,
with semantic recall on, closeness in meaning (the cosine similarity of the two vectors, mapped
onto [0, 1] between SIMILAR_FROM and SIMILAR_TO) — so that a memory saying the same thing in
other words can pass the floor, and one merely of the same domain does not.
A memory under the floor is not shown to a responder; `incident-memory recall --all` lists it.

Calibrated with `incident-memory replay DIR --target-absent` (docs/BENCHMARKS.md has the
curves): the mean of the three shares separated right memories from the rest better than
coverage alone on both corpora. DEFAULT_FLOOR is the highest floor at which every right memory
of eval/incidents is still posted and jira-dev keeps about 90 % of the right memories it posts
without a floor; higher floors cut false alarms on jira-dev further but drop right memories as
fast (RECALL_FLOOR sets another point of the curve).
"""

from __future__ import annotations

from bot.recall.alerts import ALERT_EVIDENCE
from bot.recall.signals import Signals

SIGNATURE_EVIDENCE = 0.3
CONCEPT_EVIDENCE = 0.3
MEANING_EVIDENCE = 0.3
# jira-dev, floor 0.25, all-MiniLM-L6-v2 (docs/BENCHMARKS.md): right memory posted / false alarms
# with the target absent — lexical 0.639 / 0.876; fused without this evidence 0.658 / 0.877;
# 0.3 from 0.6 to 0.9: 0.699 / 0.900; from 0.5 to 0.8: 0.737 / 0.946. The first setting that
# lets a memory found by meaning alone pass, at the smallest cost in false alarms.
SIMILAR_FROM, SIMILAR_TO = 0.6, 0.9
DEFAULT_FLOOR = 0.25


def meaning_share(similarity: float | None) -> float:
    """Closeness in meaning as evidence in [0, 1]: none below SIMILAR_FROM, full at SIMILAR_TO."""
    if similarity is None:
        return 0.0
    return min(1.0, max(0.0, (similarity - SIMILAR_FROM) / (SIMILAR_TO - SIMILAR_FROM)))


def judge(signals: Signals) -> float:
    """Absolute relevance in [0, 1]."""
    shares = (signals.coverage + signals.title_overlap + signals.title_echo) / 3.0
    evidence = SIGNATURE_EVIDENCE * signals.signature + CONCEPT_EVIDENCE * signals.concepts
    evidence += MEANING_EVIDENCE * meaning_share(signals.similarity) + ALERT_EVIDENCE * (signals.same_alert or 0.0)
    return round(min(1.0, shares + evidence), 4)
