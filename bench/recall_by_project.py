"""A pasted ticket's right memory shown, by project half: evidence rules on jira-dev (issue 27).

    DATABASE_URL=… .venv/bin/python bench/recall_by_project.py path/to/jira-dev --cache .bench-data/by-project.pkl
    ... --read P2        # the other half's totals, once, for a rule chosen on P1
    ... --read all --rule shipped --model /tmp/model.json   # another fitted model on the same kept replay

jira-dev's "right memory shown" (strong among the first 5, or weak among the first 3) sat at 0.634
against issue 27's 0.65, and no threshold move or rule over which answer holds a memory reached
it inside the target-absent budgets (docs/BENCHMARKS.md, r27's passes). This replays a corpus once,
target absent, with the shipped judgement (`incident-memory replay DIR --target-absent`: its report
is printed first), keeps what the judgement read of each memory (numbers only: relevance, signals,
features, and the case's project; no text, no ids), and judges the same recalls again with each RULE added: one JSON line
per rule with right shown / strong and, with the right memory removed, strong / anything shown.

The corpus is split by project (the case's `service`, sorted, dealt alternately): P1 tunes, P2 is
read once (`--read P2`) for a rule chosen on P1. `shipped` must equal the replay's own tiers on
every recall (checked). Shipped behaviour is not changed here; a rule exists only in RULES until it
is chosen and moved into bot/recall/judgement_rules.py. `--separation` prints, for the half read,
how well each number the judgement reads tells the right memories a lower bar could show (among
the first three of recalls that answer nothing) from what it would show with them removed (AUC).

Measured at main 8a55c66 (docs/BENCHMARKS.md, r27's third pass): E(0.85), chosen on P1 by the rule
written first (+7 shown for +18 target-absent weak lines of 396), gave P2 +1 for +18; not shipped.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.recall_signature_rule import Shown, _shown, judged, replay_kept  # noqa: E402
from bot.recall.judgement import BELOW, MAX_STRONG, MAX_WEAK, STRONG, WEAK, Judgement, load_judgement  # noqa: E402
from bot.recall.judgement_rules import rule_of  # noqa: E402
from bot.recall.signals import RECENCY_HALF_LIFE_DAYS  # noqa: E402
from bot.replay import load_cases  # noqa: E402
from bot.replay_report import CaseResult  # noqa: E402


@dataclass(frozen=True, slots=True)
class Case:
    rank: int | None
    project: str | None
    meaning: bool
    present: list[Shown]
    absent: list[Shown]
    tiers: tuple[tuple[str, ...], tuple[str, ...]]
    """The replay's own tiers (present, absent): what `shipped` must give back."""


def packed(r: CaseResult) -> Case:
    meaning = any(m.score_components.get("similarity") is not None for m in (*r.matches, *r.absent_matches))
    return Case(r.rank, r.case.query.service, meaning, _shown(r.matches, r.case.relevant),
                _shown(r.absent_matches, r.case.relevant), (tuple(r.tiers), tuple(r.absent_tiers)))  # fmt: skip


def halves(corpus: Path) -> dict[str, str]:
    """Each project's half: the projects sorted, dealt alternately (P1, P2, P1, …)."""
    projects = sorted({c.query.service or "" for c in load_cases(corpus)})
    return {p: ("P1", "P2")[i % 2] for i, p in enumerate(projects)}


Rule = Callable[[Judgement, list[Shown], list[float], int], str]
"""The tier a rule gives the memory at `i` of a recall at least (its judge, the recall's memories, their
probabilities), BELOW when it gives none; the shipped rules (judgement_rules.rule_of) still apply."""


def tiers(judgement: Judgement, case: Case, shown: list[Shown], rule: Rule | None) -> list[str]:
    judge = judgement.for_recall(case.meaning, [s.evidence for s in shown])  # the model the pipeline picks
    probabilities = [judge.probability(s.evidence) for s in shown]
    ruled = []
    for i, s in enumerate(shown):
        tier = rule_of(s.relevance, s.components, s.evidence)[0]
        extra = rule(judge, shown, probabilities, i) if rule is not None else BELOW
        ruled.append(STRONG if STRONG in (tier, extra) else WEAK if WEAK in (tier, extra) else BELOW)
    return judged(judge, shown, probabilities, ruled)


def figures(judgement: Judgement, cases: Sequence[Case], rule: Rule | None) -> dict[str, float]:
    n = len(cases) or 1
    shown = strong = absent_strong = absent_shown = 0
    for c in cases:
        present = tiers(judgement, c, c.present, rule)
        right = next((t for s, t in zip(c.present, present, strict=True) if s.right and t != BELOW), BELOW)
        shown += right != BELOW
        strong += right == STRONG
        gone = tiers(judgement, c, c.absent, rule)
        absent_strong += STRONG in gone
        absent_shown += STRONG in gone or WEAK in gone
    return {"cases": len(cases), "shown_n": shown, "strong_n": strong, "absent_strong_n": absent_strong,
            "absent_shown_n": absent_shown, "shown": round(shown / n, 4), "strong": round(strong / n, 4),
            "absent_strong": round(absent_strong / n, 4), "absent_shown": round(absent_shown / n, 4)}  # fmt: skip


def check_shipped(judgement: Judgement, cases: Sequence[Case]) -> None:
    for c in cases:
        for shown, kept in ((c.present, c.tiers[0]), (c.absent, c.tiers[1])):
            if tuple(tiers(judgement, c, shown, None)) != kept:
                raise SystemExit(
                    "the bench's shipped tiers differ from the replay's: it no longer judges as the product"
                )


def exclusive_near_weak(k: float) -> Rule:
    """Rule E(k): for a query the long model judges (a ticket pasted whole), a memory among the first
    MAX_WEAK at k x weak_from whose opening holds some of the query's weight no other of the best
    candidates' openings holds (features.FEATURES' opening_exclusive > 0) is weak."""

    def rule(judge: Judgement, shown: list[Shown], probabilities: list[float], i: int) -> str:
        long_query = judge.short is not None  # the long model is the one that carries the short one
        near = probabilities[i] >= k * judge.weak_from and shown[i].evidence.get("opening_exclusive", 0.0) > 0
        return WEAK if long_query and i < MAX_WEAK and near else BELOW

    return rule


def near_weak(k: float, days: float = math.inf) -> Rule:
    """T(k): the long model's weak_from lowered to k x weak_from for the first MAX_WEAK (a threshold
    move); R(k, days): the same for a memory filed at most `days` before the query (Signals.recency)."""

    def rule(judge: Judgement, shown: list[Shown], probabilities: list[float], i: int) -> str:
        near = judge.short is not None and i < MAX_WEAK and probabilities[i] >= k * judge.weak_from
        return WEAK if near and age_days(shown[i]) <= days else BELOW

    return rule


def age_days(shown: Shown) -> float:
    """How long before the query the memory happened, read back from its recency (signals.py)."""
    return -RECENCY_HALF_LIFE_DAYS * math.log2(max(shown.components.get("recency", 0.5), 1e-12))


RULES: dict[str, Rule | None] = {
    "shipped": None,
    **{f"E({k})": exclusive_near_weak(k) for k in (0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6)},
    **{f"T({k})": near_weak(k) for k in (0.9, 0.8, 0.7)},
    **{f"R({k}, {d} days)": near_weak(k, d) for k in (0.8, 0.7, 0.6) for d in (14, 60)},
}


def separation(judgement: Judgement, cases: Sequence[Case]) -> dict[str, float]:
    """Where gains can come from: the right memories among the first MAX_WEAK of recalls that answer
    nothing, against each of the first MAX_WEAK of target-absent recalls that answer nothing; the AUC
    of each number the judgement reads (the probability, its features, its signals) between them."""
    right, wrong = [], []
    for c in cases:
        for shown, into in ((c.present, right), (c.absent, wrong)):
            if {STRONG, WEAK} & set(tiers(judgement, c, shown, None)):
                continue
            judge = judgement.for_recall(c.meaning, [s.evidence for s in shown])
            into += [{"probability": judge.probability(s.evidence), **s.evidence,
                      **{f"signal {k}": v for k, v in s.components.items()}}
                     for s in shown[:MAX_WEAK] if into is wrong or s.right]  # fmt: skip
    if not right or not wrong:
        return {}
    aucs = {}
    for name in right[0]:
        pairs = [(r.get(name, 0.0), w.get(name, 0.0)) for r in right for w in wrong]
        aucs[name] = round(sum((a > b) + 0.5 * (a == b) for a, b in pairs) / len(pairs), 3)
    top = dict(sorted(aucs.items(), key=lambda kv: -kv[1])[:8])
    return {"right": len(right), "absent": len(wrong), **top}


def _answer(tiers: Sequence[str]) -> str:
    return "thread" if STRONG in tiers else "line" if WEAK in tiers else "nothing"


def where(judgement: Judgement, cases: Sequence[Case]) -> dict[str, object]:
    """Why a right memory among the first MAX_STRONG is not shown, counted by where it sits (its rank, the answer
    the recall gives, the model that judged the query: `long` or `short`, Judgement.short), with its weak-line
    probability as a share of the line it missed (under half, or half to all of it); and what the recalls answer
    with the right memory removed. Counts only: no case is named."""
    hidden: Counter[str] = Counter()
    answers: Counter[str] = Counter()
    for c in cases:
        judge = judgement.for_recall(c.meaning, [s.evidence for s in c.present])
        said = "short" if judge is judgement.short else "long"
        present = tiers(judgement, c, c.present, None)
        at = next((i for i, s in enumerate(c.present) if s.right), None)
        if at is not None and at < MAX_STRONG and present[at] == BELOW:
            answer = _answer(present)  # a weak line names the first MAX_WEAK: a right memory there is shown
            place = ("ranks 2-5 in a thread, not held" if answer == "thread" else "ranks 1-3 under nothing"
                     if at < MAX_WEAK else f"ranks 4-5 under {'a weak line (the cap)' if answer == 'line' else 'nothing'}")  # fmt: skip
            line = judge.weak or judge
            share = line.probability(c.present[at].evidence) / line.weak_from
            hidden[f"{place}, {said}, {'under half' if share < 0.5 else 'half to all'} of the line"] += 1
        gone = judgement.for_recall(c.meaning, [s.evidence for s in c.absent])
        answers[
            f"{'short' if gone is judgement.short else 'long'}: {_answer(tiers(judgement, c, c.absent, None))}"
        ] += 1
    in_five = sum(c.rank is not None and c.rank <= MAX_STRONG for c in cases)
    return {"cases": len(cases), "right_in_first_five": in_five, "hidden": sum(hidden.values()),
            "hidden_by_place": dict(sorted(hidden.items())), "removed_answers": dict(sorted(answers.items()))}  # fmt: skip


STRONG_SCALES = (0.3, 0.4, 0.45, *(round(0.5 + 0.05 * i, 2) for i in range(11)), 1.2, 1.5, 2.0, 3.0)
LINE_SCALES = (0.5, 0.6, 0.7, 0.8, 0.9, *(round(1.0 + 0.1 * i, 1) for i in range(16)), 3.0, 5.0, 11.0)
TARGETS = {"shown": 0.65, "absent_shown": 0.70, "absent_strong": 0.50}
"""issue 27's jira-dev targets: right memory shown at least, with it removed anything / a thread at most."""


def _scaled(model: Judgement, strong: float, line: float) -> Judgement:
    weak = None if model.weak is None else replace(model.weak, weak_from=min(1.0, model.weak.weak_from * line))
    return replace(model, strong_from=min(1.0, model.strong_from * strong), weak=weak)


def bound(judgement: Judgement, cases: Sequence[Case]) -> dict[str, object]:
    """A bound, not a choice: every pair of scalings of the two thresholds (the thread's strong_from x STRONG_SCALES,
    the weak line's weak_from x LINE_SCALES; the long and the short model alike, the rules kept), and the most right
    memories shown inside TARGETS' budgets; the points that reach TARGETS' shown, with what they cost. A point found
    here is a threshold read off the corpus judged: never shipped from it."""
    points = []
    for strong in STRONG_SCALES:
        for line in LINE_SCALES:
            model = _scaled(judgement, strong, line)
            if judgement.short is not None:
                model = replace(model, short=_scaled(judgement.short, strong, line))
            f = figures(model, cases, None)
            points.append({"strong_x": strong, "line_x": line, **{k: f[k] for k in ("shown", "absent_strong",
                                                                                     "absent_shown")}})  # fmt: skip
    inside = [p for p in points if all(p[k] <= TARGETS[k] for k in ("absent_shown", "absent_strong"))]
    reach = [p for p in points if p["shown"] >= TARGETS["shown"]]
    return {"points": len(points), "best_inside": max(inside, key=lambda p: (p["shown"], -p["absent_shown"])),
            "reaching_shown": len(reach), "reaching_least_strong": min(reach, key=lambda p: p["absent_strong"], default=None),
            "reaching_least_shown": min(reach, key=lambda p: p["absent_shown"], default=None)}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, help="a replay folder (docs/REPLAY.md) whose cases carry a service")
    parser.add_argument("--cache", type=Path, help="keep the replay here (a pickle of numbers) and reuse it")
    parser.add_argument("--read", default="P1", choices=("P1", "P2", "all"), help="which half's totals to print")
    parser.add_argument("--rule", action="append", help="only these rules (names of RULES; default all)")
    parser.add_argument(
        "--model",
        type=Path,
        help="judge with this model file instead of the shipped one "
        "(bench/fit_recall_judgement.py --write's; ranking does not read it, so the replay is reused)",
    )
    parser.add_argument("--separation", action="store_true", help="the AUC of each number between right and wrong")
    parser.add_argument("--where", action="store_true", help="where the unshown right memories of the first five sit")
    parser.add_argument("--bound", action="store_true", help="the most shown any threshold pair reaches in the budgets")
    args = parser.parse_args()
    cases = replay_kept(args.corpus, args.cache, packed)
    judgement = load_judgement() if args.model is None else load_judgement(args.model)
    if args.model is None:
        check_shipped(judgement, cases)
    half = halves(args.corpus)
    read = [c for c in cases if args.read == "all" or half.get(c.project or "") == args.read]
    if args.separation:
        print(json.dumps({"separation": args.read, **separation(judgement, read)}), flush=True)
    if args.where:
        print(json.dumps({"where": args.read, **where(judgement, read)}), flush=True)
    if args.bound:
        print(json.dumps({"bound": args.read, **bound(judgement, read)}), flush=True)
    for name in args.rule or list(RULES):
        print(json.dumps({"rule": name, "half": args.read, **figures(judgement, read, RULES[name])}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
