"""Embeddings for optional semantic recall: a port (`port.Embedder`) and its one adapter, an
OpenAI-compatible `/v1/embeddings` HTTP endpoint (`openai_http`). Nothing here runs unless
EMBEDDINGS_URL is set."""

from __future__ import annotations

from bot.config import Settings
from bot.embeddings.openai_http import OpenAIEmbeddings
from bot.embeddings.port import Embedder, EmbeddingsUnavailable

__all__ = ["Embedder", "EmbeddingsUnavailable", "EmbeddingsMisconfigured", "embedder_from_settings"]


class EmbeddingsMisconfigured(ValueError):
    pass


def embedder_from_settings(settings: Settings) -> Embedder | None:
    """The configured embedder, or None when EMBEDDINGS_URL is unset (recall stays lexical)."""
    if not settings.embeddings_url:
        return None
    if not settings.embeddings_model:
        raise EmbeddingsMisconfigured(
            "EMBEDDINGS_URL is set but EMBEDDINGS_MODEL is not: name the model the endpoint should use "
            "(e.g. all-MiniLM-L6-v2), or unset EMBEDDINGS_URL to recall lexically"
        )
    return OpenAIEmbeddings(settings.embeddings_url, settings.embeddings_model, api_key=settings.embeddings_api_key)
