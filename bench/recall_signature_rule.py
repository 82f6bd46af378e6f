"""The error-signature rule of the recall judgement, with and without: what it wins and costs (issue 27).

    DATABASE_URL=… .venv/bin/python bench/recall_signature_rule.py path/to/jira-dev [--cache FILE]
    # with meaning: the embedded PostgreSQL (pgvector) and bench/embeddings_server.py, cache prefilled
    env -u DATABASE_URL EMBEDDINGS_URL=http://127.0.0.1:8089/v1 EMBEDDINGS_MODEL=all-MiniLM-L6-v2 \\
        EMBEDDINGS_TIMEOUT_S=10 .venv/bin/python bench/recall_signature_rule.py path/to/jira-dev --cache FILE

`judgement_rules.rule_of` makes a memory strong when it failed with the query's error signature (since
r27-tiers only at relevance >= SIGNATURE_SURE, which was this bench's "relevance >= 0.7" variant:
the variants below can only narrow it further, "no signature rule" still turns it off). The
first reports the model is fitted on carry none, so no fitted figure says what the rule does; a
corpus with stack traces (jira-dev) does. This replays a corpus once, target absent, with the
shipped judgement (`incident-memory replay DIR --target-absent`: its report is printed first, the
very text the CLI prints), keeps what the judgement read of every shown memory, then judges the
same recalls again with the signature rule replaced by each variant of VARIANTS (the rule off, or
firing only with more evidence beside the signature): right memory shown (strong among the first 5
or weak among the first 3) and strong, and with it removed strong / anything shown, one JSON line
each. Shipped behaviour is not changed; the variants exist only here. `--cache FILE` keeps the
replay (a semantic one takes ~15 minutes on a loaded host) for reruns.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pickle
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.judgement_figures import calibration_error  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.recall.judgement import BELOW, STRONG, WEAK, Judgement, load_judgement  # noqa: E402
from bot.recall.judgement_rules import rule_of  # noqa: E402
from bot.recall.signature import error_signature  # noqa: E402
from bot.replay import load_memories, run_replay  # noqa: E402
from bot.replay_report import CaseResult  # noqa: E402


@dataclass(frozen=True, slots=True)
class Shown:
    """What the judgement read of one shown memory."""

    right: bool
    relevance: float
    components: dict[str, float]
    evidence: dict[str, float]


@dataclass(frozen=True, slots=True)
class Case:
    rank: int | None
    signature: str | None
    """The query's error signature (the memory's, when the rule fires)."""
    meaning: bool
    """Recalled with meaning (judged by the semantic model)."""
    present: list[Shown]
    absent: list[Shown]
    fold: str | None = None
    """The case's `fold` (A or B) where the corpus has folds: only each fold's totals are printed."""


def _shown(matches, relevant) -> list[Shown]:  # noqa: ANN001
    return [Shown(m.memory.incident_id in relevant, m.relevance, dict(m.score_components), dict(m.evidence))
            for m in matches]  # fmt: skip


def packed(r: CaseResult) -> Case:
    meaning = any(m.score_components.get("similarity") is not None for m in (*r.matches, *r.absent_matches))
    return Case(r.rank, error_signature(r.case.query.error_message), meaning,
                _shown(r.matches, r.case.relevant), _shown(r.absent_matches, r.case.relevant), r.case.flags.get("fold"))  # fmt: skip


Keep = Callable[[Shown, Case, float, Judgement, int], bool]
"""Whether the signature rule still fires for a memory that shares the query's signature
(shown memory, its case, its probability, the judgement that judges it, its rank from 0)."""


def _words(signature: str | None) -> int:
    return len((signature or "").replace(":", " ").split())


VARIANTS: dict[str, Keep] = {
    "shipped (same signature and relevance >= SIGNATURE_SURE: strong)": lambda s, c, p, j, i: True,
    "before c99c3fd (same signature alone: strong)": lambda s, c, p, j, i: True,
    "no signature rule": lambda s, c, p, j, i: False,
    "signature, relevance >= 0.5": lambda s, c, p, j, i: s.relevance >= 0.5,
    "signature, relevance >= 0.7": lambda s, c, p, j, i: s.relevance >= 0.7,
    "signature, ranked first": lambda s, c, p, j, i: i == 0,
    "signature, probability >= weak_from": lambda s, c, p, j, i: p >= j.weak_from,
    "signature, the same service": lambda s, c, p, j, i: s.components.get("same_service") == 1.0,
    "signature of >= 6 words": lambda s, c, p, j, i: _words(c.signature) >= 6,
    "signature carried by 1 memory of the corpus": lambda s, c, p, j, i: CARRIED.get(c.signature, 0) <= 1,
    "signature carried by <= 3 memories of the corpus": lambda s, c, p, j, i: CARRIED.get(c.signature, 0) <= 3,
}
BEFORE = "before c99c3fd (same signature alone: strong)"
CARRIED: dict[str | None, int] = {}
"""How many of the corpus's memories carry each error signature (all of them, not only those
before the case: an approximation of a rarity the store does not count today)."""


def tiers(case: Case, shown: list[Shown], keep: Keep, judgement: Judgement, weak_only: bool = False) -> list[str]:
    judge = judgement.for_recall(case.meaning, [s.evidence for s in shown])  # the model the pipeline picks
    probabilities = [judge.probability(s.evidence) for s in shown]
    rules = []
    for i, (s, p) in enumerate(zip(shown, probabilities, strict=True)):
        tier = rule_of(s.relevance, s.components, s.evidence)[0]
        if s.components.get("signature") == 1.0 and keep is VARIANTS[BEFORE]:
            tier = STRONG  # the rule as it was: the signature alone
        elif s.components.get("signature") == 1.0 and not keep(s, case, p, judge, i):
            tier = rule_of(s.relevance, {**s.components, "signature": 0.0}, s.evidence)[0]
            if weak_only and tier == BELOW:
                tier = WEAK
        rules.append(tier)
    return judged(judge, shown, probabilities, rules)


def judged(judge: Judgement, shown: list[Shown], probabilities: list[float], rules: list[str]) -> list[str]:
    """The tiers the product gives these memories (Judgement.tiers), the weak line decided by the model's weak
    model when it has one (Judgement.weak, as bot/recall/pipeline.py reads it)."""
    weak = None if judge.weak is None else [judge.weak.probability(s.evidence) for s in shown]
    return judge.tiers(probabilities, [s.relevance for s in shown], rules, weak)


def figures(cases: list[Case], keep: Keep, judgement: Judgement, weak_only: bool = False) -> dict[str, float]:
    n, first = len(cases) or 1, [c for c in cases if c.rank == 1]
    right_strong = right_shown = first_strong = first_shown = absent_strong = absent_shown = 0
    for c in cases:
        right = next((t for s, t in zip(c.present, tiers(c, c.present, keep, judgement, weak_only), strict=True)
                      if s.right and t != BELOW), BELOW)  # fmt: skip
        right_strong += right == STRONG
        right_shown += right != BELOW
        first_strong += c.rank == 1 and right == STRONG
        first_shown += c.rank == 1 and right != BELOW
        gone = tiers(c, c.absent, keep, judgement, weak_only)
        absent_strong += STRONG in gone
        absent_shown += STRONG in gone or WEAK in gone
    counts = {"right_shown_n": right_shown, "right_strong_n": right_strong, "absent_strong_n": absent_strong,
              "absent_shown_n": absent_shown}  # fmt: skip
    return counts | {
        "right_shown": round(right_shown / n, 4), "right_strong": round(right_strong / n, 4),
        "first_shown": round(first_shown / (len(first) or 1), 4), "first_strong": round(first_strong / (len(first) or 1), 4),
        "absent_strong": round(absent_strong / n, 4), "absent_shown": round(absent_shown / n, 4),
    }  # fmt: skip


def reach(cases: list[Case]) -> dict[str, int]:
    """How often the signature is in play: queries with one, shown memories sharing it."""
    return {
        "cases": len(cases),
        "queries_with_signature": sum(c.signature is not None for c in cases),
        "right_shares_signature": sum(any(s.right and s.components.get("signature") == 1.0 for s in c.present)
                                      for c in cases),
        "absent_shares_signature": sum(any(s.components.get("signature") == 1.0 for s in c.absent) for c in cases),
        "recalled_with_meaning": sum(c.meaning for c in cases),
        "present_without_meaning": sum(_lexical(c.present) for c in cases),
        "absent_without_meaning": sum(_lexical(c.absent) for c in cases),
    }  # fmt: skip


def _lexical(shown: list[Shown]) -> bool:
    """Recalled without meaning (semantic recall off, or the query's vector not in time)."""
    return bool(shown) and all(s.components.get("similarity") is None for s in shown)


def ece(cases: list[Case], judgement: Judgement, bins: int = 10) -> float:
    """Expected calibration error of the probability over every shown memory (present and absent
    recalls), as bench/fit_recall_judgement.py reads it; no rule moves it."""
    pairs = []
    for c in cases:
        for shown, right in ((c.present, True), (c.absent, False)):
            judge = judgement.for_recall(c.meaning, [s.evidence for s in shown])
            pairs += [(judge.probability(s.evidence), int(right and s.right)) for s in shown]
    return round(calibration_error(pairs, bins), 4)


def replay_kept(corpus: Path, cache: Path | None, pack: Callable, kept: Callable = list) -> list:  # noqa: ANN001
    """Replay a corpus target absent with the matches kept (printing the CLI's report), each case
    packed by `pack`, and write `kept(cases)` to `cache` (bench/recall_tier_policy.py's too); with `cache`
    already written, its cases as they were kept (recall_tier_policy reads its own, kept plain, before)."""
    if cache and cache.exists():
        return pickle.loads(cache.read_bytes())
    report = asyncio.run(run_replay(corpus, Settings(), progress=sys.stderr.isatty(), keep_matches=True,
                                    target_absent=True))  # fmt: skip
    print(report.text(), flush=True)
    cases = [pack(r) for r in report.results]
    if cache:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(pickle.dumps(kept(cases)))
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, help="a replay folder (docs/REPLAY.md)")
    parser.add_argument("--cache", type=Path, help="keep the replay here (a pickle) and reuse it")
    args = parser.parse_args()
    cases = replay_kept(args.corpus, args.cache, packed)
    CARRIED.update(Counter(error_signature(m.error_message) for m in load_memories(args.corpus)))
    judgement = load_judgement()
    print(json.dumps(reach(cases) | {"ece": ece(cases, judgement)}))
    folds = sorted({f for c in cases if (f := getattr(c, "fold", None))})
    for name, keep in VARIANTS.items():
        print(json.dumps({"variant": name, **figures(cases, keep, judgement)}))
        for fold in folds:  # totals only (a fold kept for reporting is never read case by case)
            print(json.dumps({"variant": name, "fold": fold,
                              **figures([c for c in cases if getattr(c, "fold", None) == fold], keep, judgement)}))  # fmt: skip
    print(json.dumps({"variant": "same signature: weak, not strong", **figures(cases, VARIANTS["no signature rule"],
                                                                             judgement, weak_only=True)}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
