"""Pages to look at instead of numbers to read: `incident-memory report` (a team's memory) and
`incident-memory replay --html` (the recall curve). Each is one self-contained HTML file: plots
are inline SVG, styles inline, nothing fetched from the network, no script."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from bot.memory.port import MemoryStore
from bot.models import MemoryRecord, TruthState
from bot.report import svg
from bot.report.figures import MemoryFigures, age_in_days

PAGE_SIZE = 500
TRUTH_COLOURS = {
    TruthState.UNCONFIRMED_HYPOTHESIS.value: "#bf8700",
    TruthState.HUMAN_CONFIRMED.value: "#1a7f37",
    TruthState.VERIFICATION_CONFIRMED.value: "#116329",
    TruthState.REJECTED.value: "#cf222e",
    TruthState.SUPERSEDED.value: "#57606a",
}


def _environment() -> Environment:
    return Environment(loader=PackageLoader("bot", "templates"), autoescape=True, undefined=StrictUndefined)


async def all_memories(store: MemoryStore, team_id: str) -> list[MemoryRecord]:
    memories: list[MemoryRecord] = []
    while True:
        page = await store.list(team_id, limit=PAGE_SIZE, offset=len(memories))
        memories += page.memories
        if not page.memories or len(memories) >= page.total:
            return memories


def memory_report_html(figures: MemoryFigures, *, now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    states = list(figures.truth_states)
    plots: dict[str, Markup] = {
        "per_service_month": svg.heatmap(
            figures.services, figures.months, figures.per_service_month, "Incidents per service and month"
        ),  # fmt: skip
        "truth_states": svg.hbars(
            states,
            [figures.truth_states[s] for s in states],
            "Memories by truth state",
            colours=[TRUTH_COLOURS[s] for s in states],
        ),  # fmt: skip
    }
    if figures.recurring_attempts:
        plots["recurring_attempts"] = svg.hbars(
            [a.action for a in figures.recurring_attempts],
            [a.times for a in figures.recurring_attempts],
            "Failed attempts tried in more than one incident",
        )
    awaiting = [(m, age_in_days(m, now)) for m in figures.awaiting_review]
    return (
        _environment()
        .get_template("report.html.j2")
        .render(figures=figures, plots=plots, awaiting=awaiting, generated=now.strftime("%Y-%m-%d %H:%M UTC"))
    )


def recall_at_k(ranks: list[int | None], top: int = 10) -> list[float]:
    """Recall@k for k = 1…top: the share of cases whose first true match is at rank k or better."""
    n = len(ranks) or 1
    return [round(sum(1 for r in ranks if r is not None and r <= k) / n, 4) for k in range(1, top + 1)]


def replay_html(corpus: str, ours: list[float], summary: dict[str, Any], *, baseline: list[float] | None = None,
                baseline_name: str = "BM25 baseline") -> str:  # fmt: skip
    series = {"incident-memory": ours}
    if baseline is not None:
        series[baseline_name] = baseline
    ks = list(range(1, len(ours) + 1))
    plot = svg.lines(ks, series, "Recall@k, k = 1…10", y_label="Recall@k")
    rows = [(k, ours[k - 1], baseline[k - 1] if baseline else None) for k in ks]
    return (
        _environment()
        .get_template("replay.html.j2")
        .render(
            corpus=corpus,
            plot=plot,
            rows=rows,
            summary=summary,
            baseline_name=baseline_name if baseline else None,
            generated=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        )
    )
