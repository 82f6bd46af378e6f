"""The command line's semantic recall: `incident-memory embed`, and the query vectors of `recall`.

Kept apart from bot/cli/__init__.py (which maps `CommandFailed` to a one-line error and exit 1)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from bot.cli.output import CommandFailed
from bot.config import Settings
from bot.embeddings import EmbeddingsMisconfigured, EmbeddingsUnavailable, embedder_from_settings
from bot.services.meaning import SemanticRecall


@asynccontextmanager
async def semantic_recall(
    settings: Settings, store: Any, *, quote_sentences: bool = True
) -> AsyncIterator[SemanticRecall | None]:
    """Semantic recall when EMBEDDINGS_URL is set and the database has pgvector, else None.
    Without `quote_sentences`, memories are embedded whole only (what ranking reads)."""
    try:
        embedder = embedder_from_settings(settings)
    except EmbeddingsMisconfigured as exc:
        raise CommandFailed(str(exc)) from exc
    if embedder is None:
        yield None
        return
    semantic = SemanticRecall(
        embedder,
        store,
        query_timeout=settings.embeddings_timeout_s,
        include_private=settings.embeddings_include_private,
        quote_sentences=quote_sentences,
    )
    try:
        yield semantic if await semantic.start(settings.migrations_dir) else None
    finally:
        await semantic.aclose()


async def embed_all(settings: Settings, store: Any, *, progress: bool) -> tuple[dict[str, Any], str]:
    """Embed the memories without a vector of EMBEDDINGS_MODEL (never embedded, or by another
    model); resumable. The JSON payload and the text to print."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    if not settings.embeddings_url:
        raise CommandFailed("EMBEDDINGS_URL is not set: semantic recall is off, there is nothing to embed")
    async with semantic_recall(settings, store) as semantic:
        if semantic is None:
            raise CommandFailed("the database has no pgvector extension (`vector`): semantic recall cannot run here")
        current, stale, missing = await semantic.counts()
        done = 0
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=Console(stderr=True), transient=True, disable=not progress) as bar:
            task = bar.add_task(f"embedding with {semantic.model}", total=stale + missing)

            def advance(n: int) -> None:
                nonlocal done
                done += n
                bar.advance(task, n)

            try:
                await semantic.embed_pending(on_progress=advance)
            except EmbeddingsUnavailable as exc:
                raise CommandFailed(f"{exc}; {done} memories embedded before it stopped: run again to resume") from exc
    payload = {
        "model": semantic.model,
        "embedded": done,
        "re_embedded_from_other_model": stale,
        "already_current": current,
    }
    text = (f"embedded {done} memories with {semantic.model} ({stale} had another model's vectors); "
            f"{current + done} of {current + stale + missing} now have vectors")  # fmt: skip
    return payload, text
