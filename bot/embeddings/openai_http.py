"""The embeddings adapter for an OpenAI-compatible `POST /v1/embeddings` endpoint: what OpenAI,
a self-hosted text-embeddings server, Ollama and vLLM expose.

Request `{"model": M, "input": [texts]}`; answer `{"data": [{"index": i, "embedding": [...]}]}`.
Whatever goes wrong comes out as EmbeddingsUnavailable with a short reason, never as an
aiohttp error: recall then answers lexically.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import aiohttp

from bot.embeddings.port import EmbeddingsUnavailable

DEFAULT_TIMEOUT_S = 30.0
MAX_BATCH = 64
"""Texts per request: hosted providers cap a request's inputs; small batches also keep a local
server responsive to recall while a backfill runs."""


def endpoint_url(base: str) -> str:
    """EMBEDDINGS_URL may be the API base (`http://host:8080/v1`) or the endpoint itself."""
    base = base.rstrip("/")
    return base if base.endswith("/embeddings") else base + "/embeddings"


class OpenAIEmbeddings:
    def __init__(self, url: str, model: str, *, api_key: str | None = None, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self._url = endpoint_url(url)
        self._model = model
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def model(self) -> str:
        return self._model

    def __repr__(self) -> str:  # never the key
        return f"OpenAIEmbeddings({self._url!r}, model={self._model!r})"

    async def embed(self, texts: Sequence[str], *, timeout: float | None = None) -> list[list[float]]:
        out: list[list[float]] = []
        for start in range(0, len(texts), MAX_BATCH):
            out += await self._request(list(texts[start : start + MAX_BATCH]), timeout or self._timeout)
        if out and any(len(v) != len(out[0]) for v in out):
            raise EmbeddingsUnavailable("bad_answer", "vectors of different dimensions")
        return out

    async def _request(self, texts: list[str], timeout: float) -> list[list[float]]:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
        try:
            async with self._session.post(
                self._url,
                json={"model": self._model, "input": texts},
                headers=self._headers,
                timeout=aiohttp.ClientTimeout(total=timeout),
            ) as response:
                if response.status >= 400:
                    body = (await response.text())[:200]
                    raise EmbeddingsUnavailable("refused", f"HTTP {response.status}: {body}")
                payload = await response.json(content_type=None)
        except TimeoutError as exc:
            raise EmbeddingsUnavailable("timeout", f"no answer within {timeout:g} s") from exc
        except aiohttp.ClientError as exc:
            raise EmbeddingsUnavailable("down", str(exc) or type(exc).__name__) from exc
        except ValueError as exc:  # not JSON
            raise EmbeddingsUnavailable("bad_answer", f"not JSON: {exc}") from exc
        return _vectors(payload, len(texts))

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()


def _vectors(payload: Any, expected: int) -> list[list[float]]:
    data = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(data, list) or len(data) != expected:
        raise EmbeddingsUnavailable("bad_answer", f"expected {expected} embeddings in `data`")
    ordered: list[list[float] | None] = [None] * expected
    for position, item in enumerate(data):
        index = item.get("index", position) if isinstance(item, dict) else None
        vector = item.get("embedding") if isinstance(item, dict) else None
        if not isinstance(index, int) or not 0 <= index < expected or ordered[index] is not None:
            raise EmbeddingsUnavailable("bad_answer", "embeddings with missing or repeated indexes")
        if not isinstance(vector, list) or not vector or not all(isinstance(x, (int, float)) for x in vector):
            raise EmbeddingsUnavailable("bad_answer", "an embedding that is not a list of numbers")
        values = [float(x) for x in vector]
        if not all(math.isfinite(x) for x in values) or not any(values):
            raise EmbeddingsUnavailable("bad_answer", "an embedding with non-finite or only zero values")
        ordered[index] = values
    return [v for v in ordered if v is not None]
