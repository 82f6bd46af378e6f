"""What the relevance judgement (judgement.py) reads of a recalled memory: its features, each measured
per query against the other candidates of the same recall (features_of), and FEATURES, the table of their
names a fitted model's coefficients name.

A neighbour of the right memory covers as much of a responder's two lines as the right one does; what
separates a true match from a neighbour is read instead:

- relevance: the floor's absolute judgement (floor.judge);
- lead: how far its relevance stands above the best other candidate's (negative when behind);
- standout: how many standard deviations its relevance stands above the candidates' mean;
- agreement: the share of the independent signals that agree (same error signature, shared
  mechanism concepts, same service, close in meaning);
- head: the query's weight (idf) found in the memory's title, symptoms and error, not the whole
  document;
- head_lead: how far its head stands above the best other candidate's;
- score_lead, score_z: the fused score's distance to the best other candidate's, and how many
  standard deviations it stands above the candidates' mean (ranking's own margin);
- meaning: closeness in meaning (floor.meaning_share; 0 with semantic recall off);
- head_standout: score_z times head: standing out on what the memory's opening covers (standing
  out alone is scale-free: in a bank where two memories share one word, that one stands out); 0
  for a lone shared word (Signals.lone_word: one of the query's several terms in the opening),
  which in an almost empty candidate list stands out as far as anything can;
- score_standout: score_z again, 0 when the memory's title, symptoms and error hold at most one
  of the query's terms (a lone shared word, or none: what stands out then is the body's words,
  or an almost empty candidate list);
- meaning_lead: how far its cosine similarity stands above the best other candidate's (0 off).
- meaning_z: how many standard deviations its cosine stands above the mean of the candidates'
  cosines (those that carry one; 0 off, or with fewer than two): standing out in meaning as
  score_z is in the fused score, read against the whole candidate list, not the runner-up alone;
- meaning_z_top: the same against the cosines of the TWINS_READ best-scoring candidates (the ones
  shown), not the long tail of lexical candidates;
- meaning_head: the cosine of the query with the memory's opening (title, symptoms and error
  embedded apart: Signals.opening_similarity; 0 off), `head` in meaning; meaning_head_lead: how far
  it stands above the best other of the MAX_STRONG best-scoring candidates' (the ones a thread
  shows): a first report says symptoms in two lines, a whole postmortem's vector is its body's;
- meaning_sentence_lead: the cosine of the query with the memory's closest sentence
  (Signals.sentence_similarity, the one the card quotes) minus the best other of the MAX_STRONG
  best-scoring candidates' (0 off): one sentence of a long postmortem may say what the report says;
- head_rare: the query's idf found in the memory's opening, summed, counted in terms no memory
  holds and capped at HEAD_RARE_CAP (Signals.head_rarity; 0 for a lone shared word): how much
  the opening says of the query, not what share of it;
- phrase_share: the share of the query's phrases (two words in a row) the memory says too
  (Signals.phrase_share), read by the short-query model only (Judgement.short);
- query_phrases: the weight of the query's phrases, in terms no memory holds: which model judges
  it (Judgement.for_query), not evidence about a memory;
- echo_standout: score_z times head_echo (the share of the memory's title, symptoms and error
  terms the query names): standing out on what the query names of the memory's opening, the
  evidence a long query (a ticket pasted whole) carries where its `head` is low (judgement_rules.by_rule).
- opening_exclusive, views_first (views.py): the query's weight in the memory's opening that no
  other of the best candidates' openings holds, and in how many of three views (head, head_rarity,
  phrase_share) it comes first. No shipped model reads them: on the first reports' fold A they
  lifted strong at equal false threads but cost right memories shown (docs/BENCHMARKS.md, r27-lex).
- matched_rare: the idf of the rarest of the query's terms the memory holds anywhere
  (Signals.matched_rarity): a code-name or host said in the memory's body. The thread's models do not
  read it (on fold A it lifted strong, out of sample it cost more false threads than the rule allowed:
  docs/BENCHMARKS.md, issue 27, r27-lex and r27-lex2); the weak-line models (Judgement.weak) do: it tells
  "name the closest" from "nothing" (issue 27, r27-weak2: right memories shown + 10 over both swaps,
  false lines - 23, threads unchanged).
- body_rare (the idf of the query's three rarest terms the memory holds anywhere) was shipped and reverted
  (f385823: its gain sat in organisations with one memory in the bench's bank; in a team's own history it added
  false threads), then removed with its signal (docs/BENCHMARKS.md, issue 27, r27-feat).

Read on the first reports and not kept (no model read them; docs/BENCHMARKS.md, issue 27): `head` against the
title and first line of the symptoms (head_first, r27-strong), and `head` minus the best other of the MAX_STRONG
best-scoring candidates' (head_margin, r27-strong2): each gained strong on fold A nested, + 1 out of sample. The
share of the query's rare words a memory holds, its lead over the best other of the five, and the title's share's
lead (r27-feat) did not pass fold A's halves.

A new feature is one more entry in FEATURES, then a refit naming it (bench/fit_recall_judgement.py --features).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import fmean, pstdev

from bot.recall.floor import judge, meaning_share
from bot.recall.signals import Signals
from bot.recall.views import exclusive, views_first

MAX_STRONG = 5
"""A thread posts at most this many memories (judgement.Judgement.tiers); the features that read the shown
candidates (meaning_head_lead, meaning_sentence_lead) compare among as many."""
STANDOUT_CAP = 5.0
JUDGED_CANDIDATES = 40
"""The fused scores' spread (score_z) is read as if the store had answered with at least this many
candidates, the missing ones scoring 0: in a bank of one or four memories (a new team's, the
demo's) nothing could otherwise stand out at all."""
NEAR_DUPLICATE = 0.8
"""Share of their opening terms (Jaccard: title, symptoms and error) from which two memories are
one incident written twice (a re-import, a copy with another resolution): a memory's standout is
read against the candidates without them (_score_zs)."""
TWINS_READ = 10
"""Near-duplicates are looked for only for the best-scoring candidates (the ones shown)."""
HEAD_RARE_CAP = 3.0
"""head_rare counts at most this many of the rarest terms: a long query (a ticket pasted whole)
names dozens of an opening's words, right memory or wrong; a first report's right memory holds a
median 2.4 (fold A), and with it removed the most any of the first five holds a median 1.7.
Chosen inside fold A (nested: 2, 3, 4 and 5 measured; docs/BENCHMARKS.md, issue 27 r27-fit)."""


@dataclass(frozen=True, slots=True)
class Context:
    """What a feature may read of one candidate: its signals, its relevance among the others'."""

    signals: Signals
    relevance: float
    others_best: float
    mean: float
    spread: float
    head: float
    score_lead: float
    """The fused score's distance to the best other candidate's (ranking's own margin)."""
    score_z: float
    head_best: float
    """The best head among the other candidates."""
    similarity_best: float | None
    """The best cosine similarity among the other candidates (None: semantic recall off)."""
    meaning_z: float = 0.0
    """How many standard deviations its cosine stands above the mean of the candidates' cosines."""
    meaning_z_top: float = 0.0
    """The same, read against the cosines of the TWINS_READ best-scoring candidates only."""
    exclusive: float = 0.0
    """Its opening's query weight no other of the TWINS_READ best candidates holds (views.exclusive)."""
    views: float = 0.0
    """The share of views in which it comes first (views.views_first)."""
    opening_lead: float = 0.0
    """Its opening's cosine minus the best other of the MAX_STRONG best-scoring candidates'."""
    sentence_lead: float = 0.0
    """Its closest sentence's cosine minus the best other of the MAX_STRONG best-scoring candidates'."""


def _agreement(s: Signals) -> float:
    parts = [s.signature, 1.0 if s.concepts > 0 else 0.0, s.same_service]
    if s.similarity is not None:
        parts.append(1.0 if meaning_share(s.similarity) > 0 else 0.0)
    return sum(parts) / len(parts)


FEATURES: dict[str, Callable[[Context], float]] = {
    "relevance": lambda c: c.relevance,
    "lead": lambda c: c.relevance - c.others_best,
    "standout": lambda c: min(STANDOUT_CAP, (c.relevance - c.mean) / c.spread) if c.spread > 0 else 0.0,
    "agreement": lambda c: _agreement(c.signals),
    "head": lambda c: c.head,
    "score_lead": lambda c: c.score_lead,
    "meaning": lambda c: meaning_share(c.signals.similarity),
    "score_z": lambda c: c.score_z,
    "head_lead": lambda c: c.head - c.head_best,
    "head_standout": lambda c: 0.0 if c.signals.lone_word else c.score_z * c.head,
    "score_standout": lambda c: 0.0 if c.signals.lone_word or c.head <= 0 else c.score_z,
    "meaning_lead": lambda c: _meaning_lead(c),
    "meaning_z": lambda c: c.meaning_z,
    "meaning_z_top": lambda c: c.meaning_z_top,
    "meaning_head": lambda c: c.signals.opening_similarity or 0.0,
    "meaning_head_lead": lambda c: c.opening_lead,
    "meaning_sentence_lead": lambda c: c.sentence_lead,
    "echo_standout": lambda c: c.score_z * c.signals.head_echo,
    "head_rare": lambda c: 0.0 if c.signals.lone_word else min(HEAD_RARE_CAP, c.signals.head_rarity),
    "phrase_share": lambda c: 0.0 if c.signals.lone_word else c.signals.phrase_share,
    "query_phrases": lambda c: c.signals.query_phrases,
    "same_alert": lambda c: c.signals.same_alert or 0.0,  # the shipped model does not read it (BENCHMARKS)
    "opening_exclusive": lambda c: 0.0 if c.signals.lone_word else min(HEAD_RARE_CAP, c.exclusive),
    "views_first": lambda c: 0.0 if c.signals.lone_word else c.views,
    "matched_rare": lambda c: c.signals.matched_rarity,
}
"""Every feature a model may read; a new signal is one more entry here, then a refit naming it."""
SENTENCE_FEATURES = frozenset({"meaning_sentence_lead"})
"""The features read off the memories' sentence vectors (Signals.sentence_similarity)."""


def _meaning_lead(c: Context) -> float:
    if c.signals.similarity is None or c.similarity_best is None:
        return 0.0
    return c.signals.similarity - c.similarity_best


def _others_best(values: Sequence[float]) -> list[float]:
    """For each value, the best of the others (the runner-up for the best one)."""
    ordered = sorted(values, reverse=True)
    second = ordered[1] if len(ordered) > 1 else 0.0
    return [second if v == ordered[0] else ordered[0] for v in values]


def _z(value: float, mean: float, spread: float) -> float:
    return min(STANDOUT_CAP, (value - mean) / spread) if spread > 0 else 0.0


def _score_z(value: float, scores: Sequence[float]) -> float:
    # a small bank's missing candidates are memories that matched nothing: they score 0
    padded = [*scores, *[0.0] * (JUDGED_CANDIDATES - len(scores))]
    return _z(value, fmean(padded), pstdev(padded))


def near_duplicates(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two openings (title, symptoms and error terms) nearly the same: one incident written twice."""
    if not a or not b or min(len(a), len(b)) < NEAR_DUPLICATE * max(len(a), len(b)):
        return False
    return len(a & b) >= NEAR_DUPLICATE * len(a | b)


def _score_zs(scores: Sequence[float], openings: Sequence[frozenset[str]] | None) -> list[float]:
    """Each candidate's score z-score; for the TWINS_READ best, read against the candidates
    without its near-duplicates (another copy of the same incident is not a competitor it must
    stand out of: two copies in a bank of two stand out as far as one alone)."""
    zs = [_score_z(score, scores) for score in scores]
    if openings is None:
        return zs
    best = sorted(range(len(scores)), key=lambda i: -scores[i])[:TWINS_READ]
    for i in best:
        twins = {j for j in range(len(scores)) if j != i and near_duplicates(openings[i], openings[j])}
        if twins:
            zs[i] = _score_z(scores[i], [v for j, v in enumerate(scores) if j not in twins])
    return zs


def _leads_among(cosines: Sequence[float | None], shown: Sequence[int]) -> list[float]:
    """Each candidate's cosine (its opening's, its closest sentence's) minus the best other among
    `shown` (the best-scoring ones; a lone candidate's lead is its cosine, as meaning_lead's is); 0
    for all when none has one (semantic recall off, nothing embedded so yet)."""
    if all(v is None for v in cosines):
        return [0.0] * len(cosines)
    values = [v or 0.0 for v in cosines]
    return [v - max((values[j] for j in shown if j != i), default=0.0) for i, v in enumerate(values)]


def features_of(
    signals: Sequence[Signals], scores: Sequence[float], openings: Sequence[frozenset[str]] | None = None
) -> list[dict[str, float]]:
    """Each candidate's features, read against the whole candidate list (one query's); `openings`,
    each memory's title, symptoms and error terms (signals.opening_terms), tell its near-duplicates."""
    relevances = [judge(s) for s in signals]
    if not relevances:
        return []
    mean, spread = fmean(relevances), pstdev(relevances)
    heads = _others_best([s.head for s in signals])
    with_meaning = any(s.similarity is not None for s in signals)
    similar = _others_best([s.similarity or 0.0 for s in signals]) if with_meaning else [None] * len(signals)
    cosines = [s.similarity for s in signals if s.similarity is not None]
    cosine_mean, cosine_spread = (fmean(cosines), pstdev(cosines)) if len(cosines) > 1 else (0.0, 0.0)
    leading = sorted(range(len(scores)), key=lambda i: -scores[i])[:TWINS_READ]
    top = [signals[i].similarity for i in leading if signals[i].similarity is not None]
    top_mean, top_spread = (fmean(top), pstdev(top)) if len(top) > 1 else (0.0, 0.0)
    twins = (lambda i, j: near_duplicates(openings[i], openings[j])) if openings is not None else lambda i, j: False
    standing = zip(exclusive(signals, leading, twins), views_first(signals), strict=True)
    cosine_leads = zip(
        _leads_among([s.opening_similarity for s in signals], leading[:MAX_STRONG]),
        _leads_among([s.sentence_similarity for s in signals], leading[:MAX_STRONG]),
        strict=True,
    )
    out = []
    for s, r, best, score, score_best, score_z, head_best, similarity_best, (alone, views), leads in zip(
        signals, relevances, _others_best(relevances), scores, _others_best(scores), _score_zs(scores, openings),
        heads, similar, standing, cosine_leads, strict=True,
    ):  # fmt: skip
        meaning_z = 0.0 if s.similarity is None else _z(s.similarity, cosine_mean, cosine_spread)
        meaning_z_top = 0.0 if s.similarity is None else _z(s.similarity, top_mean, top_spread)
        context = Context(
            s, r, best, mean, spread, s.head, score - score_best, score_z, head_best, similarity_best, meaning_z,
            meaning_z_top, alone, views, *leads,
        )  # fmt: skip
        out.append({name: round(f(context), 4) for name, f in FEATURES.items()})
    return out
