"""Slack Web API errors and 429s, counted where every HTTP answer passes: the retry handlers.

Bolt makes a fresh AsyncWebClient per request but copies the app client's retry handlers into
it, so a handler is the one place that sees every answer of every client, including each 429
that a later handler (AsyncRateLimitErrorRetryHandler) retries. This one never retries itself:
put it first; it counts, then lets the next handler decide.
"""

from __future__ import annotations

from typing import Any

from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState

from bot.observability.metrics import Metrics, label


def _method(request: HttpRequest) -> str:
    return label(request.url.rstrip("/").rsplit("/", 1)[-1].split("?", 1)[0], default="unknown")


class SlackApiObserver(AsyncRetryHandler):
    def __init__(self, metrics: Metrics) -> None:
        super().__init__(max_retry_count=0)
        self._metrics = metrics

    async def can_retry_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        try:
            self._observe(request, response, error)
        except Exception:  # noqa: BLE001 - counting must never break a Slack call
            pass
        return False

    def _observe(self, request: HttpRequest, response: HttpResponse | None, error: Exception | None) -> None:
        method = _method(request)
        if response is not None and response.status_code == 429:
            self._metrics.slack_api_rate_limited.labels(method=method).inc()
            return
        if error is not None and response is None:
            self._metrics.slack_api_errors.labels(method=method, error=label(type(error).__name__)).inc()
            return
        body: Any = response.body if response is not None else None
        if isinstance(body, dict) and body.get("ok") is False:
            self._metrics.slack_api_errors.labels(
                method=method, error=label(body.get("error"), default="unknown")
            ).inc()
        elif response is not None and response.status_code >= 500:
            self._metrics.slack_api_errors.labels(method=method, error=f"http_{response.status_code}").inc()
