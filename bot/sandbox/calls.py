"""One Web API request as the sandbox reads, refuses and records it.

Requests are read the three ways `slack_sdk` sends them: a JSON body (chat.*, views.*), a
form body (`api_call(..., data=...)`, where blocks and views arrive as JSON strings), and a
query string (GET methods such as conversations.info, and POST methods sent with `params=`
such as auth.test and conversations.join). A JSON string in `blocks`, `attachments`, `view` or
`metadata` is decoded, so a recorded call looks the same however it was sent.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from aiohttp import web

Params = dict[str, Any]
Encoding = Literal["json", "form", "multipart", "query", "empty"]

# slack_sdk form posts carry these as JSON strings; decoded so every call records the same shape.
JSON_FIELDS: Final = ("blocks", "attachments", "view", "metadata")


class SlackError(Exception):
    """A Web API refusal, answered as Slack does: `{"ok": false, "error": ...}`."""

    def __init__(
        self,
        error: str,
        *,
        messages: tuple[str, ...] | list[str] = (),
        status: int = 200,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(error)
        self.error = error
        self.messages = tuple(messages)
        self.status = status
        self.headers = dict(headers or {})

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"ok": False, "error": self.error}
        if self.messages:
            body["response_metadata"] = {"messages": list(self.messages)}
        return body


@dataclass
class Call:
    """One request the sandbox received, refused ones included."""

    method: str
    params: Params
    http_method: str
    encoding: Encoding
    at: float
    token: str | None
    status: int = 0
    response: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == 200 and self.response.get("ok") is True

    @property
    def error(self) -> str | None:
        error = self.response.get("error")
        return error if isinstance(error, str) else None


def flag(value: Any) -> bool:
    """slack_sdk sends booleans as "1"/"0" in query strings and forms, true/false in JSON."""
    if isinstance(value, str):
        return value.lower() in ("1", "true")
    return bool(value)


def decode_json_fields(params: Params) -> Params:
    for name in JSON_FIELDS:
        value = params.get(name)
        if isinstance(value, str):
            # left as a string when it is not JSON: the method answers invalid_blocks_format / invalid_arguments
            with contextlib.suppress(json.JSONDecodeError):
                params[name] = json.loads(value)
    return params


async def read_params(request: web.Request) -> tuple[Params, Encoding, str | None]:
    """The call's arguments however slack_sdk sent them, and the token (header or argument)."""
    params: Params = dict(request.query)
    encoding: Encoding = "query" if params else "empty"
    if request.method == "POST" and request.can_read_body:
        content_type = request.content_type
        if content_type == "application/json":
            raw = await request.text()
            if raw.strip():
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError as error:
                    raise SlackError("invalid_json") from error
                if not isinstance(body, dict):
                    raise SlackError("invalid_json")
                params |= body
                encoding = "json"
        elif content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            form = await request.post()
            for key, value in form.items():
                params[key] = value if isinstance(value, str) else getattr(value, "filename", "(file)")
            encoding = "form" if content_type.endswith("urlencoded") else "multipart"
    token: str | None = None
    authorization = request.headers.get("Authorization", "")
    if authorization.startswith("Bearer "):
        token = authorization.removeprefix("Bearer ").strip()
    argument = params.pop("token", None)
    if token is None and isinstance(argument, str):
        token = argument
    return decode_json_fields(params), encoding, token


async def read_response_payload(request: web.Request) -> Params:
    """What Bolt's `respond()` posts to a response_url: one JSON object (else HTTP 400)."""
    try:
        payload = await request.json()
    except json.JSONDecodeError as error:
        raise SlackError("invalid_payload", status=400) from error
    if not isinstance(payload, dict):
        raise SlackError("invalid_payload", status=400)
    return decode_json_fields(payload)
