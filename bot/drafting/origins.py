"""What the person did with the draft: for each saved field, drafted-then-accepted, drafted-then-
changed, drafted-then-cleared, or typed. Pure; compared on words, not on spacing."""

from __future__ import annotations

from bot.drafting.models import TEXT_FIELDS, ResolutionDraft
from bot.models import DraftingTrace, FieldOrigin, Resolution


def _same(a: str | None, b: str | None) -> bool:
    return " ".join((a or "").split()).casefold() == " ".join((b or "").split()).casefold()


def drafting_trace(
    draft: ResolutionDraft, resolution: Resolution, declared_symptoms: str | None = None
) -> DraftingTrace:
    """`declared_symptoms`: the incident's, shown in the modal as declared (kept unchanged: no origin)."""
    fields: dict[str, FieldOrigin] = {}
    sources: dict[str, list[str]] = {}
    drafted = draft.text_fields()
    for name in TEXT_FIELDS:
        saved = getattr(resolution, name)
        proposal = drafted.get(name)
        if proposal is None:
            if name == "symptoms" and (not saved or _same(saved, declared_symptoms)):
                continue  # as declared, or cleared (the declared ones stay)
            if saved:
                fields[name] = FieldOrigin.TYPED
            continue
        sources[name] = [q.message_ts for q in proposal.quotes]
        if not saved:
            fields[name] = FieldOrigin.DRAFTED_CLEARED
        else:
            fields[name] = FieldOrigin.DRAFTED if _same(saved, proposal.text) else FieldOrigin.DRAFTED_CHANGED
    unmatched = list(enumerate(draft.failed_attempts, start=1))
    for position, attempt in enumerate(resolution.failed_attempts, start=1):
        key = f"failed_attempts[{position}]"
        exact = next(
            (
                d
                for d in unmatched
                if _same(d[1].action, attempt.action) and _same(d[1].why_it_failed, attempt.why_it_failed)
            ),
            None,
        )
        near = exact or next(
            (
                d
                for d in unmatched
                if _same(d[1].action, attempt.action) or _same(d[1].why_it_failed, attempt.why_it_failed)
            ),
            None,
        )
        if near is None:
            fields[key] = FieldOrigin.TYPED
            continue
        unmatched.remove(near)
        fields[key] = FieldOrigin.DRAFTED if exact is not None else FieldOrigin.DRAFTED_CHANGED
        sources[key] = [q.message_ts for q in near[1].quotes]
    for slot, attempt in unmatched:
        fields[f"drafted_attempt[{slot}]"] = FieldOrigin.DRAFTED_CLEARED
        sources[f"drafted_attempt[{slot}]"] = [q.message_ts for q in attempt.quotes]
    return DraftingTrace(drafter=draft.drafter, fields=fields, sources=sources)
