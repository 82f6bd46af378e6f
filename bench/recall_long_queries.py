"""Long queries and the recall judgement: does a fit by query length beat the echo rule? (issue 27)

    DATABASE_URL=… .venv/bin/python bench/recall_long_queries.py eval /tmp/jira-refilings \\
        path/to/jira-dev [--cache /tmp/long-cache] [--report-b]

Replays (lexical, target absent, on throwaway databases) the first reports (eval/, through
bench/first_reports.py), the long re-filings (bench/jira_refilings.py) and jira-dev, then compares
the shipped judgement (its model, and judgement_rules.ECHO_CLOSE's rule for a long query naming much of
a memory's opening) with a judgement by query length: queries of LONG_FROM distinct terms or more
are judged by a model fitted on the long queries of fold A of both corpora together (the first
reports' and the re-filings'), without the echo rule, its thresholds read off held-out
probabilities (each organisation or project judged by the model fitted on the others) at the rates
of LONG_RATES; shorter queries keep the shipped model. Needs the `bench` extra (numpy).

Printed, one JSON line each: the shipped judgement per corpus and fold; per feature set, the
length judgement with each re-filings project of fold A held out in turn (the whole procedure fitted
without it: the tuning signal), fitted on fold A and read on fold A (in-sample) and jira-dev (a
regression check whose curve earlier sessions read: partly in-sample); with --report-b, fold B's
totals (out of sample) and the swap. Last, jira-dev's own ceiling: a model fitted on jira-dev
itself with its two thresholds swept on it (in-sample: the most these features can do there).
`--cache DIR` keeps each corpus's replay (what the judgement reads of it) for reruns.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pickle
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import logistic_fit  # noqa: E402
from bench.first_reports import build  # noqa: E402
from bench.fit_recall_judgement import deal, read_thresholds  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.recall.judgement import BELOW, STRONG, WEAK, Judgement, load_judgement  # noqa: E402
from bot.recall.judgement_rules import by_rule  # noqa: E402
from bot.recall.tokens import tokenize  # noqa: E402
from bot.replay import run_replay  # noqa: E402
from bot.replay_report import CaseResult  # noqa: E402

LONG_FROM = 40
"""Distinct terms from which a query is long: the first reports' 95th percentile is 28-35, the
re-filings' median 46, jira-dev's 39."""
LONG_RATES = (0.45, 0.60)
"""Target-absent rates (thread, anything shown) the long queries' thresholds are read at: the
issue's targets for jira-dev (≤ 0.50, ≤ 0.70) less the margins the first reports' fit keeps under
theirs (0.15 / 0.40 under 0.20 / 0.50)."""
PAIR = ("head", "head_standout")
WIDE = (*PAIR, "echo_standout", "score_z", "head_echo", "relevance", "standout", "title_echo", "coverage",
        "score_lead", "lead")  # fmt: skip
SIGNALS = ("head_echo", "title_echo", "coverage")
"""Signals (score_components) a model here may read beside features.FEATURES."""
L2 = 1.0
CEILING = (0.70, 0.50)
"""jira-dev's targets with the right memory removed: anything shown, thread."""


@dataclass(frozen=True, slots=True)
class Candidate:
    x: dict[str, float]
    relevance: float
    rule: str
    """by_rule's tier with the echo rule."""
    plain: str
    """by_rule's tier without it."""
    right: bool


@dataclass(frozen=True, slots=True)
class Case:
    fold: str | None
    org: str
    terms: int
    rank: int | None
    present: list[Candidate]
    absent: list[Candidate]
    meaning: bool = False
    """Recalled with meaning (the semantic model judges it)."""


def _candidates(matches, relevant) -> list[Candidate]:  # noqa: ANN001
    out = []
    for m in matches:
        x = dict(m.evidence) | {k: float(m.score_components.get(k, 0.0)) for k in SIGNALS}
        plain = by_rule(m.relevance, m.score_components, {**m.evidence, "echo_standout": 0.0})
        out.append(Candidate(x, m.relevance, by_rule(m.relevance, m.score_components, m.evidence), plain,
                             m.memory.incident_id in relevant))  # fmt: skip
    return out


def packed(r: CaseResult) -> Case:
    q = r.case.query
    terms = len(set(tokenize(" ".join(p for p in (q.title, q.text, q.error_message) if p))))
    meaning = any(m.score_components.get("similarity") is not None for m in (*r.matches, *r.absent_matches))
    return Case(r.case.flags.get("fold"), str(r.case.flags.get("org") or r.case.id), terms, r.rank,
                _candidates(r.matches, r.case.relevant), _candidates(r.absent_matches, r.case.relevant),
                meaning)  # fmt: skip


def replayed(source: Path, cache: Path | None, name: str) -> list[Case]:
    kept = cache / f"{name}.pickle" if cache else None
    if kept and kept.exists():
        return pickle.loads(kept.read_bytes())
    with tempfile.TemporaryDirectory() as folder:
        corpus = source
        if (source / "first-reports").is_dir():  # the eval/ folder
            corpus = Path(folder)
            build(source, corpus)
        report = asyncio.run(run_replay(corpus, Settings(), progress=sys.stderr.isatty(), keep_matches=True,
                                        target_absent=True))  # fmt: skip
    cases = [packed(r) for r in report.results]
    if kept:
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_bytes(pickle.dumps(cases))
    return cases


@dataclass(frozen=True, slots=True)
class ByLength:
    """The shipped judgement for short queries (with its echo rule; the model the pipeline picks:
    semantic, short-query or lexical), `long` for the long ones."""

    short: Judgement
    long: Judgement | None = None

    def tiers(self, candidates: list[Candidate], terms: int, meaning: bool = False) -> list[str]:
        judgement, long = (self.long, True) if self.long is not None and terms >= LONG_FROM else (self.short, False)
        if not long:
            judgement = judgement.for_recall(meaning, [c.x for c in candidates])
        return judgement.tiers([judgement.probability(c.x) for c in candidates], [c.relevance for c in candidates],
                               [c.plain if long else c.rule for c in candidates])  # fmt: skip


def evaluate(judge: ByLength, cases: list[Case]) -> dict[str, float]:
    """Issue 27's figures: right ranked first shown / strong, right shown (jira-dev's), removed."""
    n = len(cases) or 1
    first = first_shown = first_strong = shown = absent_strong = absent_shown = 0
    for c in cases:
        tiers = judge.tiers(c.present, c.terms, c.meaning)
        right = next((t for m, t in zip(c.present, tiers, strict=True) if m.right and t != BELOW), BELOW)
        shown += right != BELOW
        if c.rank == 1:
            first += 1
            first_shown += right != BELOW
            first_strong += right == STRONG
        absent = judge.tiers(c.absent, c.terms, c.meaning)
        absent_strong += STRONG in absent
        absent_shown += STRONG in absent or WEAK in absent
    return {"cases": len(cases), "long": sum(c.terms >= LONG_FROM for c in cases),
            "first_shown": round(first_shown / (first or 1), 3), "first_strong": round(first_strong / (first or 1), 3),
            "right_shown": round(shown / n, 3), "absent_strong": round(absent_strong / n, 3),
            "absent_shown": round(absent_shown / n, 3)}  # fmt: skip


def fit_logistic(cases: list[Case], names: tuple[str, ...]) -> Judgement:
    """The judgement's logistic fit (bench/logistic_fit.py, at this bench's L2), every candidate of both recalls
    a row; thresholds left out of reach (set by fit_long or swept)."""
    rows = [([c.x[n] for n in names], int(c.right)) for case in cases for c in (*case.present, *case.absent)]
    weights, intercept = logistic_fit.fit_logistic(rows, l2=L2)
    return Judgement(
        {n: round(float(w), 4) for n, w in zip(names, weights, strict=True)}, round(intercept, 4), 2.0, 2.0
    )


def fit_long(cases: list[Case], names: tuple[str, ...], rates: tuple[float, float] = LONG_RATES) -> Judgement:
    """The long queries' model and its thresholds: read, as fit_recall_judgement.thresholds does,
    off the probabilities each organisation's target-absent recalls get from the model fitted on
    the others, at `rates` (thread, anything shown)."""
    long = [c for c in cases if c.terms >= LONG_FROM]
    posts, shows = [], []
    dealt = deal(long, lambda c: c.org)
    for group in dealt:
        model = fit_logistic([c for other in dealt if other is not group for c in other], names)
        for c in group:
            found = [model.probability(m.x) for m in c.absent]
            ruled = model.tiers(found, [m.relevance for m in c.absent], [m.plain for m in c.absent])
            posts.append(1.0 if STRONG in ruled else max(found[:5], default=0.0))
            shows.append(1.0 if WEAK in ruled else max(found[:3], default=0.0))
    strong_from, weak_from = read_thresholds(posts, shows, *rates)
    model = fit_logistic(long, names)
    return Judgement(model.coefficients, model.intercept, strong_from, weak_from)


GRID = [(s, w) for s in (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6)
        for w in (0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.12, 0.15, 0.2) if w <= s]  # fmt: skip


def _swept(cases: list[Case], names: tuple[str, ...]) -> list[tuple[int, int, int, float, float]]:
    """(right shown, removed: thread, anything shown) counted for each threshold pair of GRID, the
    model fitted on these cases."""
    model = fit_logistic(cases, names)
    out = []
    for strong_from, weak_from in GRID:
        e = evaluate(ByLength(Judgement(model.coefficients, model.intercept, strong_from, weak_from)), cases)
        n = len(cases)
        out.append((round(e["right_shown"] * n), round(e["absent_strong"] * n), round(e["absent_shown"] * n),
                    strong_from, weak_from))  # fmt: skip
    return out


def ceiling(cases: list[Case], names: tuple[str, ...]) -> dict[str, object]:
    """The most right memories shown that models fitted on these cases reach with their thresholds
    swept on them, with the right memory removed at most CEILING (in-sample: an upper bound): one
    model for all, and one per length (short, long) with each one's thresholds swept."""
    n = len(cases)

    def fits(shown: int, strong: int, anything: int) -> bool:
        return anything <= CEILING[0] * n and strong <= CEILING[1] * n

    one = max((p for p in _swept(cases, names) if fits(*p[:3])), default=None)
    short = _swept([c for c in cases if c.terms < LONG_FROM], names)
    long = _swept([c for c in cases if c.terms >= LONG_FROM], names)
    pairs = [(a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3:], b[3:]) for a in short for b in long]
    two = max((p for p in pairs if fits(*p[:3])), default=None)

    def said(p: tuple | None) -> dict[str, object] | None:
        return None if p is None else {"right_shown": round(p[0] / n, 3), "absent_strong": round(p[1] / n, 3),
                                       "absent_shown": round(p[2] / n, 3), "thresholds": p[3:]}  # fmt: skip

    return {"one model": said(one), "by length": said(two)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir", type=Path, help="the eval/ folder (its first reports)")
    parser.add_argument("refilings", type=Path, help="bench/jira_refilings.py's replay folder")
    parser.add_argument("jira_dev", type=Path, help="the jira-dev replay folder (a regression check)")
    parser.add_argument("--cache", type=Path, help="keep each corpus's replay here for reruns")
    parser.add_argument("--report-b", action="store_true", help="also fold B's totals (after choosing on A)")
    args = parser.parse_args()
    first = replayed(args.eval_dir, args.cache, "first-reports")
    refiled = replayed(args.refilings, args.cache, "refilings")
    jira = replayed(args.jira_dev, args.cache, "jira-dev")
    shipped = ByLength(load_judgement())
    folds = ("A", "B") if args.report_b else ("A",)
    corpora = {f"{name} {f}": [c for c in cases if c.fold == f] for f in folds
               for name, cases in (("first reports", first), ("re-filings", refiled))}  # fmt: skip
    corpora["jira-dev"] = jira
    print(json.dumps({"judgement": "shipped", **{k: evaluate(shipped, v) for k, v in corpora.items()}}))
    for names in (PAIR, WIDE):
        tuning = [c for c in refiled if c.fold == "A"]
        held = []  # each re-filings project of fold A judged by the procedure fitted without it
        for project in sorted({c.org for c in tuning}):
            train = [c for c in first if c.fold == "A"] + [c for c in tuning if c.org != project]
            held.append(
                evaluate(ByLength(shipped.short, fit_long(train, names)), [c for c in tuning if c.org == project])
            )
        nested = {k: round(sum(h[k] * h["cases"] for h in held) / len(tuning), 3)
                  for k in ("right_shown", "absent_strong", "absent_shown")}  # fmt: skip
        out: dict[str, object] = {"judgement": f"by length from {LONG_FROM} terms", "features": list(names),
                                  "re-filings A, each project held out": nested}  # fmt: skip
        for fit_on in folds:
            long = fit_long([c for c in (*first, *refiled) if c.fold == fit_on], names)
            judge = ByLength(shipped.short, long)
            out[f"fit on {fit_on}"] = {"model": long.as_json(), **{k: evaluate(judge, v) for k, v in corpora.items()}}
        print(json.dumps(out))
    for names in (PAIR, ("head", "head_standout", "echo_standout"), WIDE):
        print(json.dumps({"ceiling": "jira-dev, fitted and swept on itself", "features": list(names),
                          **ceiling(jira, names)}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
