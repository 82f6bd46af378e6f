"""Semantic recall's durable job: embed the memories that have no vector of the configured model.

Queued when a resolution saves a new memory and when the bot starts (memories retained while it
was off, by the CLI, or embedded by a model since replaced). One pass embeds every such memory,
so a job queued while another waits is dropped (one dedupe key). A failing endpoint makes the
attempt fail and the worker retries with backoff; what was saved stays saved, and the next pass
starts where the last one stopped. Recall meanwhile answers lexically for the memories not yet
embedded.
"""

from __future__ import annotations

import logging

from bot.handlers.work import JobPayload
from bot.jobs import JobContext, job

log = logging.getLogger(__name__)

EMBED_JOB = "memories.embed"


class EmbedMemories(JobPayload):
    """No fields: a pass embeds whatever has no vector yet."""


@job(EMBED_JOB, EmbedMemories, max_attempts=8, deadline_s=6 * 3600, attempt_timeout_s=3600)
async def embed_memories(ctx: JobContext, _: EmbedMemories) -> None:
    semantic = ctx.services.semantic
    if semantic is None:  # turned off since the job was queued
        return
    done = await semantic.embed_pending()
    if done:
        log.info("embedded %d memories with %s", done, semantic.model)


async def embed_later(services, *, after: str | None = None) -> None:  # noqa: ANN001 - bot.services.container.Services
    """Queue a pass (when semantic recall is on). Never fails the caller: a pass that could not be
    queued now is queued at the next start. `after` names what was just saved: its pass is queued
    even while another runs (that one may have listed the pending memories before this one was
    saved); passes write vectors idempotently, so two at once only repeat work."""
    if services.semantic is None:
        return
    key = f"{EMBED_JOB}:{after}" if after else EMBED_JOB
    try:
        await services.jobs.enqueue(EMBED_JOB, EmbedMemories(), dedupe_key=key)
    except Exception:  # noqa: BLE001 - the memory is saved; its vector can wait for the next start
        log.warning("could not queue embedding the new memory; it is embedded at the next start", exc_info=True)
