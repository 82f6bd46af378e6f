"""How the command line prints a memory and a recalled match (plain text; `--json` prints the models)."""

from __future__ import annotations

from bot.models import MemoryRecord, RecallMatch


def memory_text(m: MemoryRecord) -> str:
    lines = [f"{m.incident_id}  {m.title}"]
    meta = [f"truth: {m.truth_state.value}"]
    if m.verified_by:
        meta.append(f"confirmed by {m.shown_verifier}")
    if m.service:
        meta.append(f"service: {m.service}")
    if m.severity:
        meta.append(f"severity: {m.severity}")
    if m.superseded_by:
        meta.append(f"superseded by {m.superseded_by}")
    lines.append("  " + " · ".join(meta))
    for label, value in (
        ("symptoms", m.symptoms),
        ("error", m.error_message),
        ("root cause", m.root_cause),
        ("how it was found", m.diagnosis),
        ("fix", m.resolution),
        ("lesson", m.lesson),
        ("verification", m.verification_note),
    ):
        if value:
            lines.append(f"  {label}: {value}")
    for attempt in m.failed_attempts:
        why = f" — {attempt.why_it_failed}" if attempt.why_it_failed else ""
        lines.append(f"  did not work: {attempt.action}{why}")
    for c in m.corrections:
        lines.append(f"  correction by {c.shown_author} ({c.created_at:%Y-%m-%d}): {c.text}")
    return "\n".join(lines)


def provenance_text(m: MemoryRecord) -> str:
    """Where an imported memory's fields came from, for `show`."""
    if m.provenance is None:
        return ""
    p = m.provenance
    lines = [f"  imported from {p.file} by {p.extractor}"]
    lines += [f"    {name}: {where}" for name, where in p.fields.items()]
    return "\n".join(lines)


def match_text(rank: int, match: RecallMatch) -> str:
    m = match.memory
    if match.successor_id:
        return f"{rank}. {m.incident_id} (superseded) → see {match.successor_id}  score {match.score:.3f}"
    components = ", ".join(f"{k} {v:.2f}" for k, v in match.score_components.items() if k != "score")
    return "\n".join(
        [
            f"{rank}. {memory_text(m)}",
            f"  relevance {match.relevance:.2f} · score {match.score:.3f} ({components})",
            *(f"  why: {r}" for r in match.reasons),
        ]
    )
