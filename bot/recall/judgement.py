"""The relevance judgement: the probability that a recalled memory describes the same failure,
and the tier it is shown in (strong: the thread; weak: one line naming it; below: not shown).

The relevance floor (floor.py) judged each memory alone, on how much of the query it covers. A
responder's two lines of symptoms cover little of a pages-long postmortem, so a right memory
sat under the floor while it stood far ahead of every other candidate. The judgement reads what
separates a true match from a neighbour instead: the features of features.py, each measured per query.

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
which a team reruns on its own history). A new feature is a new entry in features.FEATURES and a refit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from bot.models import RecallMatch
from bot.recall.features import FEATURES, MAX_STRONG, SENTENCE_FEATURES
from bot.recall.floor import DEFAULT_FLOOR

JUDGEMENT_PATH = Path(__file__).resolve().parent.parent / "data" / "recall_judgement.json"
SEMANTIC_NAME = "recall_judgement_semantic.json"
"""Beside the lexical model's file: the model that judges a query recalled with meaning (semantic
recall on, EMBEDDINGS_URL set), fitted on a semantic replay and refitted on its own."""
STRONG, WEAK, BELOW = "strong", "weak", "below"
MAX_WEAK = 3
"""The weak line names at most this many."""
SURE_FLOOR = 0.5
"""Relevance from which a memory posts a thread whatever the fitted probability, when a model sets
it (`sure_from`; `bench/fit_recall_judgement.py --sure-from`). The shipped model sets none: on the
first reports half the query's words posted a false thread for 0.17 of fold A's target-absent
recalls (Civo's status entries read alike from one incident to the next), and a model fitted
beside it could only add threads above a threshold of 0.99 (docs/BENCHMARKS.md). The same alert
and the same error signature keep their thread by rule (judgement_rules.rule_of)."""


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
    near: float | None = None
    """With a weak model: a memory among the first MAX_WEAK whose probability by this model (the thread's)
    reaches this share of strong_from is named on the weak line whatever the weak model says (None: never). The
    weak model reads the rarest query word held anywhere in a memory's text (matched_rare), which an importer's
    change to one sentence can move; this model reads the memory's opening, and right memories just short of a
    thread went unnamed (docs/BENCHMARKS.md, issue 27, r27swap). A fit reads the weak model's line with these
    counted as shown (bench/weak_line.py), so the shown budget holds. No shipped file sets it: its one candidate
    (near 0.8) failed its judge by one case (review F78), so a model file that sets it needs a judge of its own."""

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
        if self.near_by(probabilities[:MAX_WEAK]) or any(
            p >= line or rule != BELOW for p, rule in zip(said[:MAX_WEAK], rules[:MAX_WEAK], strict=True)
        ):
            return [WEAK if i < MAX_WEAK else BELOW for i in range(len(ranked))]
        return [BELOW] * len(ranked)

    def near_by(self, probabilities: Sequence[float]) -> bool:
        """Whether one of these (the thread model's probabilities) is near a thread: at `near` of strong_from."""
        return self.near is not None and any(p >= self.near * self.strong_from for p in probabilities)

    def rule_behind(
        self, tier: str, probability: float, relevance: float, rule: tuple[str, str | None],
        weak: float | None = None,
    ) -> str | None:  # fmt: skip
        """What put a memory at its tier (from tiers) when its probability alone did not, in words
        for "Why this?" (`rule`: judgement_rules.rule_of's answer for it); None when the probability did.
        `weak`: its probability by the weak model (self.weak), which decides the weak line."""
        if (
            tier == WEAK
            and self.near_by([probability])
            and rule[0] != WEAK
            and (weak is None or self.weak is None or weak < self.weak.weak_from)
        ):
            return (f"its probability {probability:.2f} is near a thread's {self.strong_from:.2f}"
                    f" (named from {self.near:.2f} of it)")  # fmt: skip
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
        if self.near is not None:
            out["near"] = self.near
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
            float(data["near"]) if data.get("near") is not None else None,
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
