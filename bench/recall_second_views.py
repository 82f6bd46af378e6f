"""Second views of a pasted ticket's recall: does any tell jira-dev's silent right memories from their neighbours?
(issue 27, r27, sixteenth session)

    DATABASE_URL=… .venv/bin/python bench/recall_second_views.py path/to/jira-dev --cache .bench-data/views.pkl

jira-dev's right memory is shown for 0.640 of its cases against issue 27's 0.65; of the right memories hidden in
the first five, 37 sit at ranks 1-3 of long-query recalls that answer nothing, and no feature the judgement reads
tells them from the memories the same kind of recall offers with the right one removed (r27's AUCs, best 0.722:
docs/BENCHMARKS.md). This measures views of the same recall the judgement does not read, each an independent
second ranker of the same text:

- `title`: the query's title against the memory's title (tf-idf cosine over the bank's titles, symptoms, errors);
- `first`: the query's title and first sentence against the memory's opening (title, symptoms, error);
- `whole`: the whole query against the opening (a second ranker beside BM25: the cosine, not the score);
- `error`: the query's error text against the memory's (the idf share of the query's error terms it holds);
- `H1`, `H2`, `T`: the memory's rank (1-5; 6 when not among them) when the corpus is recalled again with each
  query cut to the first / the second half of its body's words (title out) or to its title alone: a right memory's
  lead should survive either half, a neighbour's come from one.

Each of the first five memories of every recall (target present and absent) gets each view's value, its rank
among the five and its lead over the best other of them. Printed (counts and AUCs only, no case named): the AUC
of each between the right memories in ranks 1-3 of long-query recalls that answer nothing and the first three of
the target-absent long-query recalls that answer nothing (the zone a weak-line rule would act in); the same for
the memories of ranks 2-5 a posted thread does not hold; and, per project half (bench/recall_by_project.py's
P1 / P2), the right memories and false lines a rule "first by the view and by the score, at k x the weak line"
would add. The texts are read in place; the cache keeps numbers only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import pickle
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.recall_by_project import halves  # noqa: E402
from bench.recall_signature_rule import Shown, _shown  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.memory.database import database_url, throwaway_database  # noqa: E402
from bot.memory.pool import create_pool  # noqa: E402
from bot.memory.postgres import PostgresMemoryStore  # noqa: E402
from bot.models import MemoryDraft, RecallQuery  # noqa: E402
from bot.recall.concepts import load_vocabulary  # noqa: E402
from bot.recall.judgement import BELOW, MAX_STRONG, MAX_WEAK, STRONG, WEAK, Judgement, load_judgement  # noqa: E402
from bot.recall.tokens import tokenize  # noqa: E402
from bot.replay import load_cases, load_memories, load_memories_into, recall_cases  # noqa: E402
from bot.replay_report import CaseResult, ReplayCase  # noqa: E402
from bot.services.recall import RecallService  # noqa: E402

FIRST_SENTENCE = re.compile(r"(?<=[.!?])\s|\n")


def _half(query: RecallQuery, second: bool) -> RecallQuery:
    words = " ".join(t for t in (query.text, query.error_message) if t).split()
    part = words[len(words) // 2 :] if second else words[: len(words) // 2]
    return query.model_copy(
        update={"title": None, "text": " ".join(part) or (query.title or ""), "error_message": None}
    )


QUERY_VIEWS: dict[str, Callable[[RecallQuery], RecallQuery]] = {
    "H1": lambda q: _half(q, False),
    "H2": lambda q: _half(q, True),
    "T": lambda q: q.model_copy(update={"text": "", "error_message": None}),
}
"""Each query recalled again, cut: the body's first half, its second half (title out), the title alone."""


@dataclass(frozen=True, slots=True)
class Viewed:
    shown: Shown
    views: dict[str, float]


@dataclass(frozen=True, slots=True)
class Case:
    project: str | None
    present: list[Viewed]
    absent: list[Viewed]
    tiers: tuple[tuple[str, ...], tuple[str, ...]]


class Idf:
    """tf-idf vectors over the bank's openings (title, symptoms, error)."""

    def __init__(self, memories: Sequence[MemoryDraft]) -> None:
        self.n = len(memories)
        self.df: Counter[str] = Counter()
        for m in memories:
            self.df.update(set(tokenize(m.title)) | set(tokenize(m.symptoms)) | set(tokenize(m.error_message)))

    def idf(self, term: str) -> float:
        return math.log((self.n + 1) / (self.df.get(term, 0) + 0.5))

    def vector(self, terms: Sequence[str]) -> dict[str, float]:
        v = {t: (1 + math.log(n)) * self.idf(t) for t, n in Counter(terms).items()}
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        return {t: x / norm for t, x in v.items()}

    def share(self, wanted: Sequence[str], held: Sequence[str]) -> float:
        total = sum(self.idf(t) for t in set(wanted))
        return sum(self.idf(t) for t in set(wanted) if t in set(held)) / total if total else 0.0


def _cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(x * b.get(t, 0.0) for t, x in a.items())


def text_views(idf: Idf, query: RecallQuery, memories: Sequence[MemoryDraft]) -> list[dict[str, float]]:
    """Each memory's text views against the query, with each view's rank among them and lead over the best other."""
    body = query.text or ""
    cut = FIRST_SENTENCE.search(body)
    title, error = tokenize(query.title), tokenize(query.error_message)
    q_title, q_first = idf.vector(title), idf.vector(title + tokenize(body[: cut.start()] if cut else body[:300]))
    q_whole = idf.vector(title + tokenize(body) + error)
    out = []
    for m in memories:
        opening = idf.vector(tokenize(m.title) + tokenize(m.symptoms) + tokenize(m.error_message))
        out.append({"title": _cosine(q_title, idf.vector(tokenize(m.title))), "first": _cosine(q_first, opening),
                    "whole": _cosine(q_whole, opening),
                    "error": idf.share(error, tokenize(m.error_message)) if error else 0.0})  # fmt: skip
    return ranked(out)


def ranked(rows: list[dict[str, float]]) -> list[dict[str, float]]:
    """Each view's rank among the rows (1 for the highest, ties sharing it) and lead over the best other row."""
    for name in list(rows[0]) if rows else []:
        values = [r[name] for r in rows]
        for i, r in enumerate(rows):
            r[f"{name}_rank"] = 1 + sum(v > values[i] for v in values)
            r[f"{name}_lead"] = values[i] - max((v for j, v in enumerate(values) if j != i), default=0.0)
    return rows


async def _replays(corpus: Path) -> tuple[list[MemoryDraft], list[CaseResult], dict[str, list[CaseResult]]]:
    """The corpus recalled as it is and once per QUERY_VIEWS (target present and absent), on one throwaway bank."""
    settings = Settings()
    memories, cases = load_memories(corpus), load_cases(corpus)
    async with throwaway_database(await database_url(settings), settings.migrations_dir, prefix="im_replay") as dsn:
        pool = await create_pool(dsn, max_size=2)
        try:
            store = PostgresMemoryStore(pool, vocabulary=load_vocabulary(settings.incident_memory_concepts_path))
            await load_memories_into(store, pool, memories, progress=sys.stderr.isatty())
            recall = RecallService(store)

            async def run(these: list[ReplayCase]) -> list[CaseResult]:
                report = await recall_cases(recall, these, progress=sys.stderr.isatty(), keep_matches=True,
                                            target_absent=True)  # fmt: skip
                return list(report.results)

            full = await run(cases)
            views = {name: await run([ReplayCase(c.id, cut(c.query), c.relevant, c.flags) for c in cases])
                     for name, cut in QUERY_VIEWS.items()}  # fmt: skip
        finally:
            await pool.close()
    return memories, full, views


def packed(corpus: Path) -> list[Case]:
    memories, full, views = asyncio.run(_replays(corpus))
    idf, by_id = Idf(memories), {m.incident_id: m for m in memories}
    again = {name: {r.case.id: r for r in results} for name, results in views.items()}
    out = []
    for r in full:
        sides = []
        for side, matches in (("present", r.matches), ("absent", r.absent_matches)):
            first = list(matches[:MAX_STRONG])
            rows = text_views(idf, r.case.query, [by_id[m.memory.incident_id] for m in first])
            for name, results in again.items():
                other = results[r.case.id]
                ids = [m.memory.incident_id for m in (other.matches if side == "present" else other.absent_matches)]
                for row, m in zip(rows, first, strict=True):
                    row[name] = float(ids[:MAX_STRONG].index(m.memory.incident_id) + 1
                                      if m.memory.incident_id in ids[:MAX_STRONG] else MAX_STRONG + 1)  # fmt: skip
            shown = _shown(first, r.case.relevant)
            sides.append([Viewed(s, row) for s, row in zip(shown, rows, strict=True)])
        out.append(Case(r.case.query.service, sides[0], sides[1], (tuple(r.tiers[:MAX_STRONG]), tuple(r.absent_tiers))))
    return out


def _judge(side: list[Viewed]) -> tuple[Judgement, Judgement]:
    """The shipped judgement and the model the pipeline picks for this recall (the long or the short one)."""
    judgement = load_judgement()
    return judgement, judgement.for_recall(False, [v.shown.evidence for v in side])


def zones(cases: Sequence[Case]) -> dict[str, tuple[list[dict[str, float]], list[dict[str, float]]]]:
    """(right, wrong) rows of two zones: `silent`, the first MAX_WEAK of long-query recalls that answer nothing (right:
    the target present's right memory; wrong: every one of the target-absent recall's); `unheld`, ranks 2-5 that a
    posted thread does not hold (right: a right memory; wrong: every other, target present or absent)."""
    silent: tuple[list, list] = ([], [])
    unheld: tuple[list, list] = ([], [])
    for c in cases:
        for side, kept in ((c.present, c.tiers[0]), (c.absent, c.tiers[1])):
            if not side:
                continue
            judgement, judge = _judge(side)
            line = judge.weak or judge
            for i, v in enumerate(side):
                row = {"rank": float(i + 1), "line_share": line.probability(v.shown.evidence) / line.weak_from,
                       **v.views, **{k: v.shown.components.get(k, 0.0) for k in ("title_overlap", "title_echo",
                                                                                  "recency")}}  # fmt: skip
                right = side is c.present and v.shown.right
                if STRONG in kept and i > 0 and kept[i] == BELOW:
                    unheld[0 if right else 1].append(row)
                elif not ({STRONG, WEAK} & set(kept)) and judge is not judgement.short and i < MAX_WEAK:
                    if right or side is c.absent:
                        silent[0 if right else 1].append(row)
    return {"silent": silent, "unheld": unheld}


LOW_IS_GOOD = ("rank", "H1", "H2", "T")


def aucs(right: list[dict[str, float]], wrong: list[dict[str, float]]) -> dict[str, float]:
    """Each number's AUC between right and wrong rows (a rank's read the other way: a low rank is good)."""
    out = {}
    for name in right[0] if right and wrong else []:
        sign = -1.0 if name in LOW_IS_GOOD or name.endswith("_rank") else 1.0
        pairs = [(sign * r[name], sign * w[name]) for r in right for w in wrong]
        out[name] = round(sum((a > b) + 0.5 * (a == b) for a, b in pairs) / len(pairs), 3)
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


Agree = Callable[[dict[str, float]], bool]
AGREE: dict[str, Agree] = {
    "first by title": lambda v: v["title_rank"] == 1 and v["title"] > 0,
    "first by title and first sentence": lambda v: v["title_rank"] == 1 and v["first_rank"] == 1 and v["title"] > 0,
    "first by the whole text's cosine": lambda v: v["whole_rank"] == 1,
    "first by both halves": lambda v: v["H1"] == 1 and v["H2"] == 1,
    "first by either half": lambda v: min(v["H1"], v["H2"]) == 1,
    "first by the title alone (recalled)": lambda v: v["T"] == 1,
    "first by both halves and the title": lambda v: v["H1"] == 1 and v["H2"] == 1 and v["T"] == 1,
    "first by the error text": lambda v: v["error_rank"] == 1 and v["error"] > 0,
}
"""A second view agreeing with the score's ranking: the memory the score ranks first is first by this view too."""


def rule_counts(cases: Sequence[Case], agree: Agree, k: float) -> tuple[int, int]:
    """(right memories shown, false lines added) by a rule giving a long query's first memory the weak line when the
    view agrees and its weak-line probability reaches k x the line, on recalls that answer nothing today."""
    gained = added = 0
    for c in cases:
        for side, kept in ((c.present, c.tiers[0]), (c.absent, c.tiers[1])):
            if not side or {STRONG, WEAK} & set(kept):
                continue
            judgement, judge = _judge(side)
            line = judge.weak or judge
            first = side[0]
            if judge is judgement.short or not agree(first.views):
                continue
            if line.probability(first.shown.evidence) < k * line.weak_from:
                continue
            if side is c.absent:
                added += 1
            else:
                gained += any(v.shown.right for v in side[:MAX_WEAK])
    return gained, added


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, help="a replay folder whose cases carry a service (jira-dev)")
    parser.add_argument("--cache", type=Path, help="keep the replays' numbers here (a pickle) and reuse them")
    args = parser.parse_args()
    if args.cache and args.cache.exists():
        cases = pickle.loads(args.cache.read_bytes())  # noqa: S301 (the bench's own file)
    else:
        cases = packed(args.corpus)
        if args.cache:
            args.cache.parent.mkdir(parents=True, exist_ok=True)
            args.cache.write_bytes(pickle.dumps(cases))
    for name, (right, wrong) in zones(cases).items():
        print(json.dumps({"zone": name, "right": len(right), "wrong": len(wrong), "auc": aucs(right, wrong)}))
    half = halves(args.corpus)
    for name, agree in AGREE.items():
        for k in (0.0, 0.3, 0.5, 0.7):
            counts = {h: rule_counts([c for c in cases if half.get(c.project or "") == h], agree, k)
                      for h in ("P1", "P2")}  # fmt: skip
            print(
                json.dumps(
                    {"rule": name, "k": k, **{h: {"shown": g, "false_lines": a} for h, (g, a) in counts.items()}}
                )
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
