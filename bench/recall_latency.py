"""Recall latency and retain throughput at 10k, 100k and 1M synthetic incident memories.

The text is generated here (no corpus text is copied): services, mechanisms, error lines with
fresh ids, and free text drawn from a Zipf-distributed vocabulary so that term frequencies look
like real writing. Memories are bulk-loaded with COPY (terms, df and signals computed in Python
in batches), postings are derived in batches, then:

- recall: QUERIES queries (each a reworded sighting of a random memory: title words, part of the
  symptoms, the same error with other ids), one warm-up pass, then p50/p95/p99 over one pass;
- retain: memories per second through `retain` (the Slack path, one per transaction), through
  the bulk loader, and through postings derivation.

    .venv/bin/python bench/recall_latency.py --sizes 10000 100000 [--keep]
    nohup nice .venv/bin/python bench/recall_latency.py --sizes 1000000 > bench-1m.log 2>&1 &

DATABASE_URL names the server (default: the local PostgreSQL at 127.0.0.1); each size gets its
own database `im_bench_<n>`, dropped afterwards unless --keep (a kept one is reused).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta

import asyncpg
import numpy as np

from bot.config import PROJECT_ROOT
from bot.memory.bulk import retain_many
from bot.memory.migrate import apply_migrations
from bot.memory.pool import create_pool
from bot.memory.postgres import PostgresMemoryStore
from bot.memory.postings import derive_postings
from bot.models import MemoryDraft, RecallQuery
from bot.replay_report import percentile
from bot.services.recall import RecallService

TEAM = "bench"
QUERIES = 200
BATCH = 5000
SEED = 7

MECHANISMS = [
    ("connection pool exhausted", "Connection is not available, request timed out after {n}ms"),
    ("pods OOMKilled", "Last State: Terminated Reason: OOMKilled Exit Code: 137 pod {pod}"),
    ("disk full on {host}", "write /var/lib/{word}/{hex}.log: no space left on device"),
    ("certificate expired", "x509: certificate has expired or is not yet valid: host {host}"),
    ("DNS lookups failing", "dial tcp: lookup {host} on {ip}:53: no such host"),
    ("throttled by {word} API", "HTTP 429 Too Many Requests: rate limit exceeded for key {hex}"),
    (
        "deadlock between writers",
        "ERROR: deadlock detected DETAIL: Process {n} waits for ShareLock on transaction {n2}",
    ),
    ("too many open files", "accept tcp {ip}:{port}: accept4: too many open files"),
    ("replica lag", "replica lag {n}s on {host}"),
    ("consumer lag growing", "consumer group {word}-consumer lag={n} partition={port}"),
    ("crash loop after deploy", "Back-off restarting failed container {word} in pod {pod}"),
    ("latency spike", "upstream timed out ({n}: Connection timed out) while reading response header from {ip}"),
    (
        "NullPointerException in {cls}",
        "java.lang.NullPointerException at com.acme.{word}.{cls}.handle({cls}.java:{port})",
    ),
    ("{cls} fails to start", "IllegalStateException: {cls} not initialised in {word} context {hex}"),
]


def _word(rng: random.Random) -> str:
    return "".join(rng.choice("bcdfghklmnprstvz") + rng.choice("aeiou") for _ in range(rng.randint(2, 4)))


class Generator:
    def __init__(self, seed: int = SEED) -> None:
        self.rng = random.Random(seed)
        self.np = np.random.default_rng(seed)
        self.vocab = list(dict.fromkeys(_word(self.rng) for _ in range(60_000)))
        self.services = [f"{_word(self.rng)}-svc" for _ in range(120)]
        self.classes = ["".join(_word(self.rng).capitalize() for _ in range(2)) for _ in range(3000)]
        self.start = datetime(2020, 1, 1, tzinfo=UTC)

    def _zipf(self, n: int) -> str:
        idx = np.minimum(self.np.zipf(1.15, n), len(self.vocab)) - 1
        return " ".join(self.vocab[i] for i in idx)

    def _fill(self, template: str) -> str:
        r = self.rng
        return template.format(
            n=r.randint(10, 99999), n2=r.randint(10, 99999), port=r.randint(1000, 65000),
            hex="".join(r.choice("0123456789abcdef") for _ in range(12)),
            ip=".".join(str(r.randint(1, 254)) for _ in range(4)),
            host=f"{_word(r)}-{r.randint(1, 40)}.internal", pod=f"{_word(r)}-{r.randint(1000, 9999)}",
            word=r.choice(self.vocab[:3000]), cls=r.choice(self.classes),
        )  # fmt: skip

    def memory(self, i: int) -> MemoryDraft:
        r = self.rng
        mechanism, error = r.choice(MECHANISMS)
        service = r.choice(self.services)
        return MemoryDraft(
            incident_id=f"B-{i}", team_id=TEAM, service=service, severity=r.choice(["SEV1", "SEV2", "SEV3"]),
            title=f"{service}: {self._fill(mechanism)} {self._zipf(3)}",
            symptoms=self._zipf(r.randint(40, 160)), error_message=self._fill(error),
            root_cause=self._zipf(r.randint(10, 30)), resolution=self._zipf(r.randint(5, 20)),
            truth_state="human_confirmed", verified_by="bench",
            occurred_at=self.start + timedelta(minutes=7 * i),
        )  # fmt: skip

    def query_for(self, memory: MemoryDraft) -> RecallQuery:
        words = (memory.symptoms or "").split()
        self.rng.shuffle(words)
        title = " ".join(w for w in memory.title.split() if self.rng.random() < 0.7)
        return RecallQuery(
            team_id=TEAM, title=title or memory.title, service=memory.service,
            text=" ".join(words[: 30]) + " " + self._zipf(10), error_message=memory.error_message,
        )  # fmt: skip


def _dsn(base: str, name: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    return urlunsplit(urlsplit(base)._replace(path="/" + name))


def log(*parts: object) -> None:
    print(f"[{datetime.now():%H:%M:%S}]", *parts, file=sys.stderr, flush=True)


async def bench_size(base: str, n: int, keep: bool) -> dict[str, object]:
    name = f"im_bench_{n}"
    admin = await asyncpg.connect(base)
    exists = await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name)
    if not (exists and keep):
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    dsn = _dsn(base, name)
    conn = await asyncpg.connect(dsn)
    await apply_migrations(conn, PROJECT_ROOT / "migrations")
    await conn.close()
    pool = await create_pool(dsn, max_size=2)
    store = PostgresMemoryStore(pool)
    gen = Generator()
    result: dict[str, object] = {"memories": n}
    # loading and maintenance on a connection of its own: no 30 s statement timeout there
    conn = await asyncpg.connect(dsn)
    try:
        have = await conn.fetchval("SELECT count(*) FROM memories WHERE team_id = $1", TEAM)
        t0 = time.perf_counter()
        for start in range(0, n, BATCH):
            drafts = [gen.memory(i) for i in range(start, min(n, start + BATCH))]
            if start + len(drafts) > have:
                await retain_many(conn, drafts, store.vocabulary)
            if start % (BATCH * 20) == 0:
                log(f"{n}: loaded {start + len(drafts)}")
        load_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        initial = await conn.fetchval("SELECT max_pk = 0 FROM recall_postings_state")
        if initial and n >= 1_000_000:
            # an initial import: build the impact index once at the end instead of inserting
            # tens of millions of rows into it (what `derive_postings` alone does at any size)
            await conn.execute("DROP INDEX IF EXISTS recall_postings_by_impact")
        derived = await derive_postings(conn)
        if initial and n >= 1_000_000:
            await conn.execute("SET maintenance_work_mem = '1GB'")
            await conn.execute(
                "CREATE INDEX recall_postings_by_impact ON recall_postings (team_id, term, impact DESC) INCLUDE (memory_pk, occurred_at)"
            )
        derive_s = time.perf_counter() - t0
        log(f"{n}: derived postings for {derived} memories in {derive_s:.0f}s")
        await conn.execute("VACUUM ANALYZE memories")
        await conn.execute("VACUUM ANALYZE recall_postings")
        await conn.execute("ANALYZE term_stats")
        sizes = await conn.fetchrow(
            """SELECT pg_total_relation_size('memories') AS memories, pg_total_relation_size('recall_postings') AS postings,
                      pg_database_size(current_database()) AS db"""
        )
    finally:
        await conn.close()
    if have < n:
        result["bulk_load_per_s"] = round((n - have) / load_s)
    if derived:
        result["derive_postings_per_s"] = round(derived / derive_s)
    result["size_mb"] = {k: round(v / 2**20) for k, v in dict(sizes).items()}

    rng = random.Random(SEED + 1)
    targets = [rng.randrange(n) for _ in range(QUERIES)]
    regen = Generator()
    # regenerate the drafts the queries reword (same seed → same text), without keeping n drafts
    wanted, drafts_by_i = set(targets), {}
    for i in range(max(targets) + 1):
        d = regen.memory(i)
        if i in wanted:
            drafts_by_i[i] = d
    queries = [(f"B-{i}", gen.query_for(drafts_by_i[i])) for i in targets]
    recall = RecallService(store)
    for _, q in queries[:50]:  # warm-up
        await recall.recall(q)
    latencies, hits = [], 0
    for source, q in queries:
        t0 = time.perf_counter()
        matches = await recall.recall(q.model_copy(update={"limit": 10}))
        latencies.append((time.perf_counter() - t0) * 1000)
        hits += source in [m.memory.incident_id for m in matches]
    result["recall_ms"] = {p: round(percentile(latencies, q), 1) for p, q in (("p50", 50), ("p95", 95), ("p99", 99))}
    result["source_in_top10"] = round(hits / len(queries), 3)

    # the Slack path: one memory per transaction, postings left to the next derivation
    singles = [gen.memory(n + 10_000_000 + i) for i in range(200)]
    t0 = time.perf_counter()
    for d in singles:
        await store.retain(d)
    result["retain_one_per_s"] = round(len(singles) / (time.perf_counter() - t0))
    await pool.close()
    if not keep:
        admin = await asyncpg.connect(base)
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
    return result


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--keep", action="store_true", help="keep (and reuse) the loaded databases")
    args = parser.parse_args()
    base = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    for n in args.sizes:
        log(f"size {n}")
        print(json.dumps(await bench_size(base, n, args.keep)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
