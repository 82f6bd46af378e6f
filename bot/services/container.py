"""`Services`: everything a Slack listener (and the demo) may call, built by the composition root
(bot/app.py). Listeners find it in Bolt's `context` (see bot/handlers/context.py)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.background import BackgroundWork
from bot.config import Settings
from bot.jobs.queue import JobQueue
from bot.jobs.reading import INLINE, ReadingPool
from bot.memory.effects import PostgresEffects
from bot.memory.port import MemoryStore
from bot.observability import Metrics
from bot.services.alerts import AlertService
from bot.services.drafting import DraftingService
from bot.services.incidents import IncidentService
from bot.services.investigation import InvestigationService
from bot.services.limits import WorkLimits
from bot.services.meaning import SemanticRecall
from bot.services.nudges import NudgeService
from bot.services.recall import RecallService
from bot.services.resolution import ResolutionService
from bot.services.review import ReviewService


@dataclass
class Services:
    """Everything a handler may call. Handlers get this, never a pool or a store."""

    settings: Settings
    memory: MemoryStore  # the demo and tests seed through it; handlers use the services below
    incidents: IncidentService
    recall: RecallService
    resolution: ResolutionService
    investigation: InvestigationService
    drafting: DraftingService
    nudges: NudgeService
    review: ReviewService
    background: BackgroundWork
    metrics: Metrics
    jobs: JobQueue  # work after an ack: durable, retried, never only in memory
    effects: PostgresEffects  # what jobs already did in Slack, so a rerun does not do it twice
    semantic: SemanticRecall | None = None
    """Semantic recall, when EMBEDDINGS_URL is set and the database has pgvector."""
    alerts: AlertService | None = None
    """Alert webhooks into incidents, when ALERT_ROUTES is set."""
    reading: ReadingPool = INLINE
    """Where CPU-heavy reading of members' text runs (bot/jobs/reading.py)."""
    limits: WorkLimits | None = None
    """The hourly limits on investigations and drafts (always set by the app)."""
