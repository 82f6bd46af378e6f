"""A local fake of Anthropic's Messages API: POST /v1/messages over real HTTP.

The real `anthropic.AsyncAnthropic` client talks to it through `base_url`, so retries, timeouts
and response parsing are the SDK's own. Replies are scripted in order; every request is recorded.

Two callers share it: the investigation (`requests`, replies from `script`) and the guard's
second opinion, a classification call told apart by its tool (`classifications`, replies from
`script_classifier`; unscripted, `classify` judges each sentence, by default flagging none).
A `ToolAnswer`'s input may be a function of the request body: a stand-in model that, say,
rewords its claim after each refusal.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

CLASSIFIER_TOOL = "classify_sentences"
_SENTENCE_LINE = re.compile(r"^(\d+)\. \[([\w.]+)\] <<<(.*)>>>$", re.M)


@dataclass
class ToolAnswer:
    """A 200 with one tool_use block carrying `input` (anything: it may be invalid on purpose), or
    `input(body)` when it is callable."""

    input: Any
    tool_name: str = "record_investigation"
    input_tokens: int = 1200
    output_tokens: int = 300


# (sentence, field) → (past_cause_as_current, skip_verification)
Judge = Callable[[str, str], tuple[bool, bool]]


def never_flags(sentence: str, field: str) -> tuple[bool, bool]:
    return (False, False)


@dataclass
class Classify:
    """The second opinion's answer: `judge` applied to each sentence the request lists."""

    judge: Judge = never_flags
    input_tokens: int = 400
    output_tokens: int = 60


@dataclass
class TextAnswer:
    """A 200 with prose and no tool call."""

    text: str = "I think it is the database."


@dataclass
class Status:
    """An error status, e.g. 429 or 529, with a tiny retry-after so SDK retries stay fast."""

    code: int
    retry_after_ms: int | None = 5


@dataclass
class Delay:
    """Answer only after `seconds` (or when the server stops), then with `then`."""

    seconds: float
    then: Any = None


@dataclass
class MalformedJSON:
    """A 200 whose body is not JSON at all."""

    body: str = '{"id": "msg_broken", "type": "message", "content": [{"type": "tool_use", '


Reply = ToolAnswer | TextAnswer | Status | Delay | MalformedJSON | Classify

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def prompt(self) -> str:
        """The first user message's text: the rendered investigation prompt."""
        content = self.body["messages"][0]["content"]
        return content if isinstance(content, str) else "".join(b.get("text", "") for b in content)

    @property
    def is_classification(self) -> bool:
        return any(t.get("name") == CLASSIFIER_TOOL for t in self.body.get("tools", []))

    @property
    def sentences(self) -> list[tuple[int, str, str]]:
        """A classification request's numbered sentences: (index, field, text)."""
        return [(int(n), f, t) for n, f, t in _SENTENCE_LINE.findall(self.prompt)]


@dataclass
class FakeMessagesAPI:
    replies: deque[Reply] = field(default_factory=deque)
    requests: list[RecordedRequest] = field(default_factory=list)
    classifier_replies: deque[Reply] = field(default_factory=deque)
    classifications: list[RecordedRequest] = field(default_factory=list)
    classify: Classify = field(default_factory=Classify)
    _runner: web.AppRunner | None = None
    _released: asyncio.Event = field(default_factory=asyncio.Event)
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    port: int = 0

    def script(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    def script_classifier(self, *replies: Reply) -> None:
        """Replies to the next classification calls (then `classify` answers again)."""
        self.classifier_replies.extend(replies)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> FakeMessagesAPI:
        app = web.Application()
        app.router.add_post("/v1/messages", self._messages)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def close(self) -> None:
        self._released.set()  # let delayed handlers finish so shutdown does not wait on them
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeMessagesAPI:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _messages(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        recorded = RecordedRequest(request.path, {k.lower(): v for k, v in request.headers.items()}, body)
        if recorded.is_classification:
            self.classifications.append(recorded)
            reply = self.classifier_replies.popleft() if self.classifier_replies else self.classify
        else:
            self.requests.append(recorded)
            reply = self.replies.popleft() if self.replies else None
        return await self._respond(reply, recorded)

    async def _respond(self, reply: Reply | None, recorded: RecordedRequest) -> web.StreamResponse:
        body = recorded.body
        if reply is None:
            return self._error(400, "fake: no reply scripted", retry=False)
        if isinstance(reply, Delay):
            try:
                await asyncio.wait_for(self._released.wait(), reply.seconds)
            except TimeoutError:
                pass
            return await self._respond(reply.then, recorded)
        if isinstance(reply, Classify):
            verdicts = [
                {"index": n, "past_cause_as_current": claim, "skip_verification": skip}
                for n, f, text in recorded.sentences
                for claim, skip in [reply.judge(text, f)]
            ]
            reply = ToolAnswer({"verdicts": verdicts}, CLASSIFIER_TOOL, reply.input_tokens, reply.output_tokens)
        if isinstance(reply, Status):
            headers = {"retry-after-ms": str(reply.retry_after_ms)} if reply.retry_after_ms is not None else {}
            return self._error(reply.code, f"fake status {reply.code}", headers=headers)
        if isinstance(reply, MalformedJSON):
            return web.Response(status=200, text=reply.body, content_type="application/json")
        n = next(self._ids)
        if isinstance(reply, TextAnswer):
            content = [{"type": "text", "text": reply.text}]
            usage, stop = {"input_tokens": 1000, "output_tokens": 20}, "end_turn"
        else:
            given = reply.input(body) if callable(reply.input) else reply.input
            content = [{"type": "tool_use", "id": f"toolu_fake_{n}", "name": reply.tool_name, "input": given}]
            usage, stop = {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens}, "tool_use"
        message = {
            "id": f"msg_fake_{n}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "unknown"),
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": usage,
        }
        return web.json_response(message)

    def _error(
        self, code: int, message: str, *, retry: bool | None = None, headers: dict[str, str] | None = None
    ) -> web.Response:
        headers = dict(headers or {})
        if retry is not None:
            headers["x-should-retry"] = "true" if retry else "false"
        payload = {"type": "error", "error": {"type": _ERROR_TYPES.get(code, "api_error"), "message": message}}
        return web.Response(status=code, text=json.dumps(payload), content_type="application/json", headers=headers)
