"""Semantic recall, optional: the query's vector for recall, and memories' vectors kept current.

On only with EMBEDDINGS_URL (and EMBEDDINGS_MODEL) set and a database with pgvector. Whatever the
endpoint does, recall answers: a query that cannot be embedded within `query_timeout` is recalled
lexically, said in the log and counted in recall_semantic_fallbacks_total; after a failure the
endpoint is left alone for `cooldown` seconds, so a dead endpoint costs recall nothing.

Memories are embedded by `embed_pending`: after a resolution and at start as a durable job
(bot/handlers/work_embed.py), and by `incident-memory embed`. Each pass embeds every memory that
has no vector of the configured model: a memory retained while the endpoint was down, or embedded
by a model since replaced, is picked up by the next pass; a pass cut short resumes where it
stopped.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path

from bot.embeddings.port import Embedder, EmbeddingsUnavailable
from bot.memory.port import MemoryVectorStore
from bot.memory.vectors import MemoryVectors
from bot.models import RecallQuery
from bot.observability import Metrics
from bot.recall.meaning import QueryMeaning, memory_text, opening_text, query_text, sentences

log = logging.getLogger(__name__)

DEFAULT_QUERY_TIMEOUT_S = 1.0
COOLDOWN_S = 30.0
EMBED_BATCH = 16
"""Memories per endpoint call while embedding (with their openings and sentences: ~160 texts)."""


class SemanticRecall:
    def __init__(
        self,
        embedder: Embedder,
        store: MemoryVectorStore,
        *,
        query_timeout: float = DEFAULT_QUERY_TIMEOUT_S,
        cooldown: float = COOLDOWN_S,
        metrics: Metrics | None = None,
        quote_sentences: bool = True,
        include_private: bool = False,
    ) -> None:
        self.embedder = embedder
        # private channels' text leaves the workspace only when the team says so, as for the
        # investigation's model (EMBEDDINGS_INCLUDE_PRIVATE): their memories are then recalled lexically
        self._include_private = include_private
        # sentence vectors only choose the sentence a card quotes (they never change ranking) and
        # cost about as much model time again; a bench measuring ranking alone may skip them
        self._quote_sentences = quote_sentences
        self._store = store
        self._query_timeout = query_timeout
        self._cooldown = cooldown
        self._metrics = metrics
        self._resting_until = 0.0
        self._dims: int | None = None
        """The size of the endpoint's vectors, once seen: a model name served with another
        dimension (a new release, a truncation setting) makes the stored vectors stale."""
        self.enabled = False
        """Set by `start`: the database can hold vectors."""

    @property
    def include_private(self) -> bool:
        return self._include_private

    @property
    def model(self) -> str:
        return self.embedder.model

    async def start(self, migrations_dir: Path | None = None) -> bool:
        """Check the database once and say in one log line what recall will do."""
        self.enabled = await self._store.vectors_ready(create_from=migrations_dir)
        if not self.enabled:
            log.warning(
                "semantic recall is off: the database has no pgvector extension (`vector`); recall stays lexical"
            )
            return False
        current, stale, missing = await self.counts()
        log.info(
            "semantic recall on: model %s; %d memories embedded, %d by another model and %d not yet (embedding them in the background); %s",
            self.model, current, stale, missing,
            "private channels' memories and queries are sent too (EMBEDDINGS_INCLUDE_PRIVATE)" if self._include_private
            else "nothing from a private channel is sent (recalled lexically)",
        )  # fmt: skip
        return True

    async def counts(self) -> tuple[int, int, int]:
        """(memories embedded by the configured model (at the endpoint's dimension once seen), by
        another model or dimension, not at all)."""
        return await self._store.vector_counts(self.model, dims=self._dims, include_private=self._include_private)

    # ---- recall --------------------------------------------------------------------------

    async def query_meaning(self, query: RecallQuery) -> QueryMeaning | None:
        """The query's vector, or None (off, nothing to embed, endpoint failing: recall is lexical)."""
        text = query_text(query)
        if not self.enabled or not text or (query.private and not self._include_private):
            return None
        if time.monotonic() < self._resting_until:
            self._fallback("cooling_down")
            return None
        began = time.perf_counter()
        try:
            async with asyncio.timeout(self._query_timeout):
                (vector,) = await self.embedder.embed([text], timeout=self._query_timeout)
        except (EmbeddingsUnavailable, TimeoutError) as exc:
            reason = exc.reason if isinstance(exc, EmbeddingsUnavailable) else "timeout"
            self._resting_until = time.monotonic() + self._cooldown
            log.warning(
                "recall is lexical only: %s (the endpoint is left alone for %g s)", str(exc) or reason, self._cooldown
            )
            self._fallback(reason)
            return None
        finally:
            if self._metrics is not None:
                self._metrics.embeddings_latency.labels(use="query").observe(time.perf_counter() - began)
        self._dims = len(vector)
        return QueryMeaning(self.model, tuple(vector))

    def _fallback(self, reason: str) -> None:
        if self._metrics is not None:
            self._metrics.recall_semantic_fallbacks.labels(reason=reason).inc()

    # ---- keeping memories' vectors current ---------------------------------------------------

    async def embed_pending(self, *, batch: int = EMBED_BATCH, on_progress: Callable[[int], None] | None = None) -> int:
        """Embed every memory without a vector of the configured model at the endpoint's size; how
        many were embedded.
        EmbeddingsUnavailable stops the pass: what was saved stays saved."""
        if not self.enabled:
            return 0
        if self._dims is None and any((await self.counts())[:2]):
            # one short call per process: which stored vectors are the wrong size (with none
            # stored yet, the first batch tells the size)
            (probe,) = await self.embedder.embed(["incident"])
            self._dims = len(probe)
        done, after = 0, 0
        while True:
            pending = await self._store.unembedded(
                self.model, dims=self._dims, include_private=self._include_private, after_pk=after, limit=batch
            )
            if not pending:
                return done
            texts: list[str] = []
            spans: list[tuple[int, int]] = []
            for _, memory in pending:
                said = sentences(memory) if self._quote_sentences else []
                spans.append((len(texts), len(said)))
                # the whole text (ranking), its opening (the judgement's meaning_head), its sentences (the card)
                texts += [memory_text(memory), opening_text(memory), *said]
            began = time.perf_counter()
            vectors = await self.embedder.embed(texts)
            resized = len(vectors[0]) != self._dims  # the endpoint changed size mid-pass: start over
            self._dims = len(vectors[0])
            if self._metrics is not None:
                self._metrics.embeddings_latency.labels(use="memories").observe(time.perf_counter() - began)
            items = [
                MemoryVectors(
                    pk,
                    vectors[start],
                    texts[start + 2 : start + 2 + n],
                    vectors[start + 2 : start + 2 + n],
                    opening=vectors[start + 1],
                )
                for (pk, memory), (start, n) in zip(pending, spans, strict=True)
            ]
            await self._store.save_vectors(self.model, items)
            done += len(items)
            after = 0 if resized else pending[-1][0]
            if self._metrics is not None:
                self._metrics.memories_embedded.inc(len(items))
            if on_progress is not None:
                on_progress(len(items))

    async def aclose(self) -> None:
        await self.embedder.aclose()
