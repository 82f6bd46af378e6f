"""What the monitoring systems send the bot: their webhooks, authenticated as each one does.

    async with AlertSender(base_url, token="t0ken", pagerduty_secret="pd") as alerts:
        await alerts.send("alertmanager", payload)               # Authorization: Bearer t0ken
        await alerts.send("pagerduty", payload)                   # X-PagerDuty-Signature: v1=…
        await alerts.post("/alerts/grafana", raw_bytes, headers={...})   # anything else

Each returns AlertResponse(status, body) (the JSON answer, or text). The payload is sent as
given: a dict is encoded once, and those bytes are what a PagerDuty signature signs.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import aiohttp


@dataclass(frozen=True, slots=True)
class AlertResponse:
    status: int
    body: Any


def pagerduty_signature(raw: bytes, *secrets: str) -> str:
    """X-PagerDuty-Signature for `raw`: one v1 value per secret, comma-separated."""
    return ",".join("v1=" + hmac.new(s.encode(), raw, hashlib.sha256).hexdigest() for s in secrets)


class AlertSender:
    def __init__(self, base_url: str, *, token: str | None = None, pagerduty_secret: str | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.pagerduty_secret = pagerduty_secret
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> AlertSender:
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        if self._session is not None:
            await self._session.close()

    async def send(self, source: str, payload: dict[str, Any] | bytes, **headers: str) -> AlertResponse:
        """POST /alerts/<source> as the vendor would: a bearer token, or PagerDuty's signature."""
        raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        sent = {"Content-Type": "application/json"}
        if source == "pagerduty":
            if self.pagerduty_secret:
                sent["X-PagerDuty-Signature"] = pagerduty_signature(raw, self.pagerduty_secret)
        elif self.token:
            sent["Authorization"] = f"Bearer {self.token}"
        return await self.post(f"/alerts/{source}", raw, headers={**sent, **headers})

    async def post(self, path: str, raw: bytes, *, headers: dict[str, str] | None = None) -> AlertResponse:
        assert self._session is not None, "use `async with AlertSender(...)`"
        async with self._session.post(self.base_url + path, data=raw, headers=headers or {}) as response:
            text = await response.text()
            try:
                body: Any = json.loads(text)
            except ValueError:
                body = text
            return AlertResponse(response.status, body)
