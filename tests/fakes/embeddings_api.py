"""A fake OpenAI-compatible embeddings endpoint on the loopback: deterministic, not a model.

Each word counts in one dimension: words of one `MEANINGS` group share a dimension (so
"sessions starved" and "connection slots saturated" point the same way without sharing a word),
any other word is hashed into the rest. Vectors are unit length. The server can fail on demand
(`fail_with` an HTTP status, `delay` seconds, or `stop()`), and it keeps every request it got.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

DIMENSIONS = 64
MEANING_WEIGHT = 8.0
"""A word of a group weighs as eight others: texts saying the same thing score ~0.9, as a real
model's near-duplicates do (the relevance floor reads cosines on that scale)."""
MEANINGS = [
    {"pool", "connection", "connections", "slots", "sessions"},
    {"exhausted", "saturated", "starved", "exhaustion"},
    {"disk", "volume", "filesystem", "inode", "inodes"},
    {"full", "space", "quota"},
]
_WORD = re.compile(r"[a-z]+")


def embed(text: str, *, dimensions: int = DIMENSIONS) -> list[float]:
    vector = [0.0] * dimensions
    for word in _WORD.findall(text.lower()):
        group = next((i for i, g in enumerate(MEANINGS) if word in g), None)
        if group is None:
            vector[
                len(MEANINGS) + int(hashlib.sha256(word.encode()).hexdigest(), 16) % (dimensions - len(MEANINGS))
            ] += 1.0
        else:
            vector[group] += MEANING_WEIGHT
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector] if any(vector) else [1.0 / math.sqrt(dimensions)] * dimensions


@dataclass
class FakeEmbeddingsApi:
    dimensions: int = DIMENSIONS
    fail_with: int | None = None
    delay: float = 0.0
    answer: Any = None
    """When set, returned as the JSON body instead of embeddings (malformed answers)."""
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    fail_after: int | None = None
    """Answer this many requests, then fail every later one with HTTP 503."""
    _runner: web.AppRunner | None = None
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def texts(self) -> list[str]:
        return [t for r in self.requests for t in r["input"]]

    async def _embeddings(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.requests.append(body)
        self.headers.append(dict(request.headers))
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.fail_with is not None:
            return web.json_response({"error": {"message": "failing on purpose"}}, status=self.fail_with)
        if self.fail_after is not None and len(self.requests) > self.fail_after:
            return web.json_response({"error": {"message": "overloaded"}}, status=503)
        if self.answer is not None:
            return web.json_response(self.answer)
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = [
            {"object": "embedding", "index": i, "embedding": embed(t, dimensions=self.dimensions)}
            for i, t in enumerate(texts)
        ]
        data.reverse()  # the index, not the order, says which text a vector belongs to
        return web.json_response({"object": "list", "model": body.get("model"), "data": data})

    async def start(self) -> FakeEmbeddingsApi:
        app = web.Application()
        app.router.add_post("/v1/embeddings", self._embeddings)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
