"""The embeddings port: turn texts into vectors. One adapter: an OpenAI-compatible HTTP endpoint."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class EmbeddingsUnavailable(Exception):
    """The endpoint did not give usable vectors: down, slow, refused, or a malformed answer.
    `reason` is short and fixed (a metric label): down, timeout, refused, bad_answer."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"embeddings endpoint {reason}: {detail}")
        self.reason = reason


class Embedder(Protocol):
    @property
    def model(self) -> str:
        """The model's name: vectors of different models are never compared."""
        ...

    async def embed(self, texts: Sequence[str], *, timeout: float | None = None) -> list[list[float]]:
        """One vector per text, in order, all of one dimension; EmbeddingsUnavailable otherwise."""
        ...

    async def aclose(self) -> None: ...
