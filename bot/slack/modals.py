"""Modals the bot opens: each rendered from a template, then checked against Slack's limits.

Every function returns a view dict for `views.open(trigger_id=…, view=…)`, `views.update` or a
`response_action: update`. `context` is the caller's own (JSON-able) state, kept in
`private_metadata` with what the modal needs to re-render itself; read it back with
`read_metadata(view)`. `values` (block_id → text) pre-fills the inputs; `error` shows a banner.

- `declare_modal(*, context=None, values=None, error=None)`
- `resolution_modal(incident_title, *, context=None, values=None, error=None, drafting=False, draft=None)`
  `drafting`: says the draft is on its way (the modal opens at once); `draft` (a ResolutionDraft)
  pre-fills the inputs and quotes, under each drafted input, the messages it came from; its
  symptoms are the channel's first report (offered when none were declared: the caller passes
  declared ones in `values`). Inputs
  keep their block_id and action_id, so a views.update with the draft keeps what was typed.
- `confirm_modal(incident_id, memory_title, *, context=None, values=None, error=None)`
- `mark_modal(message_text, *, context=None, values=None, error=None)`   "Add to incident memory"
- `correction_modal(incident_id, memory_title, *, context=None, values=None, error=None)`
- `reject_modal(incident_id, memory_title, *, context=None, values=None, error=None)`
- `prefilled_modal(submitted_view, error) -> dict`   the same modal again, with everything the
  user typed and the error: used when storing fails, so nothing typed is lost
- `why_modal(value) -> dict`   "Why this?": a recalled memory's reasons and numbers (the
  button's value, messages.why_value); read-only, nothing to submit
- `read_metadata(view) -> dict`

callback_ids, block_ids and the input action_id are in `bot.slack.ids`; every text input allows
3,000 characters, as the domain stores.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.drafting.models import Quote, ResolutionDraft
from bot.models import MAX_TEXT
from bot.slack import ids
from bot.slack.escape import cut, single_line
from bot.slack.limits import check_modal
from bot.slack.submissions import values_from_state
from bot.slack.templating import render

Json = dict[str, Any]
# titles ride in private_metadata (3,000 characters in all), so they are kept short there
_TITLE_IN_METADATA = 200
# keys the modals themselves keep in private_metadata, next to the caller's context
_OWN_KEYS = ("incident_title", "incident_id", "memory_title", "message_text")
_MESSAGE_IN_METADATA = 1500


class UnknownModal(ValueError):
    """A view whose callback_id is not one of the bot's modals."""


def _modal(
    template: str,
    own: Mapping[str, str],
    context: Mapping[str, Any] | None,
    values: Mapping[str, str] | None,
    error: str | None,
    **extra: Any,
) -> Json:
    clashing = set(_OWN_KEYS) & set(context or {})
    if clashing:
        raise ValueError(f"context may not use the modal's own keys: {', '.join(sorted(clashing))}")
    metadata = json.dumps({**(context or {}), **own}, ensure_ascii=False, separators=(",", ":"))
    view = render(
        template,
        ids=ids,
        metadata=metadata,
        values=dict(values or {}),
        error=error,
        max_length=MAX_TEXT,
        **own,
        **extra,
    )
    return check_modal(view)


def _short(title: str) -> str:
    return cut(single_line(title), _TITLE_IN_METADATA)


def declare_modal(
    *, context: Mapping[str, Any] | None = None, values: Mapping[str, str] | None = None, error: str | None = None
) -> Json:
    return _modal("modal_declare.json.j2", {}, context, values, error)


def draft_values(draft: ResolutionDraft) -> dict[str, str]:
    """The draft as the modal's inputs (block_id → text)."""
    values = {name: field.text for name, field in draft.text_fields().items()}
    for slot, attempt in enumerate(draft.failed_attempts, start=1):
        values[ids.failed_action_block(slot)] = attempt.action
        if attempt.why_it_failed:
            values[ids.failed_why_block(slot)] = attempt.why_it_failed
    return values


def _quote_line(quote: Quote) -> str:
    return f"{quote.author}: “{single_line(quote.text)}”"


def _draft_context(draft: ResolutionDraft) -> dict[str, Any]:
    sources = {name: [_quote_line(q) for q in field.quotes] for name, field in draft.text_fields().items()}
    for slot, attempt in enumerate(draft.failed_attempts, start=1):
        sources[ids.failed_action_block(slot)] = [_quote_line(q) for q in attempt.quotes]
    by = (
        "by rules from the channel"
        if draft.drafter == "offline"
        else f"by the model ({draft.drafter.split(':', 1)[-1]}) from the channel"
    )
    if draft.is_empty:
        by += ": the channel does not say the outcome yet"
    return {"by": by, "notes": list(draft.notes), "sources": sources}


def resolution_modal(
    incident_title: str,
    *,
    context: Mapping[str, Any] | None = None,
    values: Mapping[str, str] | None = None,
    error: str | None = None,
    drafting: bool = False,
    draft: ResolutionDraft | None = None,
) -> Json:
    if draft is not None:
        values = {**draft_values(draft), **(values or {})}
    return _modal(
        "modal_resolution.json.j2", {"incident_title": _short(incident_title)}, context, values, error,
        drafting=drafting, draft=_draft_context(draft) if draft is not None else None,
    )  # fmt: skip


# The modals about one stored memory: its id and title, and what the person typed.
_MEMORY_MODAL_TEMPLATES = {
    ids.CORRECTION_MODAL: "modal_correction.json.j2",
    ids.CONFIRM_MODAL: "modal_confirm.json.j2",
    ids.REJECT_MODAL: "modal_reject.json.j2",
}


def _memory_modal(
    template: str,
    incident_id: str,
    memory_title: str,
    context: Mapping[str, Any] | None,
    values: Mapping[str, str] | None,
    error: str | None,
) -> Json:
    own = {"incident_id": incident_id, "memory_title": _short(memory_title)}
    return _modal(template, own, context, values, error)


def correction_modal(
    incident_id: str,
    memory_title: str,
    *,
    context: Mapping[str, Any] | None = None,
    values: Mapping[str, str] | None = None,
    error: str | None = None,
) -> Json:
    return _memory_modal(
        _MEMORY_MODAL_TEMPLATES[ids.CORRECTION_MODAL], incident_id, memory_title, context, values, error
    )


def reject_modal(
    incident_id: str,
    memory_title: str,
    *,
    context: Mapping[str, Any] | None = None,
    values: Mapping[str, str] | None = None,
    error: str | None = None,
) -> Json:
    return _memory_modal(_MEMORY_MODAL_TEMPLATES[ids.REJECT_MODAL], incident_id, memory_title, context, values, error)


def confirm_modal(
    incident_id: str,
    memory_title: str,
    *,
    context: Mapping[str, Any] | None = None,
    values: Mapping[str, str] | None = None,
    error: str | None = None,
) -> Json:
    return _memory_modal(_MEMORY_MODAL_TEMPLATES[ids.CONFIRM_MODAL], incident_id, memory_title, context, values, error)


def mark_modal(
    message_text: str,
    *,
    context: Mapping[str, Any] | None = None,
    values: Mapping[str, str] | None = None,
    error: str | None = None,
) -> Json:
    """Mark a channel message for the incident's draft: failed attempt (why?), fix, root cause."""
    own = {"message_text": cut(message_text, _MESSAGE_IN_METADATA)}
    return _modal("modal_mark.json.j2", own, context, values, error)


def why_modal(value: str) -> Json:
    """The detail behind a recalled memory's card; a value that is not ours shows as unknown."""
    try:
        data = json.loads(value)
        incident_id, reasons, numbers = str(data["id"]), [str(r) for r in data["reasons"]], str(data["numbers"])
        gist = {str(k): cut(single_line(str(v)), 240) for k, v in dict(data.get("memory") or {}).items()}
    except (ValueError, KeyError, TypeError):
        incident_id, reasons, numbers, gist = "?", [], "this button's details could not be read", {}
    view = render("modal_why.json.j2", ids=ids, incident_id=cut(single_line(incident_id), 200),
                  reasons=reasons, numbers=cut(single_line(numbers), 1500), gist=gist)  # fmt: skip
    return check_modal(view)


def read_metadata(view: Mapping[str, Any]) -> dict[str, Any]:
    """The caller's context and the modal's own keys, from a view Slack sent back."""
    raw = view.get("private_metadata") or "{}"
    data = json.loads(raw)
    if not isinstance(data, dict):
        raise ValueError("private_metadata is not a JSON object")
    return data


def prefilled_modal(submitted_view: Mapping[str, Any], error: str) -> Json:
    """The submitted modal rendered again with every typed value and `error` on top."""
    metadata = read_metadata(submitted_view)
    context = {k: v for k, v in metadata.items() if k not in _OWN_KEYS}
    values = values_from_state(submitted_view.get("state", {}).get("values", {}))
    callback_id = submitted_view.get("callback_id")
    if callback_id == ids.DECLARE_MODAL:
        return declare_modal(context=context, values=values, error=error)
    if callback_id == ids.RESOLUTION_MODAL:
        return resolution_modal(metadata.get("incident_title", ""), context=context, values=values, error=error)
    if callback_id == ids.MARK_MODAL:
        return mark_modal(metadata.get("message_text", ""), context=context, values=values, error=error)
    template = _MEMORY_MODAL_TEMPLATES.get(str(callback_id))
    if template is not None:
        incident_id, title = metadata.get("incident_id", ""), metadata.get("memory_title", "")
        return _memory_modal(template, incident_id, title, context, values, error)
    raise UnknownModal(f"no modal has callback_id {callback_id!r}")
