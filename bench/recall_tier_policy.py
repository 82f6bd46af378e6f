"""Which memories an answer holds besides the one that decided it: the tier policy (issue 27, item 2).

    DATABASE_URL=… .venv/bin/python bench/recall_tier_policy.py first-reports eval --cache FILE [--report B]
    DATABASE_URL=… .venv/bin/python bench/recall_tier_policy.py corpus path/to/jira-dev --cache FILE

The judgement (bot/recall/judgement.py, `Judgement.tiers`) decides the answer by its head: a
thread when one of the first five is strong (its probability reaches strong_from, or a rule makes
it strong), else a weak line when one of the first three reaches weak_from (or a rule; by the weak
model's probability and weak_from when the model has one, Judgement.weak, as the bot judges), else
nothing. What the answer then *holds* is the policy measured here: which of the first five
**follow** a strong head into the thread, and which of the first three the weak line **names**.
Whether anything is posted does not depend on it, so the target-absent rates (false threads,
anything shown) stay; what moves is how often the right memory is shown, and how many wrong
memories a responder reads beside it (a follower's precision: how often a memory that joined a
thread, or was named in a weak line, is the right one).

Each POLICY is judged on the same kept replay: the first reports (fitted on fold A, its thresholds
read off held-out organisations as bench/fit_recall_judgement.py does; in-sample on A, the tuning
signal; `--report B` prints fold B's totals for the model fitted on A, read once after the choice)
or any replay corpus with the shipped model (jira-dev: a regression check). `shipped` must equal
what the product does (checked on every recall). Fold B is only ever printed as totals.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.first_reports import build  # noqa: E402
from bench.fit_recall_judgement import fit  # noqa: E402
from bench.logistic_fit import L2  # noqa: E402
from bench.recall_signature_rule import Case as SignatureCase  # noqa: E402
from bench.recall_signature_rule import Shown, _shown, replay_kept  # noqa: E402
from bench.recall_signature_rule import judged as product_tiers  # noqa: E402
from bench.weak_line import fit_pair  # noqa: E402
from bot.models import RecallQuery  # noqa: E402
from bot.recall.judgement import BELOW, MAX_STRONG, MAX_WEAK, STRONG, WEAK, Judgement, load_judgement  # noqa: E402
from bot.recall.judgement_rules import rule_of  # noqa: E402
from bot.replay_report import CaseResult, ReplayCase  # noqa: E402
from bot.replay_tiers import tier_curve  # noqa: E402


@dataclass(frozen=True, slots=True)
class Case:
    rank: int | None
    fold: str | None
    org: str | None
    meaning: bool
    present: list[Shown]
    absent: list[Shown]


CODED = ("same status:", "same exit code:", "same error code:", "same errno:", "same signal:")
"""The reasons reasons.code_reason gives a memory sharing one of the query's codes (a status code)."""


def _coded(matches, relevant) -> list[Shown]:  # noqa: ANN001
    """The shown memories, each with `shares_code` among its components (measured here only)."""
    return [replace(s, components={**s.components, "shares_code": float(any(r.startswith(CODED) for r in m.reasons))})
            for s, m in zip(_shown(matches, relevant), matches, strict=True)]  # fmt: skip


def packed(r: CaseResult) -> Case:
    meaning = any(m.score_components.get("similarity") is not None for m in (*r.matches, *r.absent_matches))
    return Case(r.rank, r.case.flags.get("fold"), r.case.flags.get("org"), meaning,
                _coded(r.matches, r.case.relevant), _coded(r.absent_matches, r.case.relevant))  # fmt: skip


# ---- the policies ------------------------------------------------------------------------------

Follows = Callable[[float, float, str, float, float, Judgement], bool]
"""Whether a memory among the first five joins a posted thread: (its probability, relevance, the
tier a rule gives it, the head's probability and relevance, the judgement)."""


@dataclass(frozen=True, slots=True)
class Policy:
    follows: Follows
    names: Callable[[float, float, str, Judgement], bool] = lambda p, r, rule, j: True
    """Whether a memory among the first three is named in a weak line (the line is given anyway)."""


POLICIES: dict[str, Policy] = {
    "shipped (weak_from or the floor)": Policy(
        lambda p, r, rule, h, hr, j: p >= min(j.weak_from, j.strong_from) or r >= j.floor
    ),
    "all of the first five": Policy(lambda p, r, rule, h, hr, j: True),
    "the first three, then weak_from or the floor": Policy(lambda p, r, rule, h, hr, j: True),  # rank decided below
    "only strong ones": Policy(lambda p, r, rule, h, hr, j: p >= j.strong_from),
    "weak_from (no floor)": Policy(lambda p, r, rule, h, hr, j: p >= min(j.weak_from, j.strong_from)),
    "weak_from or a weak rule (no floor)": Policy(
        lambda p, r, rule, h, hr, j: p >= min(j.weak_from, j.strong_from) or rule != BELOW
    ),
    "weak_from, a weak rule or the floor": Policy(
        lambda p, r, rule, h, hr, j: p >= min(j.weak_from, j.strong_from) or r >= j.floor or rule != BELOW
    ),
    "the floor only": Policy(lambda p, r, rule, h, hr, j: r >= j.floor),
    "weak_from, a weak rule or relevance >= 0.35": Policy(
        lambda p, r, rule, h, hr, j: p >= min(j.weak_from, j.strong_from) or rule != BELOW or r >= 0.35
    ),
    "weak_from, a weak rule or relevance >= 0.45": Policy(
        lambda p, r, rule, h, hr, j: p >= min(j.weak_from, j.strong_from) or rule != BELOW or r >= 0.45
    ),
    "weak_from, a weak rule or half weak_from and the floor": Policy(
        lambda p, r, rule, h, hr, j: (
            p >= min(j.weak_from, j.strong_from) or rule != BELOW or (r >= j.floor and p >= 0.5 * j.weak_from)
        )
    ),
    **{
        f"weak_from, a rule, or the floor and {k / 10} of the head's relevance": Policy(
            lambda p, r, rule, h, hr, j, k=k: (
                p >= min(j.weak_from, j.strong_from) or rule != BELOW or (r >= j.floor and r >= k / 10 * hr)
            )
        )
        for k in range(3, 11)
    },
    "weak_from, a rule, or the floor and 0.7 of the head's relevance, a shared code or the own service": Policy(
        lambda p, r, rule, h, hr, j, shared=0.0: (
            p >= min(j.weak_from, j.strong_from) or rule != BELOW or (r >= j.floor and (r >= 0.7 * hr or shared > 0))
        )
    ),
    "weak_from, a rule, or the floor and 0.7 of the head's relevance or a shared code": Policy(
        lambda p, r, rule, h, hr, j, shared=0.0: (
            p >= min(j.weak_from, j.strong_from) or rule != BELOW or (r >= j.floor and (r >= 0.7 * hr or shared > 0))
        )
    ),
    "half the head's probability": Policy(lambda p, r, rule, h, hr, j: p >= 0.5 * h),
    "a quarter of the head's probability": Policy(lambda p, r, rule, h, hr, j: p >= 0.25 * h),
    "half of weak_from or the floor": Policy(lambda p, r, rule, h, hr, j: p >= 0.5 * j.weak_from or r >= j.floor),
    "weak line: only those at half weak_from or a rule": Policy(
        lambda p, r, rule, h, hr, j: p >= min(j.weak_from, j.strong_from) or r >= j.floor,
        lambda p, r, rule, j: p >= 0.5 * j.weak_from or rule != BELOW,
    ),
}
FIRST_THREE = "the first three, then weak_from or the floor"


def _shared(name: str, shown: Shown) -> dict[str, float]:
    """What a follower shares with the query besides words, for the policies that read it: one of
    its codes (a status code), or the incident's own service."""
    if "shared code" not in name:
        return {}
    service = shown.components.get("same_service", 0.0) if "own service" in name else 0.0
    return {"shared": max(shown.components.get("shares_code", 0.0), service)}


def policy_tiers(name: str, judge: Judgement, shown: list[Shown]) -> list[str]:
    """Judgement.tiers with the thread's followers and the weak line's names chosen by a policy."""
    policy = POLICIES[name]
    ps = [judge.probability(s.evidence) for s in shown]
    rs = [s.relevance for s in shown]
    rules = [rule_of(s.relevance, s.components, s.evidence)[0] for s in shown]
    deciding = [i for i in range(min(MAX_STRONG, len(shown))) if ps[i] >= judge.strong_from or rules[i] == STRONG
                or judge.sure(rs[i])]  # fmt: skip
    out = [BELOW] * len(shown)
    if deciding:
        head = max(ps[i] for i in deciding)
        head_relevance = max(rs[i] for i in deciding)
        for i in range(min(MAX_STRONG, len(shown))):
            if (
                i in deciding
                or policy.follows(ps[i], rs[i], rules[i], head, head_relevance, judge, **_shared(name, shown[i]))
                or (name == FIRST_THREE and i < MAX_WEAK)
            ):
                out[i] = STRONG
        return out
    # the weak line by the model's weak model when it has one (Judgement.weak), as bot/recall/pipeline.py reads it
    line, said = (
        (judge, ps) if judge.weak is None else (judge.weak, [judge.weak.probability(s.evidence) for s in shown])
    )
    if any(said[i] >= line.weak_from or rules[i] != BELOW for i in range(min(MAX_WEAK, len(shown)))):
        for i in range(min(MAX_WEAK, len(shown))):
            if said[i] >= line.weak_from or rules[i] != BELOW or policy.names(said[i], rs[i], rules[i], line):
                out[i] = WEAK
    return out


def figures(name: str, cases: list[tuple[Case, Judgement]]) -> dict[str, float]:
    """Right memory shown (strong among the first 5, weak among the first 3) and strong; with it
    removed, strong / anything shown; and what a responder reads: followers per thread and how often
    a follower is right, names per weak line and how often a name is right."""
    n = len(cases) or 1
    c = dict.fromkeys(("shown", "strong", "first", "first_shown", "first_strong", "absent_strong", "absent_shown",
                       "threads", "followers", "followers_right", "shown_by_following", "lines", "names",
                       "names_right", "absent_followers", "absent_names"), 0)  # fmt: skip
    for case, model in cases:
        judge = model.for_recall(case.meaning, [s.evidence for s in case.present])  # the model the pipeline picks
        tiers = policy_tiers(name, judge, case.present)
        ps = [judge.probability(s.evidence) for s in case.present]
        right = next((t for s, t in zip(case.present, tiers, strict=True) if s.right and t != BELOW), BELOW)
        c["shown"] += right != BELOW
        c["strong"] += right == STRONG
        c["first"] += case.rank == 1
        c["first_shown"] += case.rank == 1 and right != BELOW
        c["first_strong"] += case.rank == 1 and right == STRONG
        if STRONG in tiers:
            c["threads"] += 1
            rules = [rule_of(s.relevance, s.components, s.evidence)[0] for s in case.present]
            for i, (s, t) in enumerate(zip(case.present, tiers, strict=True)):
                deciding = ps[i] >= judge.strong_from or rules[i] == STRONG or judge.sure(s.relevance)
                if t == STRONG and not deciding:
                    c["followers"] += 1
                    c["followers_right"] += s.right
                    c["shown_by_following"] += s.right and not any(
                        o.right and ot == STRONG for j, (o, ot) in enumerate(zip(case.present, tiers, strict=True))
                        if j != i and (ps[j] >= judge.strong_from or rules[j] == STRONG))  # fmt: skip
        elif WEAK in tiers:
            c["lines"] += 1
            for s, t in zip(case.present, tiers, strict=True):
                if t == WEAK:
                    c["names"] += 1
                    c["names_right"] += s.right
        gone = policy_tiers(name, model.for_recall(case.meaning, [s.evidence for s in case.absent]), case.absent)
        c["absent_strong"] += STRONG in gone
        c["absent_shown"] += STRONG in gone or WEAK in gone
        if STRONG in gone:
            c["absent_followers"] += sum(t == STRONG for t in gone) - 1
        elif WEAK in gone:
            c["absent_names"] += sum(t == WEAK for t in gone)
    first = c["first"] or 1
    absent_threads, absent_lines = c["absent_strong"] or 1, (c["absent_shown"] - c["absent_strong"]) or 1
    return {
        "policy": name, "cases": len(cases), "right_shown": round(c["shown"] / n, 3),
        "right_strong": round(c["strong"] / n, 3), "first_shown": round(c["first_shown"] / first, 3),
        "first_strong": round(c["first_strong"] / first, 3), "absent_strong": round(c["absent_strong"] / n, 3),
        "absent_shown": round(c["absent_shown"] / n, 3),
        "threads": c["threads"], "followers": c["followers"], "followers_right": c["followers_right"],
        "followers_per_thread": round(c["followers"] / (c["threads"] or 1), 2),
        "follower_precision": round(c["followers_right"] / (c["followers"] or 1), 3),
        "shown_only_by_following": c["shown_by_following"],
        "names_per_line": round(c["names"] / (c["lines"] or 1), 2),
        "name_precision": round(c["names_right"] / (c["names"] or 1), 3),
        "false_thread_size": round(1 + c["absent_followers"] / absent_threads, 2),
        "false_line_names": round(c["absent_names"] / absent_lines, 2),
    }  # fmt: skip


def check_shipped(cases: list[tuple[Case, Judgement]]) -> None:
    """The bench's `shipped` policy is the product's (Judgement.tiers), recall for recall."""
    for case, model in cases:
        for shown in (case.present, case.absent):
            judge = model.for_recall(case.meaning, [s.evidence for s in shown])
            product = product_tiers(judge, shown, [judge.probability(s.evidence) for s in shown],
                                    [rule_of(s.relevance, s.components, s.evidence)[0] for s in shown])  # fmt: skip
            if product != policy_tiers(next(iter(POLICIES)), judge, shown):
                raise SystemExit("the bench's shipped policy is not Judgement.tiers: update POLICIES")


# ---- the corpora -------------------------------------------------------------------------------


class _Unpickler(pickle.Unpickler):
    """Reads bench/recall_signature_rule.py's kept replays too (its Case and Shown, pickled as __main__)."""

    def find_class(self, module: str, name: str):  # noqa: ANN201
        if module == "__main__" and name in ("Case", "Shown"):
            return {"Shown": Shown, "Case": SignatureCase}[name]
        return super().find_class(module, name)


def _plain(c: Case) -> tuple:
    return (c.rank, c.fold, c.org, c.meaning, *([(s.right, s.relevance, s.components, s.evidence) for s in side]
                                                for side in (c.present, c.absent)))  # fmt: skip


def _case(kept) -> Case:  # noqa: ANN001
    """A kept case: this bench's plain tuple, or recall_signature_rule.py's Case."""
    if isinstance(kept, tuple):
        rank, fold, org, meaning, present, absent = kept
        return Case(rank, fold, org, meaning, [Shown(*s) for s in present], [Shown(*s) for s in absent])
    shown = [
        [Shown(s.right, s.relevance, s.components, s.evidence) for s in side] for side in (kept.present, kept.absent)
    ]
    return Case(kept.rank, kept.fold, None, kept.meaning, *shown)


def replayed(corpus: Path, cache: Path | None) -> list[Case]:
    if cache and cache.exists():
        with cache.open("rb") as f:
            return [_case(c) for c in _Unpickler(f).load()]
    return replay_kept(corpus, cache, packed, lambda cases: [_plain(c) for c in cases])


def _results_of(cases: list[Case]) -> list[CaseResult]:
    """The cases as fit_recall_judgement.fit reads them (evidence, labels, organisation)."""
    from types import SimpleNamespace as NS

    def match(i: int, s: Shown, tag: str) -> NS:
        return NS(evidence=s.evidence, memory=NS(incident_id=f"{tag}{i}" + ("*" if s.right else "")),
                  relevance=s.relevance, score_components=s.components)  # fmt: skip

    out = []
    for k, c in enumerate(cases):
        present = [match(i, s, "p") for i, s in enumerate(c.present)]
        relevant = frozenset(m.memory.incident_id for m, s in zip(present, c.present, strict=True) if s.right)
        case = NS(id=str(k), relevant=relevant, flags={"org": c.org, "fold": c.fold})
        out.append(NS(case=case, matches=present, absent_matches=[match(i, s, "a") for i, s in enumerate(c.absent)],
                      rank=c.rank))  # fmt: skip
    return out  # type: ignore[return-value]


def fitted_as_shipped(cases: list[Case], label: str, shipped: Judgement) -> Judgement:
    """A fold's fit of the models the product judges these cases with (Judgement.for_query): on a
    replay with meaning the semantic model's features; without, the lexical model's and, beside
    it, the short-query model's (its features and switch), as bench/fit_recall_judgement.py fits them;
    each with its weak-line model (Judgement.weak) when the shipped one has it, as bench/weak_line.py fits
    the pair (fit_recall_judgement.py --weak-features)."""
    results = _results_of(cases)
    semantic = any(c.meaning for c in cases) and shipped.semantic is not None
    first = shipped.semantic if semantic and shipped.semantic is not None else shipped
    short = None if semantic else shipped.short
    names = tuple(first.coefficients)
    weak = tuple(first.weak.coefficients) if first.weak is not None else ()
    short_names = tuple(short.coefficients) if short is not None else ()
    short_weak = tuple(short.weak.coefficients) if short is not None and short.weak is not None else ()
    until = None if short is None else shipped.short_until
    if weak or short_weak:
        return fit_pair(results, label, names, weak, shipped.sure_from, L2, short=short_names, short_weak=short_weak,
                        short_until=until)  # fmt: skip
    return fit(results, label, names, shipped.sure_from, short=short_names, short_until=until)


def tier_curve_of(cases: list[Case], model: Judgement) -> list[dict[str, float]]:
    """The product's tier curve (bot/replay_tiers.py, what `replay --target-absent` prints) for
    these cases judged by `model` (a fold's fit, in or out of sample)."""
    results = []
    for k, c in enumerate(cases):

        def read(shown: list[Shown], meaning: bool = c.meaning) -> dict:
            judge = model.for_recall(meaning, [s.evidence for s in shown])
            return {"probabilities": tuple(judge.probability(s.evidence) for s in shown),
                    "rules": tuple(rule_of(s.relevance, s.components, s.evidence)[0] for s in shown),
                    "weak": None if judge.weak is None else tuple(judge.weak.probability(s.evidence) for s in shown)}  # fmt: skip

        present, absent = read(c.present), read(c.absent)
        ranked = tuple("right" if s.right else f"other{i}" for i, s in enumerate(c.present))
        results.append(CaseResult(
            ReplayCase(str(k), RecallQuery(team_id="T", title=str(k)), frozenset({"right"})), ranked, 0.0,
            relevances=tuple(s.relevance for s in c.present), absent=tuple(s.relevance for s in c.absent),
            probabilities=present["probabilities"], rules=present["rules"], meaning=c.meaning,
            absent_probabilities=absent["probabilities"], absent_rules=absent["rules"],
            weak_probabilities=present["weak"], absent_weak_probabilities=absent["weak"],
            query_phrases=c.present[0].evidence.get("query_phrases", math.inf) if c.present else math.inf,
        ))  # fmt: skip
    return tier_curve(results, model)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("first-reports", "corpus"))
    parser.add_argument("path", type=Path, help="the eval/ folder (first-reports) or a replay folder (corpus)")
    parser.add_argument("--cache", type=Path, help="keep the replay here (a pickle) and reuse it")
    parser.add_argument("--policy", action="append", help="only these policies (default: all)")
    parser.add_argument("--report", choices=("B",), help="first reports: fold B's totals under the fit on A")
    parser.add_argument("--curves", action="store_true", help="first reports: the tier curves of both fits, in and out")
    args = parser.parse_args()
    names = args.policy or list(POLICIES)
    if args.what == "corpus":
        cases = replayed(args.path, args.cache)
        judged = [(c, load_judgement()) for c in cases]
        check_shipped(judged)
        for name in names:
            print(json.dumps(figures(name, judged)))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        if not (args.cache and args.cache.exists()):
            build(args.path, Path(folder))
        cases = replayed(Path(folder), args.cache)
    shipped = load_judgement()
    if args.curves:  # totals along the curve, both swaps (fold B read as totals only)
        for train, test in (("A", "A"), ("A", "B"), ("B", "B"), ("B", "A")):
            fitted = fitted_as_shipped([c for c in cases if c.fold == train], train, shipped)
            curve = tier_curve_of([c for c in cases if c.fold == test], fitted.with_floor(shipped.floor))
            print(json.dumps({"fit_on": train, "reported_on": test, "strong_from": fitted.strong_from,
                              "weak_from": fitted.weak_from, "tier_curve": curve}))  # fmt: skip
        return 0
    model = fitted_as_shipped([c for c in cases if c.fold == "A"], "A", shipped)
    model = model.with_floor(shipped.floor)
    fold = "B" if args.report == "B" else "A"
    judged = [(c, model) for c in cases if c.fold == fold]
    check_shipped(judged)
    print(json.dumps({"fit_on": "A", "strong_from": model.strong_from, "weak_from": model.weak_from,
                      "reported_on": fold}))  # fmt: skip
    for name in names:
        print(json.dumps(figures(name, judged)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
