"""The relevance judgement: the probability that a recalled memory describes the same failure,
and the tier it is shown in (strong: the thread; weak: one line naming it; below: not shown).

The relevance floor (floor.py) judged each memory alone, on how much of the query it covers. A
responder's two lines of symptoms cover little of a pages-long postmortem, so a right memory
sat under the floor while it stood far ahead of every other candidate. The judgement reads what
separates a true match from a neighbour instead, each feature measured per query:

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
- body_rare: the idf of the three rarest of the query's terms the memory holds anywhere, summed, in terms no
  memory holds (Signals.body_rarity): head_rare over the whole memory. Both thread models read it (issue 27,
  r27-feat: chosen on fold A's halves, + 7 strong of 284; judged on the corpus with the twentieth collection,
  A -> B strong 0.723 -> 0.755 and shown 0.898 -> 0.901, B -> A 0.671 -> 0.661 and 0.896 -> 0.889). Beside it
  head_rare's weight turns slightly negative: where in the memory the rare words sit matters less than that
  it says them.

Read on the first reports and not kept (no model read them; docs/BENCHMARKS.md, issue 27): `head` against the
title and first line of the symptoms (head_first, r27-strong), and `head` minus the best other of the MAX_STRONG
best-scoring candidates' (head_margin, r27-strong2): each gained strong on fold A nested, + 1 out of sample. The
share of the query's rare words a memory holds, its lead over the best other of the five, and the title's share's
lead (r27-feat) did not pass fold A's halves.

Which of them a model reads is the fit's choice (bench/fit_recall_judgement.py --features), made
on the first reports' tuning fold: lexically the head, its standout (head takes a negative
weight: the pair reads head × (score_z − c), standing out on what the memory's opening covers),
score_standout (standing out itself, once the opening shares two of the query's terms: raw
score_z lifts a lone shared word in a sparse bank) and head_rare (how much of the query's rare
vocabulary the opening holds, not what share of the query), and with semantic recall on the lead
in meaning added most. A query recalled with meaning (semantic recall on, its vector in time) is
judged by the file's "semantic" model, fitted on a semantic replay, so a memory found by meaning
alone can be strong; without it, by the lexical one.

They are combined by a logistic model whose coefficients are data (bot/data/recall_judgement.json;
the semantic model's in bot/data/recall_judgement_semantic.json),
fitted on first reports of real incidents by organisation fold (bench/fit_recall_judgement.py,
which a team reruns on its own history). A new feature is a new entry in FEATURES and a refit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from statistics import fmean, pstdev

from bot.models import RecallMatch
from bot.recall.floor import DEFAULT_FLOOR, judge, meaning_share
from bot.recall.signals import Signals
from bot.recall.views import exclusive, views_first

JUDGEMENT_PATH = Path(__file__).resolve().parent.parent / "data" / "recall_judgement.json"
SEMANTIC_NAME = "recall_judgement_semantic.json"
"""Beside the lexical model's file: the model that judges a query recalled with meaning (semantic
recall on, EMBEDDINGS_URL set), fitted on a semantic replay and refitted on its own."""
STRONG, WEAK, BELOW = "strong", "weak", "below"
MAX_STRONG = 5
"""A thread posts at most this many memories."""
MAX_WEAK = 3
"""The weak line names at most this many."""
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
SURE_FLOOR = 0.5
"""Relevance from which a memory posts a thread whatever the fitted probability, when a model sets
it (`sure_from`; `bench/fit_recall_judgement.py --sure-from`). The shipped model sets none: on the
first reports half the query's words posted a false thread for 0.17 of fold A's target-absent
recalls (Civo's status entries read alike from one incident to the next), and a model fitted
beside it could only add threads above a threshold of 0.99 (docs/BENCHMARKS.md). The same alert
and the same error signature keep their thread by rule (judgement_rules.rule_of)."""


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
    "body_rare": lambda c: c.signals.body_rarity,
}
"""Every feature a model may read; a new signal is one more entry here, then a refit naming it."""
SENTENCE_FEATURES = frozenset({"meaning_sentence_lead"})
"""The features read off the memories' sentence vectors (Signals.sentence_similarity)."""


def _meaning_lead(c: Context) -> float:
    if c.signals.similarity is None or c.similarity_best is None:
        return 0.0
    return c.signals.similarity - c.similarity_best


@dataclass(frozen=True, slots=True)
class Judgement:
    coefficients: dict[str, float]
    intercept: float
    strong_from: float
    """Probability from which a memory is strong (posted in the thread)."""
    weak_from: float
    """Probability from which a memory is weak (named in the one line), if among the first MAX_WEAK."""
    fitted_on: dict[str, object] = field(default_factory=dict)
    floor: float = DEFAULT_FLOOR
    """Once a thread is posted, a memory among the first MAX_STRONG at or over this relevance
    (floor.py, RECALL_FLOOR) joins it: the judgement decides whether to post, the floor what else
    a posted thread holds (a second incident with the same status code is not hidden)."""
    sure_from: float | None = SURE_FLOOR
    """A memory at or over this relevance posts a thread whatever its probability (None: never)."""
    semantic: Judgement | None = None
    """The model for a query recalled with meaning (semantic recall on): fitted on a semantic
    replay, it reads the meaning features the lexical model cannot."""
    short: Judgement | None = None
    """The lexical model for a short query (its phrases weigh at most `short_until`: a first
    report's two lines), which reads the query's phrases said in the memory (phrase_share). A
    long query (a ticket pasted whole) shares phrases with every neighbour ("null pointer", "log
    message"): on the long re-filings the phrases moved no right memory off the shipped model's
    curve, and the thresholds fitted beside them on first reports showed more false lines there
    (docs/BENCHMARKS.md, issue 27 r27-judgement), so a long query keeps this model."""
    short_until: float | None = None
    weak: Judgement | None = None
    """A second model whose probability decides the weak line (its weak_from), this one's deciding
    the thread and what it holds: evidence that tells "show the closest" from "nothing" may not tell
    a thread (bench/fit_recall_judgement.py --weak-features). Each model may have its own (the short
    one's is its `short.weak`); a model file holds it under "weak"."""

    def for_query(self, with_meaning: bool, query_phrases: float) -> Judgement:
        """The model that judges a query: with meaning the semantic one; without, the short one
        when the query's phrases weigh at most short_until (Signals.query_phrases), else this."""
        if with_meaning and self.semantic is not None:
            return self.semantic
        if self.short is not None and self.short_until is not None and query_phrases <= self.short_until:
            return self.short
        return self

    def for_recall(self, with_meaning: bool, evidence: Sequence[Mapping[str, float]]) -> Judgement:
        """for_query for a recall kept as its matches' features (RecallMatch.evidence: a replay, a
        bench), the query's phrases read off them as the pipeline reads them off its signals; a
        recall kept before the short model (no query_phrases) is judged by this model."""
        return self.for_query(with_meaning, evidence[0].get("query_phrases", math.inf) if evidence else math.inf)

    def reads_sentences(self) -> bool:
        """Whether this model, or one it hands a query to (semantic, short), reads SENTENCE_FEATURES:
        only then does a replay embed the memories' sentences (as much model time again as the whole
        texts and openings; the bot embeds them anyway, for the sentence a card quotes)."""
        models = [m for m in (self, self.semantic, self.short) if m is not None]
        return any(SENTENCE_FEATURES & set(m.coefficients) for m in (*models, *(m.weak for m in models if m.weak)))

    def probability(self, features: dict[str, float]) -> float:
        z = self.intercept + sum(w * features.get(name, 0.0) for name, w in self.coefficients.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def sure(self, relevance: float) -> bool:
        """Evidence that posts a thread whatever the probability: half the query's evidence."""
        return self.sure_from is not None and relevance >= self.sure_from

    def tiers(
        self, probabilities: Sequence[float], relevances: Sequence[float], ruled: Sequence[str] | None = None,
        weak: Sequence[float] | None = None,
    ) -> list[str]:  # fmt: skip
        """The tier of each ranked match, in rank order. The judgement decides which answer is
        given, then what it holds: a thread when one of the first MAX_STRONG reaches strong_from (or
        is sure, or strong by a rule: `ruled`, judgement_rules.by_rule), holding those and the others of the first
        MAX_STRONG that reach weak_from or the floor; else, when one of the first MAX_WEAK reaches
        weak_from or is weak by a rule, a weak line naming the first MAX_WEAK (the closest
        memories: one line, the responder decides); else nothing. `weak`: the weak model's
        probabilities (self.weak), which then decide the weak line against its weak_from."""
        rules = ruled if ruled is not None else [BELOW] * len(relevances)
        ranked = list(zip(probabilities, relevances, rules, strict=True))
        first = ranked[:MAX_STRONG]
        if any(p >= self.strong_from or self.sure(r) or rule == STRONG for p, r, rule in first):
            held = [p >= min(self.weak_from, self.strong_from) or r >= self.floor or self.sure(r) or rule == STRONG
                    for p, r, rule in first]  # fmt: skip
            return [STRONG if i < len(held) and held[i] else BELOW for i in range(len(ranked))]
        line, said = (
            (self.weak_from, probabilities) if self.weak is None or weak is None else (self.weak.weak_from, weak)
        )
        if any(p >= line or rule != BELOW for p, rule in zip(said[:MAX_WEAK], rules[:MAX_WEAK], strict=True)):
            return [WEAK if i < MAX_WEAK else BELOW for i in range(len(ranked))]
        return [BELOW] * len(ranked)

    def rule_behind(
        self, tier: str, probability: float, relevance: float, rule: tuple[str, str | None],
        weak: float | None = None,
    ) -> str | None:  # fmt: skip
        """What put a memory at its tier (from tiers) when its probability alone did not, in words
        for "Why this?" (`rule`: judgement_rules.rule_of's answer for it); None when the probability did.
        `weak`: its probability by the weak model (self.weak), which decides the weak line."""
        if tier == WEAK and self.weak is not None and weak is not None and rule[0] != WEAK:
            said = f"the weak-line model's probability {weak:.2f}, weak from {self.weak.weak_from:.2f}"
            return said if weak >= self.weak.weak_from else f"named among the closest {MAX_WEAK}: {said}"
        if tier == BELOW or probability >= (self.strong_from if tier == STRONG else self.weak_from):
            return None
        if rule[0] == tier:
            return f"by rule: {rule[1]}"
        if tier == WEAK:
            return f"named among the closest {MAX_WEAK}: another reached weak from {self.weak_from:.2f} or a rule"
        if self.sure(relevance):
            return f"relevance {relevance:.2f}: half the query's evidence posts a thread (from {self.sure_from})"
        if probability >= self.weak_from:
            return f"in the posted thread: probability {probability:.2f}, weak from {self.weak_from:.2f}"
        return f"in the posted thread: relevance {relevance:.2f} over the floor {self.floor}"

    def with_floor(self, floor: float) -> Judgement:
        """The same judgement (lexical and semantic) with another floor (RECALL_FLOOR)."""
        semantic = None if self.semantic is None else replace(self.semantic, floor=floor)
        short = None if self.short is None else replace(self.short, floor=floor)
        return replace(self, floor=floor, semantic=semantic, short=short)

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"coefficients": self.coefficients, "intercept": self.intercept,
                                  "strong_from": self.strong_from, "weak_from": self.weak_from,
                                  "fitted_on": self.fitted_on, "floor": self.floor, "sure_from": self.sure_from}  # fmt: skip
        if self.short is not None:
            out["short"], out["short_until"] = self.short.model_json(), self.short_until
        if self.semantic is not None:
            out["semantic"] = self.semantic.model_json()
        if self.weak is not None:
            out["weak"] = self.weak.model_json()
        return out

    def model_json(self) -> dict[str, object]:
        """The fitted part only (the floors are the lexical model's, shared), with its weak model."""
        return {
            k: v
            for k, v in self.as_json().items()
            if k not in ("floor", "sure_from", "semantic", "short", "short_until")
        }

    @classmethod
    def from_json(cls, data: dict, shared: dict | None = None) -> Judgement:
        unknown = set(data["coefficients"]) - set(FEATURES)
        if unknown:
            raise ValueError(f"recall judgement names unknown features: {sorted(unknown)}")
        floors = shared if shared is not None else data
        sure = floors.get("sure_from", SURE_FLOOR)
        return cls(
            {k: float(v) for k, v in data["coefficients"].items()}, float(data["intercept"]),
            float(data["strong_from"]), float(data["weak_from"]), dict(data.get("fitted_on", {})),
            float(floors.get("floor", DEFAULT_FLOOR)), None if sure is None else float(sure),
            cls.from_json(data["semantic"], data) if data.get("semantic") and shared is None else None,
            cls.from_json(data["short"], data) if data.get("short") and shared is None else None,
            float(data["short_until"]) if data.get("short") and shared is None else None,
            cls.from_json(data["weak"], floors) if data.get("weak") else None,
        )  # fmt: skip


def tier_said(match: RecallMatch) -> str:
    """A match's tier as "Why this?" and the CLI say it: "weak", or "weak (…)" with what put it there when its
    probability alone did not (Judgement.rule_behind): "by rule: …" only for a rule of judgement_rules, the weak-line
    model, the closest few or the floor filling a thread said as themselves, never called a rule."""
    return match.tier + (f" ({match.rule})" if match.rule else "")


def split_by_tier(matches: Sequence[RecallMatch]) -> tuple[list[RecallMatch], list[RecallMatch], list[RecallMatch]]:
    """(strong, weak, below), each in recall order: what every surface shows (thread, /recall,
    App Home, the investigation, the CLI) is decided here and by the tiers the pipeline set."""
    return (
        [m for m in matches if m.tier == STRONG],
        [m for m in matches if m.tier == WEAK],
        [m for m in matches if m.tier == BELOW],
    )


@lru_cache(maxsize=8)
def load_judgement(path: Path = JUDGEMENT_PATH) -> Judgement:
    """The lexical model in `path`, with the semantic one from SEMANTIC_NAME beside it (when there:
    a file of the older shape keeps it under the key "semantic")."""
    data = json.loads(path.read_text(encoding="utf-8"))
    semantic = path.with_name(SEMANTIC_NAME)
    if semantic.is_file():
        data = {**data, "semantic": json.loads(semantic.read_text(encoding="utf-8"))}
    return Judgement.from_json(data)


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
