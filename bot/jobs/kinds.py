"""What a kind of job is: a name, a payload model, the work, and what to do when it cannot."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel
from slack_sdk.webhook.async_client import AsyncWebhookClient

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

P = TypeVar("P", bound=BaseModel)


class Permanent(Exception):
    """A failure that another attempt cannot fix (the channel is gone, the input is wrong):
    the job gives up at once."""


@dataclass(frozen=True, slots=True)
class JobContext:
    """What a job runs with: the app's services, a Slack client, and which attempt this is."""

    services: Any  # bot.services.container.Services
    client: AsyncWebClient
    attempt: int
    job_id: int
    lookups: Any = None  # bot.handlers.lookups.SlackLookups: the app's cached Slack reads
    # answers through a command's response_url (tests pass a fake; Slack's own client otherwise)
    webhook: Callable[[str], Any] = AsyncWebhookClient


@dataclass(frozen=True, slots=True)
class JobKind(Generic[P]):
    name: str
    payload: type[P]
    run: Callable[[JobContext, P], Awaitable[None]]
    # Called once when the job stops trying; says so to the person who asked. Never raises.
    give_up: Callable[[JobContext, P, BaseException], Awaitable[None]] | None = None
    max_attempts: int = 6
    # From enqueue: past this, no further attempt (an answer an hour late helps nobody).
    deadline_s: float = 900.0
    # One attempt may take this long before it counts as failed.
    attempt_timeout_s: float = 180.0
    # At most this many of the kind run at once, across every worker (0: no limit of its own):
    # a flood of one kind (a channel's messages) leaves slots for the others' work
    concurrency_limit: int = 0

    def dedupe(self, *parts: object) -> str:
        return ":".join((self.name, *(str(p) for p in parts)))


def job(
    name: str,
    payload: type[P],
    *,
    give_up: Callable[[JobContext, P, BaseException], Awaitable[None]] | None = None,
    max_attempts: int = 6,
    deadline_s: float = 900.0,
    attempt_timeout_s: float = 180.0,
    concurrency_limit: int = 0,
) -> Callable[[Callable[[JobContext, P], Awaitable[None]]], JobKind[P]]:
    """Declare a kind of job next to the surface that starts it:

    @job("recall.answer", RecallRequest, give_up=tell_failed)
    async def answer_recall(ctx: JobContext, request: RecallRequest) -> None: ...
    """

    def declare(run: Callable[[JobContext, P], Awaitable[None]]) -> JobKind[P]:
        return JobKind(name, payload, run, give_up, max_attempts, deadline_s, attempt_timeout_s, concurrency_limit)

    return declare
