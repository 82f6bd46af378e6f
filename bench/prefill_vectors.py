"""Fill bench/embeddings_server.py's vector cache for a replay corpus ahead of a bench, in large batches.

    HF_HUB_OFFLINE=1 nice -n 5 .venv/bin/python bench/embeddings_server.py --cache .bench-data/emb.sqlite &
    nice -n 5 .venv/bin/python bench/prefill_vectors.py path/to/jira-dev [eval --first-reports] [--batch 256]

A replay with semantic recall embeds memories 16 to a request and each query alone, under a
query timeout: on a loaded host a query that misses the cache can time out, and recall then
falls back to lexical for that case and the cooldown after it, silently changing the figures.
This posts the very texts a replay embeds (bot.recall.meaning.memory_text and opening_text of every
memory, query_text of every case; the memories' sentences only when the shipped judgement reads them,
as the replay does, or with --sentences for a fit that will) once, in large batches, so the replay that
follows only reads the cache. Prints texts per minute of model time and of wall time (what the host gave
the model), and at the end the model seconds the endpoint reported in all.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.first_reports import build  # noqa: E402
from bot.embeddings.openai_http import endpoint_url  # noqa: E402
from bot.recall.judgement import load_judgement  # noqa: E402
from bot.recall.meaning import memory_text, opening_text, query_text, sentences  # noqa: E402
from bot.replay import load_cases, load_memories  # noqa: E402

MODEL = "all-MiniLM-L6-v2"


def texts_of(folder: Path, with_sentences: bool = True) -> list[str]:
    """Every text a semantic replay of this folder embeds (memory texts, openings, with_sentences their
    sentences, then query texts), once each."""
    memories = load_memories(folder)
    texts = [memory_text(m) for m in memories] + [opening_text(m) for m in memories]
    texts += [s for m in memories for s in sentences(m)] if with_sentences else []
    texts += [query_text(c.query) for c in load_cases(folder)]
    return list(dict.fromkeys(t for t in texts if t))


async def prefill(url: str, texts: list[str], batch: int) -> float:
    """Post the texts; the model seconds the endpoint reported (X-Model-Seconds) in all."""
    began = time.perf_counter()
    model_s = computed = 0.0
    async with aiohttp.ClientSession() as session:
        for start in range(0, len(texts), batch):
            chunk = texts[start : start + batch]
            async with session.post(
                endpoint_url(url), json={"model": MODEL, "input": chunk}, timeout=aiohttp.ClientTimeout(total=3600)
            ) as response:
                response.raise_for_status()
                await response.read()
                model_s += float(response.headers.get("X-Model-Seconds", "0"))
                computed += int(response.headers.get("X-Computed", len(chunk)))
            wall = time.perf_counter() - began
            print(
                f"{start + len(chunk)}/{len(texts)} texts, {computed:.0f} computed: "
                f"{60 * computed / max(model_s, 1e-9):.0f}/min of model time, {60 * computed / wall:.0f}/min of wall time",
                flush=True,
            )
    return model_s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+", help="replay folders (or eval/ with --first-reports)")
    parser.add_argument("--first-reports", action="store_true", help="the folders are eval/: their first reports")
    parser.add_argument("--url", default="http://127.0.0.1:8089/v1")
    parser.add_argument("--batch", type=int, default=256, help="texts per request")
    parser.add_argument("--sentences", action=argparse.BooleanOptionalAction, default=None,
                        help="post the memories' sentences (default: when the shipped judgement reads them)")  # fmt: skip
    args = parser.parse_args()
    with_sentences = load_judgement().reads_sentences() if args.sentences is None else args.sentences
    texts: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        for i, folder in enumerate(args.folders):
            if args.first_reports:
                built = Path(scratch) / str(i)
                build(folder, built)
                folder = built
            texts += texts_of(folder, with_sentences)
    texts = list(dict.fromkeys(texts))
    print(
        f"{len(texts)} distinct texts ({'with' if with_sentences else 'without'} the memories' sentences)", flush=True
    )
    model_s = asyncio.run(prefill(args.url, texts, args.batch))
    print(f"model time {model_s:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
