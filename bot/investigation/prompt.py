"""The investigation prompt: CURRENT and PAST in labelled sections, then the rules.

All text that came from people or records is fenced by bot.fence (the one fence of every
prompt), so no message can close its own fence.
When the prompt must fit a budget, history goes first (least relevant memories), then the
oldest timeline messages; the newest current evidence and the rules are always kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from jinja2 import Environment, PackageLoader, StrictUndefined

from bot.fence import fence, neutralise
from bot.investigation.models import TimelineEntry
from bot.investigation.patterns import pattern_view
from bot.models import Incident, MemoryRecord, RecallMatch, TruthState
from bot.recall.reasons import humanize_age
from bot.rules.model import Rule
from bot.text_limits import newest_within

TEMPLATE = "investigation_prompt.j2"
DEFAULT_BUDGET_CHARS = 60_000
CLIP_MARK = "[…earlier part of this message omitted for length] "


def timeline_ref(number: int) -> str:
    """How the prompt names the number-th channel message, oldest first; answers cite it."""
    return f"T{number}"


def when(at: datetime) -> str:
    if at.tzinfo is not None:
        at = at.astimezone(UTC)
    return at.strftime("%Y-%m-%d %H:%M UTC")


_env = Environment(
    loader=PackageLoader("bot", "templates"),
    autoescape=False,  # a prompt is text, not HTML; fencing does the protecting
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)
_env.filters["data"] = fence
_env.filters["when"] = when


@dataclass(frozen=True)
class Prompt:
    text: str
    omitted_memories: int = 0
    omitted_timeline: int = 0
    clipped_newest: bool = False
    over_budget: bool = False  # only when the incident's declared fields and rules alone exceed it

    def notes(self) -> list[str]:
        notes = []
        if self.omitted_memories:
            notes.append(f"{self.omitted_memories} less relevant memories left out of the prompt for length")
        if self.omitted_timeline:
            notes.append(f"{self.omitted_timeline} oldest channel messages left out of the prompt for length")
        if self.clipped_newest:
            notes.append("the newest channel message was cut to its end for length")
        if self.over_budget:
            notes.append("the declared incident alone is longer than the prompt budget")
        return notes


def _truth_detail(match: RecallMatch, now: datetime) -> str:
    memory = match.memory
    if memory.truth_state is TruthState.SUPERSEDED:
        return f"superseded by {memory.superseded_by}"
    if memory.truth_state.reusable:
        who = f" by {memory.shown_verifier}" if memory.verified_by else ""
        age = f", {humanize_age(memory.verified_at, now)}" if memory.verified_at else ""
        own = "; self-verified by its resolver, not independently verified" if memory.self_verified else ""
        return f"confirmed{who}{age}{own}"
    return ""


# Corrections are unverified additions: together at most this part of a memory's share of the
# budget, newest first, so however many and long they are they never push memories out.
CORRECTIONS_SHARE = 0.25
_CORRECTION_OVERHEAD = 40  # the line's frame: "  - <<<author>>>, 3 days ago: <<<…>>>"
_MIN_CLIPPED = 80  # a correction cut shorter than this says nothing: left out instead


def _corrections_view(memory: MemoryRecord, now: datetime, room: int | None) -> tuple[list[dict[str, str]], int]:
    """The newest corrections that fit in `room` characters (None: all), oldest first, and how
    many were left out."""
    kept: list[dict[str, str]] = []
    used = 0
    for c in reversed(memory.corrections):
        author, text = c.shown_author, c.text
        cost = len(author) + len(text) + _CORRECTION_OVERHEAD
        if room is not None and used + cost > room:
            left = room - used - len(author) - _CORRECTION_OVERHEAD
            if left >= _MIN_CLIPPED:
                kept.append({"author": author, "text": text[: left - 1] + "…", "age": humanize_age(c.created_at, now)})
            break
        kept.append({"author": author, "text": text, "age": humanize_age(c.created_at, now)})
        used += cost
    kept.reverse()
    return kept, len(memory.corrections) - len(kept)


def memory_view(match: RecallMatch, now: datetime, *, corrections_room: int | None = None) -> dict[str, object]:
    memory = match.memory
    corrections, corrections_left_out = _corrections_view(memory, now, corrections_room)
    return {
        "id": memory.incident_id,
        "title": memory.title,
        "service": memory.service,
        "truth_state": memory.truth_state.value,
        "truth_detail": _truth_detail(match, now),
        "age": humanize_age(memory.happened_at, now),
        "root_cause": memory.root_cause,
        "diagnosis": memory.diagnosis,
        "resolution": memory.resolution,
        "failed_attempts": memory.failed_attempts,
        "lesson": memory.lesson,
        "corrections": corrections,
        "corrections_left_out": corrections_left_out,
        "score": f"{match.score:.2f}",
        "reasons": "; ".join(match.reasons) or "(none given)",
    }


def _render(
    incident: Incident,
    timeline: list[tuple[str, TimelineEntry]],
    memories: list[dict[str, object]],
    omitted_timeline: int,
    omitted_memories: int,
    tool_name: str,
    patterns: Sequence[dict[str, object]] = (),
) -> str:
    return _env.get_template(TEMPLATE).render(
        patterns=patterns,
        incident=incident,
        timeline=timeline,
        memories=memories,
        omitted_timeline=omitted_timeline,
        omitted_memories=omitted_memories,
        tool_name=tool_name,
    )


def _largest_fitting(n: int, fits) -> int:  # noqa: ANN001
    """The largest k in [0, n] with fits(k), given fits is monotone (fewer items, shorter text); -1 if none."""
    if not fits(0):
        return -1
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def render_prompt(
    incident: Incident,
    timeline: list[TimelineEntry],
    memories: list[RecallMatch],
    *,
    now: datetime,
    tool_name: str,
    budget_chars: int = DEFAULT_BUDGET_CHARS,
    known_patterns: Sequence[Rule] = (),
) -> Prompt:
    """Known patterns are history like the memories, but few and short: they are always kept."""
    # numbered once, oldest first, so a message keeps its ref (T1, T2…) whatever is left out
    entries = [(timeline_ref(n), e) for n, e in enumerate(sorted(timeline, key=lambda e: e.at), start=1)]
    # A message is shown whole or not at all, and its text never shrinks in the prompt (the fence
    # only swaps characters): the newest `showable` are all any fitting prompt can hold, so the
    # rest is never rendered (500 long messages rendered ~13 times each took seconds).
    showable = newest_within([e.text for _, e in entries], messages=len(entries), chars=budget_chars)
    room = int(budget_chars / max(1, len(memories)) * CORRECTIONS_SHARE)
    views = [memory_view(m, now, corrections_room=room) for m in memories]
    patterns = [pattern_view(r) for r in known_patterns]

    def with_memories(k: int) -> str:
        return _render(incident, entries, views[:k], 0, len(views) - k, tool_name, patterns)

    # 1. Trim history: keep the k most relevant memories (recall order is relevance order).
    k = (
        _largest_fitting(len(views), lambda k: len(with_memories(k)) <= budget_chars)
        if showable == len(entries)
        else -1
    )
    if k >= 0:
        return Prompt(with_memories(k), omitted_memories=len(views) - k)

    # 2. Then the present: keep the newest j messages.
    def newest(j: int, items: list[tuple[str, TimelineEntry]] = entries) -> str:
        kept = items[len(items) - j :] if j else []
        return _render(incident, kept, [], len(items) - j, len(views), tool_name, patterns)

    j = _largest_fitting(showable, lambda j: len(newest(j)) <= budget_chars)
    if j >= 1:
        return Prompt(newest(j), omitted_memories=len(views), omitted_timeline=len(entries) - j)

    # 3. Even the newest message alone is too long: keep its end, where the latest lines are.
    if entries:
        ref, last = entries[-1]
        empty = newest(1, entries[:-1] + [(ref, last.model_copy(update={"text": CLIP_MARK}))])
        room = budget_chars - len(empty)
        if room > 0:
            clipped = last.model_copy(update={"text": CLIP_MARK + neutralise(last.text)[-room:]})
            text = newest(1, entries[:-1] + [(ref, clipped)])
            return Prompt(text, len(views), len(entries) - 1, clipped_newest=True)
    # The declared fields and the rules are never cut, even over budget.
    text = newest(0)
    return Prompt(text, len(views), len(entries), over_budget=len(text) > budget_chars)
