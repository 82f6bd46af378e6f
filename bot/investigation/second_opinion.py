"""A second opinion on claims: a small model asked of each sentence, through one strict tool call.

The guard's rules read structure and wording; a model reads meaning. Of every sentence of an
answer it asks whether it asserts that a past incident is the current cause (or gives an old
fix as the verdict) and whether it tells responders to skip verification. Its verdicts add to
the rules' (guard.guard). It has a budget: slow, failing or nonsensical, it is noted and the
rules decide alone. It never raises.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import Field, ValidationError

from bot.fence import DATA_RULE, fence
from bot.investigation.claims import Claim, Sentence, Verdict
from bot.investigation.models import TokenUsage
from bot.investigation.text import clip
from bot.models import RecallMatch, Strict

if TYPE_CHECKING:
    import anthropic

log = logging.getLogger(__name__)

DEFAULT_GUARD_MODEL = "claude-haiku-5-5"
DEFAULT_BUDGET_S = 10.0
TOOL_NAME = "classify_sentences"
SYSTEM = (
    "You check an incident investigation before responders read it. Past incidents may suggest what to check, "
    f"but must never be declared the cause of the incident happening now. {DATA_RULE} "
    f"Answer only by calling the {TOOL_NAME} tool, with one verdict per numbered sentence."
)


class SentenceVerdict(Strict):
    index: int = Field(description="the sentence's number")
    past_cause_as_current: bool = Field(
        description="true if it asserts (not asks, not hedges) that a past incident, its cause or its fix is what is "
        "happening or needed now"
    )
    skip_verification: bool = Field(description="true if it tells responders to skip checks or stop investigating")


class Classification(Strict):
    verdicts: list[SentenceVerdict]


def tool_definition() -> dict[str, Any]:
    schema = Classification.model_json_schema()
    defs = schema.pop("$defs", {})
    schema["properties"]["verdicts"]["items"] = defs["SentenceVerdict"]
    return {
        "name": TOOL_NAME,
        "description": "Record, for each numbered sentence, whether it makes either claim.",
        "input_schema": schema,
        "strict": True,
    }


def request_text(sentences: list[Sentence], memories: list[RecallMatch]) -> str:
    past = [
        f"- cause {fence(clip(m.memory.root_cause or '(not recorded)', 400))}; fix {fence(clip(m.memory.resolution or '(not recorded)', 300))}"
        for m in memories
    ]
    lines = [f"{s.index}. [{s.field}] {fence(s.text)}" for s in sentences]
    return (
        "PAST INCIDENTS (history, never evidence about today):\n"
        + ("\n".join(past) or "(none)")
        + "\n\nSENTENCES OF THE INVESTIGATION:\n"
        + "\n".join(lines)
    )


@dataclass
class SecondOpinion:
    verdicts: list[Verdict] | None  # None when unavailable: the rules decide alone
    usage: TokenUsage = field(default_factory=TokenUsage)
    unavailable: str | None = None  # why, when it is


class SentenceClassifier:
    def __init__(
        self, client: anthropic.AsyncAnthropic, *, model: str = DEFAULT_GUARD_MODEL, budget_s: float = DEFAULT_BUDGET_S
    ) -> None:
        self.model = model
        self.budget_s = budget_s
        # one try within the budget: a retry would only spend the time the answer is waiting for
        self.client = client.with_options(timeout=budget_s, max_retries=0)

    async def classify(self, sentences: list[Sentence], memories: list[RecallMatch]) -> SecondOpinion:
        if not sentences:
            return SecondOpinion(verdicts=[])
        import anthropic  # its client was made by the investigator, which imported it: a name lookup

        usage = TokenUsage()
        try:
            async with asyncio.timeout(self.budget_s):
                response = await self.client.messages.create(
                    model=self.model,
                    max_tokens=256 + 40 * len(sentences),
                    system=SYSTEM,
                    messages=[{"role": "user", "content": request_text(sentences, memories)}],
                    tools=[tool_definition()],
                    tool_choice={"type": "tool", "name": TOOL_NAME},
                )
            usage = TokenUsage(input_tokens=response.usage.input_tokens, output_tokens=response.usage.output_tokens)
            call = next((b for b in response.content if b.type == "tool_use" and b.name == TOOL_NAME), None)
            if call is None:
                return SecondOpinion(None, usage, f"no {TOOL_NAME} call")
            answer = Classification.model_validate(call.input)
        except TimeoutError:
            return SecondOpinion(None, usage, f"no answer within {self.budget_s:g} s")
        except ValidationError as exc:
            return SecondOpinion(None, usage, f"malformed answer ({exc.error_count()} schema errors)")
        except anthropic.APIStatusError as exc:
            return SecondOpinion(None, usage, f"API error ({exc.status_code})")
        except (anthropic.APIError, ValueError) as exc:
            return SecondOpinion(None, usage, f"call failed ({type(exc).__name__})")
        except Exception as exc:  # never raise: the rules still decide
            log.exception("second opinion failed")
            return SecondOpinion(None, usage, f"call failed unexpectedly ({type(exc).__name__})")
        by_index = {s.index: s for s in sentences}
        verdicts = []
        for v in answer.verdicts:
            sentence = by_index.get(v.index)
            if sentence is None:
                continue
            if v.skip_verification:
                verdicts.append(Verdict(sentence, Claim.SKIP_CHECKS, source="second opinion"))
            elif v.past_cause_as_current:
                verdicts.append(Verdict(sentence, Claim.PAST_AS_PRESENT, source="second opinion"))
        return SecondOpinion(verdicts, usage)
