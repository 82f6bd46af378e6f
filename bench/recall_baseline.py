"""Our recall against plain BM25 on the same replay, side by side, with the ratios.

The baseline is the naive one a team would try first: bm25s over title + symptoms + error, its
default tokenizer and English stopwords, one index over all memories, and for each case only the
memories no later than the case (the replay's own restriction). Our figures come from
`incident-memory replay` run in the same process, on a throwaway database.

    .venv/bin/python bench/recall_baseline.py CORPUS_DIR [--json]     # e.g. the jira-dev corpus

With --json it also gives Recall@k for k = 1…10 of both, which `incident-memory replay DIR --html
FILE --baseline THAT.json` draws side by side.

Needs the `bench` extra (bm25s). DATABASE_URL picks the server (default: the embedded one).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import bm25s
import numpy as np

from bot.config import Settings
from bot.replay import load_cases, run_replay
from bot.replay_report import TOP_K, Metrics, ReplayCase, percentile
from bot.report import recall_at_k

MIN_TIME = datetime.min.replace(tzinfo=UTC)


def _text(*parts: str | None) -> str:
    return "\n".join(p for p in parts if p)


def baseline(folder: Path, cases: list[ReplayCase]) -> tuple[list[int | None], list[float]]:
    raw = [
        json.loads(line)
        for line in (folder / "memories.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    ids = [str(m["id"]) for m in raw]
    when = np.array(
        [
            datetime.fromisoformat(m["occurred_at"].replace("Z", "+00:00")).timestamp()
            if m.get("occurred_at")
            else -np.inf
            for m in raw
        ]
    )
    corpus = [_text(m.get("title"), m.get("symptoms"), m.get("error_message")) for m in raw]
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(corpus, stopwords="en", show_progress=False), show_progress=False)
    vocab = retriever.vocab_dict
    ranks: list[int | None] = []
    latencies: list[float] = []
    for case in cases:
        q = case.query
        began = time.perf_counter()
        tokens = bm25s.tokenize(
            [_text(q.title, q.text, q.error_message)], stopwords="en", return_ids=False, show_progress=False
        )[0]
        tokens = [t for t in tokens if t in vocab]
        scores = retriever.get_scores(tokens) if tokens else np.zeros(len(ids))
        if q.occurred_before is not None:
            scores = np.where(when <= q.occurred_before.timestamp(), scores, -np.inf)
        top = np.argsort(-scores, kind="stable")[:TOP_K]
        ranked = [ids[i] for i in top if np.isfinite(scores[i]) and scores[i] > 0]
        latencies.append((time.perf_counter() - began) * 1000.0)
        ranks.append(next((i for i, m in enumerate(ranked, start=1) if m in case.relevant), None))
    return ranks, latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    cases = load_cases(args.folder)
    base_ranks, base_lat = baseline(args.folder, cases)
    ours = asyncio.run(run_replay(args.folder, Settings(), progress=sys.stderr.isatty()))
    ours_ranks = [r.rank for r in ours.results]
    rows = {}
    for label, subset in (("all", None), ("not near-identical", False)):
        keep = [i for i, c in enumerate(cases) if subset is None or c.flags.get("near_identical_text") == subset]
        if subset is not None and not any("near_identical_text" in c.flags for c in cases):
            continue
        b = Metrics.of([base_ranks[i] for i in keep])
        o = Metrics.of([ours_ranks[i] for i in keep])
        rows[label] = {
            "cases": o.cases,
            "baseline": {"recall_at_1": b.recall_at_1, "recall_at_5": b.recall_at_5, "mrr_at_10": b.mrr_at_10},
            "ours": {"recall_at_1": o.recall_at_1, "recall_at_5": o.recall_at_5, "mrr_at_10": o.mrr_at_10},
            "ratio": {
                k: round(getattr(o, k) / getattr(b, k), 3) if getattr(b, k) else None
                for k in ("recall_at_1", "recall_at_5", "mrr_at_10")
            },
        }
    latency = {
        "baseline_ms_p50": round(percentile(base_lat, 50), 2), "baseline_ms_p95": round(percentile(base_lat, 95), 2),
        "ours_ms_p50": ours.latency_ms_p50, "ours_ms_p95": ours.latency_ms_p95,
    }  # fmt: skip
    if args.json:  # recall_at_k: the curves `incident-memory replay --html --baseline` draws
        curves = {"baseline": recall_at_k(base_ranks, TOP_K), "ours": recall_at_k(ours_ranks, TOP_K)}
        print(json.dumps({"cases": len(cases), "recall_at_k": curves, "subsets": rows, "latency": latency}, indent=2))
        return 0
    for label, row in rows.items():
        print(f"{label} ({row['cases']} cases)      baseline   ours    ratio")
        for key, name in (("recall_at_1", "Recall@1"), ("recall_at_5", "Recall@5"), ("mrr_at_10", "MRR@10")):
            print(f"  {name:<10} {row['baseline'][key]:>20.3f} {row['ours'][key]:>7.3f} {row['ratio'][key]:>7.3f}×")
    print(f"latency ms  baseline p50 {latency['baseline_ms_p50']:.1f} p95 {latency['baseline_ms_p95']:.1f}"
          f"  ·  ours p50 {latency['ours_ms_p50']:.1f} p95 {latency['ours_ms_p95']:.1f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
