"""The Anthropic investigator: Claude answers through one forced tool call, then the guard checks it.

The guard's rules read every answer; when a guard model is set, a small model gives a second
opinion on each sentence the rules let through (second_opinion.py), within its own budget.
Whatever goes wrong (privacy, timeout, 429/529 after the SDK's backoff, an API error, a
malformed answer, an answer the guard refuses twice) the caller gets the offline answer with a
note saying why. `investigate` never raises.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from bot.fence import DATA_RULE
from bot.investigation.claims import sentences_of
from bot.investigation.evidence import ordered
from bot.investigation.guard import GuardResult, guard
from bot.investigation.models import (
    FallbackReason,
    Investigation,
    InvestigatorKind,
    ModelAnswer,
    TimelineEntry,
    TokenUsage,
)
from bot.investigation.offline import OfflineInvestigator
from bot.investigation.patterns import pattern_note
from bot.investigation.privacy import privacy_blockers, privacy_note
from bot.investigation.prompt import DEFAULT_BUDGET_CHARS, Prompt, render_prompt
from bot.investigation.second_opinion import DEFAULT_BUDGET_S, DEFAULT_GUARD_MODEL, SecondOpinion, SentenceClassifier
from bot.jobs.reading import INLINE, ReadingPool, ReadingTooLong
from bot.models import Incident, RecallMatch, utcnow
from bot.recall.concepts import load_vocabulary
from bot.rules.model import Rule

log = logging.getLogger(__name__)

# A current Sonnet (the SDK marks claude-sonnet-4-5 deprecated, end of life 2026-11-30).
DEFAULT_MODEL = "claude-sonnet-5"
DEFAULT_TIMEOUT_S = 60.0
TOOL_NAME = "record_investigation"
SYSTEM = (
    "You help incident responders decide what to inspect in an incident happening now. "
    f"Answer only by calling the {TOOL_NAME} tool. {DATA_RULE} "
    "The RULES at the end of the message always apply."
)


def unquoted(violation: str) -> str:
    """A violation without the sentence it quotes ("hypotheses statement 2 says a past incident is the current cause")."""
    return violation.split(": “", 1)[0]


class MalformedAnswer(Exception):
    pass


class RefusedAnswer(Exception):
    def __init__(self, violations: list[str]) -> None:
        super().__init__("; ".join(violations))
        self.violations = violations


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            target = defs[node["$ref"].rsplit("/", 1)[-1]]
            return _inline_refs({**target, **{k: v for k, v in node.items() if k != "$ref"}}, defs)
        return {k: _inline_refs(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline_refs(v, defs) for v in node]
    return node


def tool_definition() -> dict[str, Any]:
    """The one tool, its input schema derived from `ModelAnswer` (refs inlined: one flat schema)."""
    schema = ModelAnswer.model_json_schema()
    defs = schema.pop("$defs", {})
    return {
        "name": TOOL_NAME,
        "description": "Record the investigation: current evidence apart from past memories.",
        "input_schema": _inline_refs(schema, defs),
    }


def correction_message(violations: list[str]) -> str:
    return (
        "Your answer was refused: "
        + "; ".join(violations)
        + ". A past incident is context, never today's verdict. In no field say that this incident is a past one "
        "or that a past root cause is the current one, tell responders to skip checks or stop investigating, or "
        "give applying a past fix as the answer. happening_now holds only what the cited current evidence says. A "
        "past root cause may appear only as a check to run or a hypothesis, with status needs_evidence unless you "
        f"quote current evidence for it. Call {TOOL_NAME} again with a corrected answer."
    )


@dataclass
class _Spent:
    """What the model calls cost, kept even when they end in a fallback."""

    usage: TokenUsage = field(default_factory=TokenUsage)
    calls: int = 0
    guard_usage: TokenUsage | None = None  # the second opinions', when asked
    guard_note: str | None = None


class AnthropicInvestigator:
    def __init__(
        self,
        *,
        api_key: str,
        model: str = DEFAULT_MODEL,
        base_url: str | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_retries: int = 2,
        max_tokens: int = 4096,
        prompt_budget_chars: int = DEFAULT_BUDGET_CHARS,
        private_with_model: bool = False,
        guard_model: str | None = DEFAULT_GUARD_MODEL,
        guard_budget_s: float = DEFAULT_BUDGET_S,
        clock: Callable[[], datetime] = utcnow,
        reading: ReadingPool = INLINE,
    ) -> None:
        self.model = model
        self.reading = reading  # the guard reads what the prompt showed: off the event loop
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.max_tokens = max_tokens
        self.prompt_budget_chars = prompt_budget_chars
        self.private_with_model = private_with_model
        self.clock = clock
        self.offline = OfflineInvestigator()
        import anthropic  # here, not at the top: ~1 s of CPU that every start without a model key (demo, CLI) was paying

        # The SDK retries 429/529/5xx and timeouts with exponential backoff; the whole
        # investigation is additionally bounded by timeout_s (see investigate).
        self.client = anthropic.AsyncAnthropic(
            api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=max_retries
        )
        load_vocabulary()  # the guard reads it on every answer: loaded now, not inside the first answer's time
        # None or "": the guard's rules decide alone
        self.classifier = (
            SentenceClassifier(self.client, model=guard_model, budget_s=guard_budget_s) if guard_model else None
        )

    async def aclose(self) -> None:
        await self.client.close()

    async def investigate(
        self,
        incident: Incident,
        timeline: list[TimelineEntry],
        memories: list[RecallMatch],
        *,
        channel_is_private: bool | None = None,
        known_patterns: Sequence[Rule] = (),
    ) -> Investigation:
        import anthropic  # imported once by __init__: a name lookup here

        try:
            blockers = [] if self.private_with_model else privacy_blockers(incident, memories, channel_is_private)
            if blockers:
                return self.offline.answer(
                    incident,
                    timeline,
                    memories,
                    note=privacy_note(blockers),
                    reason=FallbackReason.PRIVACY,
                    known_patterns=known_patterns,
                )
        except Exception:  # never raise to the caller
            log.exception("privacy check failed")
            return self.offline.answer(
                incident, timeline, memories, note="Privacy check failed; nothing was sent.",
                reason=FallbackReason.PRIVACY_CHECK_FAILED, known_patterns=known_patterns,
            )  # fmt: skip

        spent = _Spent()
        try:
            async with asyncio.timeout(self.timeout_s):
                return await self._ask(incident, timeline, memories, spent, known_patterns)
        except (TimeoutError, anthropic.APITimeoutError):
            why = f"The model did not answer within {self.timeout_s:g} s (timeout)"
            reason = FallbackReason.TIMEOUT
        except anthropic.RateLimitError:
            why = f"The model API is rate limited (429), still after {self.max_retries} retries with backoff"
            reason = FallbackReason.RATE_LIMITED
        except anthropic.APIStatusError as exc:
            if exc.status_code == 529:
                why = f"The model API is overloaded (529), still after {self.max_retries} retries with backoff"
                reason = FallbackReason.OVERLOADED
            else:
                why = f"The model API answered with an error ({exc.status_code})"
                reason = FallbackReason.API_ERROR
        except anthropic.APIConnectionError:
            why = "The model API could not be reached"
            reason = FallbackReason.UNREACHABLE
        except MalformedAnswer as exc:
            why = f"The model's answer was malformed ({exc})"
            reason = FallbackReason.MALFORMED
        except ReadingTooLong as exc:
            why = f"Checking the model's answer against the channel: {exc}"
            reason = FallbackReason.UNEXPECTED
        except RefusedAnswer as exc:
            # what was refused, not its words: a refused claim must not reach the channel inside the note
            why = (
                f"The model's answer was refused twice by the guard ({unquoted(exc.violations[0])}), so it was not used"
            )
            reason = FallbackReason.REFUSED_BY_GUARD
        except Exception as exc:  # never raise to the caller
            log.exception("investigation failed")
            why = f"The model call failed unexpectedly ({type(exc).__name__})"
            reason = FallbackReason.UNEXPECTED
        log.warning("investigation fell back to offline: %s", why)
        fallback = self.offline.answer(
            incident,
            timeline,
            memories,
            note=f"{why}. Offline answer from the memories alone.",
            reason=reason,
            known_patterns=known_patterns,
        )
        if spent.calls:
            fallback = fallback.model_copy(update={"model": self.model, "usage": spent.usage})
        if spent.guard_usage is not None:
            fallback = fallback.model_copy(
                update={
                    "guard_model": self.classifier.model if self.classifier else None,
                    "guard_usage": spent.guard_usage,
                }
            )
        return fallback

    async def _guard(
        self, answer: ModelAnswer, incident: Incident, timeline: list[TimelineEntry], memories: list[RecallMatch],
        **options: Any,
    ) -> GuardResult:  # fmt: skip
        # only the messages the prompt showed are read (the answer can rest on nothing else)
        shown = ordered(timeline)[options.get("omitted_timeline", 0) :]
        size = sum(len(e.text) for e in shown)
        return await self.reading.run("The guard", guard, answer, incident, shown, memories, size=size, **options)

    async def _ask(
        self,
        incident: Incident,
        timeline: list[TimelineEntry],
        memories: list[RecallMatch],
        spent: _Spent,
        known_patterns: Sequence[Rule] = (),
    ) -> Investigation:
        import anthropic  # imported once by __init__: a name lookup here

        prompt = render_prompt(
            incident, timeline, memories, now=self.clock(), tool_name=TOOL_NAME, budget_chars=self.prompt_budget_chars,
            known_patterns=known_patterns,
        )  # fmt: skip
        messages: list[dict[str, Any]] = [{"role": "user", "content": prompt.text}]
        tool = tool_definition()
        result: GuardResult | None = None
        for _ in range(2):  # the first answer, and one more after a refusal
            try:
                response = await self.client.messages.create(
                    model=self.model,
                    max_tokens=self.max_tokens,
                    system=SYSTEM,
                    messages=messages,
                    tools=[tool],
                    tool_choice={"type": "tool", "name": TOOL_NAME},
                )
            except (ValueError, anthropic.APIResponseValidationError) as exc:  # a body that is not JSON
                raise MalformedAnswer(f"the response could not be parsed: {type(exc).__name__}") from exc
            spent.calls += 1
            spent.usage = spent.usage + TokenUsage(
                input_tokens=response.usage.input_tokens, output_tokens=response.usage.output_tokens
            )
            call = next((b for b in response.content if b.type == "tool_use" and b.name == TOOL_NAME), None)
            if call is None:
                raise MalformedAnswer(f"no {TOOL_NAME} call; stop reason {response.stop_reason}")
            try:
                answer = ModelAnswer.model_validate(call.input)
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(x) for x in first["loc"]) or "answer"
                raise MalformedAnswer(f"{exc.error_count()} schema error(s); {where}: {first['msg']}") from exc
            patterns = [r.id for r in known_patterns]
            seen = {"pattern_ids": patterns, "omitted_timeline": prompt.omitted_timeline}  # what the model saw
            result = await self._guard(answer, incident, timeline, memories, **seen)
            if not result.refused and self.classifier is not None:
                # only what the rules let through is worth a second look
                opinion = await self._second_opinion(answer, memories, spent)
                if opinion.verdicts:
                    result = await self._guard(
                        answer, incident, timeline, memories, second_opinion=opinion.verdicts, **seen
                    )
            if not result.refused:
                return self._investigation(result, spent, prompt, known_patterns)
            log.info("investigation refused by the guard: %s", [unquoted(v) for v in result.violations])
            messages += [
                {
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": call.id, "name": call.name, "input": call.input}],
                },
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": call.id,
                            "is_error": True,
                            "content": correction_message(result.violations),
                        }
                    ],
                },
            ]
        assert result is not None
        raise RefusedAnswer(result.violations)

    async def _second_opinion(self, answer: ModelAnswer, memories: list[RecallMatch], spent: _Spent) -> SecondOpinion:
        assert self.classifier is not None
        opinion = await self.classifier.classify(sentences_of(answer), memories)
        spent.guard_usage = (spent.guard_usage or TokenUsage()) + opinion.usage
        spent.guard_note = opinion.unavailable
        if opinion.unavailable:
            log.warning("second opinion unavailable, the rules decide alone: %s", opinion.unavailable)
        return opinion

    def _investigation(
        self, result: GuardResult, spent: _Spent, prompt: Prompt, known_patterns: Sequence[Rule] = ()
    ) -> Investigation:
        flags = list(result.flags)
        if spent.guard_note:
            flags.append(
                f"second opinion ({self.classifier.model if self.classifier else '?'}) unavailable: {spent.guard_note}; the rules decided alone"
            )
        return Investigation(
            **result.findings.model_dump(),
            investigator=InvestigatorKind.ANTHROPIC,
            model=self.model,
            usage=spent.usage,
            guard_flags=flags,
            context_notes=prompt.notes(),
            happening_now=result.statements,
            guard_model=self.classifier.model if self.classifier else None,
            guard_usage=spent.guard_usage,
            guard_note=spent.guard_note,
            known_patterns=[pattern_note(r) for r in known_patterns],
        )
