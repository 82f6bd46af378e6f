"""`incident-memory replay DIR`: measure recall against history (format: docs/REPLAY.md).

The corpus's memories go into a throwaway database created on the configured server (or the
embedded one) and dropped afterwards — never the live memory. Each case then recalls only what
existed before it, and we count how often its true match comes back.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg

from bot.cli.semantic import semantic_recall
from bot.config import Settings
from bot.memory.bulk import analyze_after_load, retain_many
from bot.memory.database import throwaway_database
from bot.memory.files import MemoryFileError, draft_from_json, parse_records
from bot.memory.pool import create_pool
from bot.memory.postgres import PostgresMemoryStore
from bot.memory.postings import derive_postings
from bot.models import MAX_TEXT, MemoryDraft, RecallMatch, RecallQuery, Source
from bot.recall.concepts import load_vocabulary
from bot.recall.floor import DEFAULT_FLOOR
from bot.recall.judgement_rules import by_rule
from bot.recall.pipeline import Recaller
from bot.replay_report import POSTED, TOP_K, CaseResult, ReplayCase, ReplayReport
from bot.services.meaning import SemanticRecall
from bot.services.recall import RecallService

REPLAY_TEAM = "replay"
BATCH = 2000


# ---- reading a corpus -------------------------------------------------------------------------


def _clip(value: Any) -> Any:
    return value[:MAX_TEXT] if isinstance(value, str) else value


def _records(path: Path) -> Iterator[tuple[int, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise MemoryFileError(f"{path}: {exc.strerror or exc}") from exc
    yield from parse_records(text, str(path))


def _when(value: Any) -> datetime | None:
    return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None


def load_memories(folder: Path, team_id: str = REPLAY_TEAM) -> list[MemoryDraft]:
    drafts = []
    for line, obj in _records(folder / "memories.jsonl"):
        try:
            clipped = {k: _clip(v) for k, v in obj.items()}
            clipped.setdefault("truth_state", "human_confirmed")  # REPLAY.md's default
            drafts.append(draft_from_json(clipped, team_id=team_id, source=Source.SEED, ignore_unknown=True))
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            raise MemoryFileError(f"{folder / 'memories.jsonl'}:{line}: {exc}") from exc
    return drafts


def load_cases(folder: Path, team_id: str = REPLAY_TEAM) -> list[ReplayCase]:
    cases = []
    for line, obj in _records(folder / "cases.jsonl"):
        try:
            incident = obj["incident"]
            query = RecallQuery(
                team_id=team_id,
                title=_clip(incident.get("title")),
                text=_clip(incident.get("symptoms") or ""),
                service=_clip(incident.get("service")),
                severity=_clip(incident.get("severity")),
                error_message=_clip(incident.get("error_message")),
                alerts=incident.get("alerts") or [],
                alert_labels=incident.get("alert_labels") or [],
                occurred_before=_when(obj.get("occurred_at")),
                limit=TOP_K,
            )
            known = {"id", "occurred_at", "incident", "relevant"}
            flags = {k: v for k, v in obj.items() if k not in known}
            cases.append(ReplayCase(str(obj["id"]), query, frozenset(map(str, obj["relevant"])), flags))
        except (KeyError, TypeError, ValueError) as exc:
            raise MemoryFileError(f"{folder / 'cases.jsonl'}:{line}: {exc}") from exc
    return cases


# ---- running it -------------------------------------------------------------------------------


def _progress(progress: bool):  # noqa: ANN202 - a rich Progress
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    return Progress(*columns, console=Console(stderr=True), disable=not progress, transient=True)


async def load_memories_into(
    store: PostgresMemoryStore,
    pool: asyncpg.Pool,
    memories: list[MemoryDraft],
    *,
    semantic: SemanticRecall | None = None,
    progress: bool = True,
) -> None:
    """Retain the corpus in bulk, derive postings, and (semantic recall on) embed every memory."""
    with _progress(progress) as bar:
        task = bar.add_task("retaining", total=len(memories))
        async with pool.acquire() as conn:
            for start in range(0, len(memories), BATCH):
                chunk = memories[start : start + BATCH]
                await retain_many(conn, chunk, store.vocabulary)
                bar.advance(task, len(chunk))
            bar.update(task, description="deriving postings")
            await derive_postings(conn)
            await analyze_after_load(conn)
        if semantic is not None:
            task = bar.add_task(f"embedding with {semantic.model}", total=len(memories))
            await semantic.embed_pending(on_progress=lambda n: bar.advance(task, n))


def _rules(matches: list[RecallMatch]) -> tuple[str, ...]:
    return tuple(by_rule(m.relevance, m.score_components, m.evidence) for m in matches)


def _weak(matches: list[RecallMatch]) -> tuple[float, ...] | None:
    """The weak model's probabilities (RecallMatch.weak_probability), None when no weak model judged them."""
    if not matches or any(m.weak_probability is None for m in matches):
        return None
    return tuple(m.weak_probability for m in matches)  # type: ignore[misc]


async def recall_cases(
    recall: RecallService,
    cases: list[ReplayCase],
    *,
    progress: bool = True,
    keep_matches: bool = False,
    target_absent: bool = False,
    floor: float = DEFAULT_FLOOR,
) -> ReplayReport:
    """Recall each case; with `target_absent`, each case is recalled once more without its true
    matches (as if they were not in the bank) to count false alarms."""
    results = []
    with _progress(progress) as bar:
        task = bar.add_task("recalling", total=len(cases))
        for case in cases:
            began = time.perf_counter()
            matches = await recall.recall(case.query)
            elapsed = (time.perf_counter() - began) * 1000.0
            absent, gone = None, []
            if target_absent:
                without = case.query.model_copy(update={"exclude_ids": sorted(case.relevant), "limit": POSTED})
                gone = await recall.recall(without)
                absent = tuple(m.relevance for m in gone)
            meaning = any(m.score_components.get("similarity") is not None for m in (*matches, *gone))
            results.append(
                CaseResult(case, tuple(m.memory.incident_id for m in matches), elapsed,
                           tuple(matches) if keep_matches else (), tuple(m.relevance for m in matches), absent,
                           tuple(m.tier for m in matches), tuple(gone) if keep_matches else (),
                           tuple(m.tier for m in gone), tuple(m.probability for m in matches),
                           tuple(m.probability for m in gone), _rules(matches), _rules(gone), meaning,
                           next((m.evidence.get("query_phrases", 0.0) for m in (*matches, *gone)), 0.0),
                           _weak(matches), _weak(gone))
            )  # fmt: skip
            bar.advance(task)
    return ReplayReport.of(results, floor)


async def replay_on(
    store: PostgresMemoryStore,
    pool: asyncpg.Pool,
    memories: list[MemoryDraft],
    cases: list[ReplayCase],
    *,
    progress: bool = True,
    keep_matches: bool = False,
    target_absent: bool = False,
    floor: float = DEFAULT_FLOOR,
    semantic: SemanticRecall | None = None,
    recaller: Recaller | None = None,
) -> ReplayReport:
    """Retain (and, semantic recall on, embed), then recall each case."""
    await load_memories_into(store, pool, memories, semantic=semantic, progress=progress)
    recall = RecallService(store, semantic=semantic, recaller=recaller)
    return await recall_cases(
        recall, cases, progress=progress, keep_matches=keep_matches, target_absent=target_absent, floor=floor
    )


async def run_replay(
    folder: Path,
    settings: Settings,
    *,
    admin_dsn: str | None = None,
    progress: bool = True,
    keep_matches: bool = False,
    target_absent: bool = False,
    floor: float | None = None,
    sentences: bool | None = None,
) -> ReplayReport:
    """`sentences`: embed the memories' sentences (semantic recall on); None: when the judgement
    the replay recalls with reads them (Judgement.reads_sentences)."""
    from bot.memory.database import database_url

    memories = load_memories(folder)
    cases = load_cases(folder)
    dsn = admin_dsn or await database_url(settings)
    async with throwaway_database(dsn, settings.migrations_dir, prefix="im_replay") as replay_dsn:
        pool = await create_pool(replay_dsn, max_size=2)
        try:
            store = PostgresMemoryStore(pool, vocabulary=load_vocabulary(settings.incident_memory_concepts_path))
            # EMBEDDINGS_URL: fused recall, where the server has pgvector. The memories' sentences
            # choose the sentence a card quotes (no replay shows one) and are read by the judgement
            # only through meaning_sentence_lead: embedded when the model does, else skipped (about
            # half a first replay's model time)
            recaller = Recaller(vocabulary=store.vocabulary)
            quote = recaller.judgement.reads_sentences() if sentences is None else sentences
            async with semantic_recall(settings, store, quote_sentences=quote) as semantic:
                return await replay_on(
                    store,
                    pool,
                    memories,
                    cases,
                    progress=progress,
                    keep_matches=keep_matches,
                    target_absent=target_absent,
                    floor=settings.recall_floor if floor is None else floor,
                    semantic=semantic,
                    recaller=recaller,
                )
        finally:
            await pool.close()
