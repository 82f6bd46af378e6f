"""The model drafter: Claude reads the channel and proposes the resolution through one forced
tool call; every field must quote the messages it came from.

Each quote is checked against the timeline: it must be words of the message it names, and the
quotes must back the field (bot.reader.support: long enough, most of its words, every command and
URL word for word). A field that fails is dropped (and the draft says why), so nothing the model
made up reaches the modal. Every piece of people's text in the prompt is fenced (bot.fence). Whatever else goes wrong (privacy, timeout, an API error, a malformed
answer), the offline rules answer instead with a note saying why. `draft` never raises.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import anthropic
from pydantic import Field, ValidationError

from bot.drafting.models import (
    MAX_DRAFTED_ATTEMPTS,
    QUOTE_CHARS,
    DraftedAttempt,
    DraftedText,
    Mark,
    Quote,
    ResolutionDraft,
)
from bot.drafting.rules import HYPOTHESIS, OfflineDrafter, read_window, unfilled
from bot.fence import DATA_RULE, fence
from bot.investigation.anthropic_investigator import _inline_refs
from bot.investigation.privacy import privacy_blockers
from bot.jobs.reading import INLINE, ReadingPool
from bot.models import IncidentRecord, RequiredText, Strict, Text, TimelineEntry
from bot.reader.conversation import never
from bot.reader.support import support
from bot.text_limits import ReadLimits, newest_shared

log = logging.getLogger(__name__)

TOOL_NAME = "record_resolution_draft"
DEFAULT_TIMEOUT_S = 20.0
MESSAGES_SHOWN = 300
MESSAGE_CHARS = 1500
SYSTEM = (
    "You draft the outcome of an incident from what its responders wrote in the incident's channel. "
    f"Answer only by calling the {TOOL_NAME} tool. {DATA_RULE} "
    "Use only what the messages say; leave a field null when they do not say it. Every field must quote, "
    "word for word, the message(s) it comes from, naming each message by its id (m1, m2, …)."
)


class ModelQuote(Strict):
    message_id: str = Field(description="the id of the message quoted, e.g. m3")
    quote: RequiredText = Field(description="words copied exactly from that message")


class ModelText(Strict):
    text: RequiredText
    quotes: list[ModelQuote] = Field(min_length=1)
    hedged: bool = Field(
        default=False, description="true when the channel says it with doubt (I think, looks like, might be)"
    )


class ModelAttempt(Strict):
    action: RequiredText = Field(description="what was tried")
    why_it_failed: Text = Field(default="", description="why it did not work, as the channel says")
    quotes: list[ModelQuote] = Field(min_length=1)


class ModelDraft(Strict):
    """The tool's input: what the model may write."""

    root_cause: ModelText | None = None
    diagnosis: ModelText | None = Field(default=None, description="how the root cause was found")
    resolution: ModelText | None = Field(default=None, description="what fixed it")
    lesson: ModelText | None = None
    failed_attempts: list[ModelAttempt] = Field(default_factory=list, max_length=20)


def tool_definition() -> dict[str, Any]:
    schema = ModelDraft.model_json_schema()
    defs = schema.pop("$defs", {})
    return {
        "name": TOOL_NAME,
        "description": "Record the drafted resolution; every field quotes the messages it came from.",
        "input_schema": _inline_refs(schema, defs),
    }


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


def render_prompt(
    incident: IncidentRecord, timeline: list[TimelineEntry], marks: list[Mark]
) -> tuple[str, dict[str, TimelineEntry]]:
    """The message to the model, and message id → timeline entry (the ids quotes must name).
    Every piece of people's text (title, service, names, messages, whys) is fenced."""
    # the newest, shared between authors like the draft's window: one member's many messages do not
    # hide what others said from the model
    texts, authors = [e.text for e in timeline], [e.author for e in timeline]
    shown = [timeline[i] for i in newest_shared(texts, authors, messages=MESSAGES_SHOWN, chars=sum(map(len, texts)))]
    ids = {f"m{i}": entry for i, entry in enumerate(shown, start=1)}
    lines = [
        f"INCIDENT: {fence(incident.title)}" + (f" (service {fence(incident.service)})" if incident.service else "")
    ]
    if len(timeline) > len(shown):
        lines.append(f"({len(timeline) - len(shown)} older messages are left out)")
    lines.append("CHANNEL MESSAGES, oldest first:")
    for message_id, entry in ids.items():
        lines.append(f"[{message_id}] {entry.at:%H:%M} {fence(entry.author)}: {fence(entry.text[:MESSAGE_CHARS])}")
    by_ts = {entry.message_ts: message_id for message_id, entry in ids.items()}
    if marks:
        lines.append("A RESPONDER MARKED THESE MESSAGES:")
        for mark in marks:
            why = f" — why it failed: {fence(mark.why)}" if mark.why else ""
            lines.append(f"- [{by_ts.get(mark.message_ts, '?')}] as {mark.kind.value}{why}")
    lines.append(
        'RULES: a failed attempt is something tried that did not fix it, with why ("restarted pods, errors back '
        'after 25 min" → action: restarted pods, why: errors came back after 25 minutes). The resolution is what '
        'actually fixed it. A plan, a follow-up, a critique, a recovery ("it is running again") or a cause told as '
        'a confession is never a failed attempt. A root cause said with doubt is hedged; "not sure what caused it" '
        "is no root cause. Quote exactly, at least a whole phrase per quote; do not guess."
    )
    return "\n".join(lines), ids


def checked(answer: ModelDraft, ids: dict[str, TimelineEntry], drafter: str) -> ResolutionDraft:
    """The model's answer with every quote checked against the message it names, and every field
    against its quotes (bot.reader.support); a field that fails either is dropped, and the draft's
    notes say which and why."""
    dropped: list[str] = []

    def quotes(text: str, given: list[ModelQuote], what: str) -> list[Quote] | None:
        found = []
        for q in given:
            entry = ids.get(q.message_id)
            if entry is None or _words(q.quote) not in _words(entry.text):
                dropped.append(f"{what} (a quote is not in the message it names)")
                return None
            found.append(
                Quote(message_ts=entry.message_ts or q.message_id, author=entry.author, text=q.quote[:QUOTE_CHARS])
            )
        backing = support(text, [q.quote for q in given])
        if not backing.ok:
            dropped.append(f"{what} ({backing.why})")
            return None
        return found

    fields: dict[str, DraftedText] = {}
    for name in ("root_cause", "diagnosis", "resolution", "lesson"):
        value: ModelText | None = getattr(answer, name)
        if value is not None and (found := quotes(value.text, value.quotes, name.replace("_", " "))):
            hypothesis = name == "root_cause" and value.hedged
            fields[name] = DraftedText(text=f"{HYPOTHESIS}{value.text}" if hypothesis else value.text, quotes=found)
    attempts = []
    for n, attempt in enumerate(answer.failed_attempts, start=1):
        said = f"{attempt.action} {attempt.why_it_failed}"
        if all(never("attempt", q.quote) for q in attempt.quotes):  # the reader's word: not an attempt
            dropped.append(f"failed attempt {n} (its words say it recovered, was planned or is the cause)")
            continue
        if (found := quotes(said, attempt.quotes, f"failed attempt {n}")) is not None:
            attempts.append(DraftedAttempt(action=attempt.action, why_it_failed=attempt.why_it_failed, quotes=found))
    notes = []
    if dropped:
        notes.append("Left out because their quotes do not back them: " + "; ".join(dropped) + ".")
    if len(attempts) > MAX_DRAFTED_ATTEMPTS:
        notes.append(
            f"{len(attempts)} failed attempts were drafted; the modal has room for the first {MAX_DRAFTED_ATTEMPTS}."
        )
    notes += unfilled(fields, attempts)
    return ResolutionDraft(drafter=drafter, failed_attempts=attempts[:MAX_DRAFTED_ATTEMPTS], notes=notes, **fields)


class AnthropicDrafter:
    def __init__(
        self,
        *,
        api_key: str,
        model: str,
        base_url: str | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_retries: int = 1,
        private_with_model: bool = False,
        limits: ReadLimits | None = None,
        reading: ReadingPool = INLINE,
    ) -> None:
        self.model = model
        self.timeout_s = timeout_s
        self.private_with_model = private_with_model
        self.offline = OfflineDrafter(limits, reading)
        self.client = anthropic.AsyncAnthropic(
            api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=max_retries
        )

    @property
    def name(self) -> str:
        return f"anthropic:{self.model}"

    async def aclose(self) -> None:
        await self.client.close()

    async def draft(
        self, incident: IncidentRecord, timeline: list[TimelineEntry], marks: list[Mark]
    ) -> ResolutionDraft:
        blockers = [] if self.private_with_model else privacy_blockers(incident, [], incident.is_private)
        if blockers:
            note = f"Drafted by rules, not the model: {'; '.join(blockers)} (INVESTIGATE_PRIVATE_WITH_MODEL is off)."
            return await self.offline.read(timeline, marks, notes=[note])
        if not timeline:
            return await self.offline.read(timeline, marks)
        # the model reads what the rules read (the draft's caps): a long channel costs no more
        timeline, marks, _ = read_window(timeline, marks, self.offline.limits)
        try:
            async with asyncio.timeout(self.timeout_s):
                return await self._ask(incident, timeline, marks)
        except (TimeoutError, anthropic.APITimeoutError):
            why = f"the model did not answer within {self.timeout_s:g} s"
        except anthropic.APIStatusError as exc:
            why = f"the model API answered with an error ({exc.status_code})"
        except anthropic.APIConnectionError:
            why = "the model API could not be reached"
        except (ValidationError, ValueError, anthropic.APIResponseValidationError) as exc:
            why = f"the model's answer was malformed ({type(exc).__name__})"
        except Exception as exc:  # noqa: BLE001 - never raise: the rules always answer
            log.exception("drafting with the model failed")
            why = f"the model call failed unexpectedly ({type(exc).__name__})"
        log.warning("drafting fell back to the rules: %s", why)
        return await self.offline.read(timeline, marks, notes=[f"Drafted by rules, not the model: {why}."])

    async def _ask(self, incident: IncidentRecord, timeline: list[TimelineEntry], marks: list[Mark]) -> ResolutionDraft:
        prompt, ids = render_prompt(incident, timeline, marks)
        response = await self.client.messages.create(
            model=self.model,
            max_tokens=4096,
            system=SYSTEM,
            messages=[{"role": "user", "content": prompt}],
            tools=[tool_definition()],
            tool_choice={"type": "tool", "name": TOOL_NAME},
        )
        call = next((b for b in response.content if b.type == "tool_use" and b.name == TOOL_NAME), None)
        if call is None:
            raise ValueError(f"no {TOOL_NAME} call; stop reason {response.stop_reason}")
        return checked(ModelDraft.model_validate(call.input), ids, self.name)
