"""The investigation's answer as a message (it replaces the "Investigating…" placeholder).

- `investigation_message(investigation, incident_title=None) -> dict`   for chat.update / postMessage

CURRENT and PAST stay apart here too: what is happening now, checks and hypotheses come first;
what worked and what failed before is labelled as past, each item naming its memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.investigation.models import HypothesisStatus, Investigation
from bot.slack import ids
from bot.slack.escape import cut, single_line
from bot.slack.limits import check_message
from bot.slack.templating import render

# a thread answer, not a report: a few items per part, the count of the rest
ITEMS_SHOWN = 5
ITEM_CHARS = 400


def _item(text: str) -> str:
    return cut(single_line(text), ITEM_CHARS)


def _cited(memory_ids: Sequence[str]) -> str:
    return f" ({', '.join(f'`{m}`' for m in memory_ids)})" if memory_ids else ""


def _part(heading: str, lines: list[str]) -> str:
    shown = lines[:ITEMS_SHOWN]
    more = len(lines) - len(shown)
    return "\n".join([f"*{heading}*", *(f"• {line}" for line in shown), *([f"+{more} more"] if more else [])])


def _sections(inv: Investigation) -> list[tuple[str, str]]:
    parts: list[tuple[str, str, list[str]]] = [
        ("investigation_checks", "Check now", [
            _item(c.action) + (f" — _{_item(c.why)}_" if c.why else "") + _cited(c.memory_ids) for c in inv.checks_to_run
        ]),
        ("investigation_hypotheses", "Hypotheses (not verdicts)", [
            _item(h.statement)
            + (" — supported by: " + "; ".join(f"“{_item(q)}”" for q in h.current_evidence[:3]) if h.current_evidence else "")
            + ("" if h.status is HypothesisStatus.SUPPORTED else " — _needs current evidence_")
            + _cited(h.related_memory_ids)
            for h in inv.hypotheses
        ]),
        ("investigation_conflicts", ":warning: CONFLICT between past incidents", [
            _item(c.description) + (f" — to tell them apart: {_item(c.evidence_needed)}" if c.evidence_needed else "") + _cited(c.memory_ids)
            for c in inv.conflicts
        ]),
        ("investigation_worked_before", "Worked in past incidents", [
            _item(a.action) + _cited([a.memory_id]) for a in inv.successful_previous_actions
        ]),
        ("investigation_failed_before", "Did not work in past incidents", [
            _item(a.action) + (f" — _{_item(a.why_it_failed)}_" if a.why_it_failed else "") + _cited([a.memory_id])
            for a in inv.failed_previous_actions
        ]),
        ("investigation_questions", "Open questions", [_item(q) for q in inv.open_questions]),
    ]  # fmt: skip
    now = ("investigation_now", "*What is happening now*\n" + (inv.current_summary or "_no current evidence yet_"))
    return [
        now,
        *_known_patterns(inv),
        *((block_id, _part(heading, lines)) for block_id, heading, lines in parts if lines),
    ]


def _known_patterns(inv: Investigation) -> list[tuple[str, str]]:
    """Each approved rule given to the investigation, with the checks and dead ends the answer
    does not already list (citing it)."""
    listed = {c.action for c in inv.checks_to_run} | {a.action for a in inv.failed_previous_actions}
    listed |= {f"{a.action} — {a.why_it_failed}" for a in inv.failed_previous_actions}
    out = []
    for n, note in enumerate(inv.known_patterns[:ITEMS_SHOWN], start=1):
        lines = [f":bookmark: *{_item(note.headline)}* — context for what to check, not a verdict about this incident"]
        lines += [f"• Check: {_item(c)}" for c in note.checks[:ITEMS_SHOWN] if c not in listed]
        lines += [f"• Known dead end: {_item(d)}" for d in note.dead_ends[:ITEMS_SHOWN] if d not in listed]
        out.append((f"investigation_known_pattern_{n}", "\n".join(lines)))
    return out


def _provenance(inv: Investigation) -> list[str]:
    who = (
        f"answered by {inv.model}"
        if inv.model and inv.investigator.value == "anthropic"
        else "offline investigator (no model)"
    )
    if inv.usage and (inv.usage.input_tokens or inv.usage.output_tokens):
        who += f" · {inv.usage.input_tokens:,} tokens in, {inv.usage.output_tokens:,} out"
    lines = [who]
    if inv.note:
        lines.append(_item(inv.note))
    if inv.guard_flags:
        lines.append("guard: " + "; ".join(_item(f) for f in inv.guard_flags[:ITEMS_SHOWN]))
    if inv.left_out:
        lines.append(_item(inv.left_out))
    if inv.context_notes:
        lines.append("not shown to the model: " + "; ".join(_item(n) for n in inv.context_notes[:ITEMS_SHOWN]))
    return lines


def investigation_message(investigation: Investigation, incident_title: str | None = None) -> dict[str, Any]:
    payload = render(
        "investigation.json.j2",
        ids=ids,
        incident_title=incident_title,
        summary=investigation.current_summary or "no current evidence yet",
        sections=_sections(investigation),
        provenance=_provenance(investigation),
    )
    return check_message(payload)
