"""`import --with-model`: a model reads the postmortem too, and what it says is kept only where the
document backs it.

The model answers through one forced tool call (`record_postmortem`): per field a value and a
quote copied from the document. A field whose quote is not in the document (compared without
case and whitespace differences), whose quote does not support it (bot.reader.support: at least
15 characters, most of its words, every command and URL), or whose date is not in its quote, is
dropped. The document is fenced by bot.fence, as every prompt's data is. Kept fields
replace what the offline reader found; every other field stays as the offline reader read it.
Provenance says which extractor produced each field and quotes the model's evidence.

Nothing is sent unless the user asked for it (`--with-model`) and ANTHROPIC_API_KEY is set.
A model that fails (timeout, refusal, nonsense) leaves the offline reading, and says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import anthropic

from bot.fence import DATA_RULE, fence
from bot.importer.dates import find_dates, parse_date
from bot.models import MAX_TEXT, MemoryDraft, Provenance
from bot.reader.support import MIN_QUOTE_CHARS, support

TOOL_NAME = "record_postmortem"
MAX_DOCUMENT_CHARS = 150_000  # a postmortem, not a book: longer documents are cut, and the cut said
TEXT_FIELDS = ("title", "symptoms", "root_cause", "diagnosis", "resolution", "lesson", "service", "severity")

_SYSTEM = (
    "You read one incident postmortem and record what it says, through the record_postmortem tool only. "
    f"The document is fenced: {DATA_RULE} Record a field only when the document "
    "states it; for every field give a quote copied exactly from the document that says it. The fix is what "
    "resolved or mitigated the incident, never a follow-up action item. A failed attempt is an action "
    "responders took during the incident that did not work; a critique of the response is not one."
)


def _field(description: str) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "properties": {
            "value": {"type": "string"},
            "quote": {"type": "string", "description": "copied exactly from the document"},
        },
        "required": ["value", "quote"],
    }


def tool_definition() -> dict[str, Any]:
    descriptions = {
        "title": "a short title of the incident",
        "symptoms": "what users or monitoring saw",
        "root_cause": "what caused the incident",
        "diagnosis": "how the cause was found",
        "resolution": "what resolved or mitigated it",
        "lesson": "lessons and follow-up actions",
        "service": "the affected service or component, as the document names it",
        "severity": "the severity, as the document names it",
    }
    properties: dict[str, Any] = {name: _field(text) for name, text in descriptions.items()}
    properties["occurred_at"] = _field("the day the incident started, value as YYYY-MM-DD")
    properties["failed_attempts"] = {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "action": {"type": "string"},
                "why_it_failed": {"type": "string"},
                "quote": {"type": "string", "description": "copied exactly from the document"},
            },
            "required": ["action", "quote"],
        },
    }
    return {
        "name": TOOL_NAME,
        "description": "Record what the postmortem says, each field with its quote from the document.",
        "input_schema": {"type": "object", "properties": properties},
    }


def _squash(text: str) -> str:
    return " ".join(re.sub(r"[*_`>#|]", " ", text).lower().split())


@dataclass(frozen=True, slots=True)
class ModelReading:
    draft: MemoryDraft
    kept: list[str]  # fields the model gave and the document backs
    dropped: list[str]  # fields the model gave without a quote that is in the document
    problem: str | None = None  # why the model's reading was not used at all


class ModelExtractor:
    """Reads postmortems with a model through the real Anthropic client (the tests point it at a
    local fake of the Messages API)."""

    def __init__(
        self, *, api_key: str, model: str, base_url: str | None = None, timeout_s: float = 60.0, max_retries: int = 2
    ) -> None:
        self.model = model
        self.client = anthropic.AsyncAnthropic(
            api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=max_retries
        )

    async def aclose(self) -> None:
        await self.client.close()

    async def read(self, text: str, offline: MemoryDraft) -> ModelReading:
        document = text[:MAX_DOCUMENT_CHARS]
        try:
            response = await self.client.messages.create(
                model=self.model,
                max_tokens=4096,
                system=_SYSTEM,
                tools=[tool_definition()],
                tool_choice={"type": "tool", "name": TOOL_NAME},
                messages=[{"role": "user", "content": fence(f"\n{document}\n")}],
            )
        except anthropic.APIError as exc:
            return ModelReading(offline, [], [], f"the model did not answer ({type(exc).__name__}: {exc})")
        call = next((b for b in response.content if b.type == "tool_use" and b.name == TOOL_NAME), None)
        if call is None or not isinstance(call.input, dict):
            return ModelReading(offline, [], [], "the model answered without recording the postmortem")
        return self._checked(call.input, document, offline)

    def _checked(self, answer: dict[str, Any], document: str, offline: MemoryDraft) -> ModelReading:
        haystack = _squash(document)

        def backed(quote: Any, value: str | None = None) -> bool:
            """The quote is in the document and, for a text, supports it (bot.reader.support)."""
            if not isinstance(quote, str) or _squash(quote) not in haystack:
                return False
            if value is None:  # a date: long enough, and the caller checks the date is in it
                return len(quote.strip()) >= MIN_QUOTE_CHARS
            return support(value, [quote]).ok

        update: dict[str, Any] = {}
        origins = dict(offline.provenance.fields) if offline.provenance else {}
        kept, dropped = [], []
        for name in (*TEXT_FIELDS, "occurred_at"):
            given = answer.get(name)
            if not isinstance(given, dict) or not str(given.get("value") or "").strip():
                continue
            value, quote = str(given["value"]).strip(), given.get("quote")
            if name == "occurred_at":
                moment = parse_date(value)
                said = find_dates(str(quote or ""), year=moment.year if moment else None)
                if moment is None or not backed(quote) or not any(d.date() == moment.date() for d in said):
                    dropped.append(name)
                    continue
                update[name] = moment
            else:
                if not backed(quote, value):
                    dropped.append(name)
                    continue
                update[name] = (
                    value[:300] if name == "title" else value[: 100 if name in ("service", "severity") else 100_000]
                )
            kept.append(name)
            origins[name] = f"{self.model}, quoting {str(quote).strip()[:200]!r}"
        attempts = answer.get("failed_attempts")
        if isinstance(attempts, list) and attempts:
            good = [
                {
                    "action": str(a["action"]).strip()[:MAX_TEXT],
                    "why_it_failed": str(a.get("why_it_failed") or "").strip()[:MAX_TEXT],
                }
                for a in attempts
                if isinstance(a, dict)
                and str(a.get("action") or "").strip()
                and backed(a.get("quote"), f"{a['action']} {a.get('why_it_failed') or ''}")
            ]
            if len(good) < len(attempts):
                dropped.append(f"failed_attempts ({len(attempts) - len(good)} of {len(attempts)})")
            if good:
                update["failed_attempts"] = good
                kept.append("failed_attempts")
                origins["failed_attempts"] = f"{self.model}, each quoting the document"
        if not kept:
            return ModelReading(offline, [], dropped, "nothing the model said is backed by a quote from the document")
        base = offline.provenance or Provenance(file="?", extractor="")
        provenance = Provenance(file=base.file, extractor=f"model:{self.model} + {base.extractor}", fields=origins)
        draft = MemoryDraft.model_validate({**offline.model_dump(), **update, "provenance": provenance.model_dump()})
        return ModelReading(draft, kept, dropped)
