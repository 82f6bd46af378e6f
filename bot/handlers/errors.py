"""One place where a failure becomes something the user sees, and a log line.

`report_error` is the app's Bolt error handler: whatever a listener raised, it is logged and the
person who asked is told (in the command's or button's response_url, else an ephemeral message
in the channel). `spawn` gives work started after the ack the same treatment. Events (channel
messages, joins) have no one to answer: their failures are logged only.
"""

from __future__ import annotations

import logging
from collections.abc import Coroutine
from typing import Any

from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.errors import SlackApiError

from bot.errors import MemoryError_
from bot.handlers.context import services_of
from bot.policy import NotAllowed
from bot.slack import messages

log = logging.getLogger(__name__)


def failure_text(error: BaseException) -> str:
    if isinstance(error, MemoryError_):  # worded for a person already
        why = str(error)
    elif isinstance(error, SlackApiError):
        why = f"Slack answered {error.response.get('error')!r}"
    else:
        why = "an unexpected error (in the bot's logs)"
    return f"That did not work: {why}. Try again in a moment."


async def tell_user(error: BaseException, context: AsyncBoltContext) -> None:
    """Say what failed to the person who asked, where Slack lets us; never raises."""
    # a refusal by the policy is an answer, worded with who can: not "did not work"
    notice = messages.refusal(error) if isinstance(error, NotAllowed) else messages.notice(failure_text(error))
    try:
        if context.response_url:
            await context.respond(**notice, response_type="ephemeral", replace_original=False)
        elif context.channel_id and context.user_id:
            await context.client.chat_postEphemeral(channel=context.channel_id, user=context.user_id, **notice)
    except Exception:  # noqa: BLE001 - telling is best effort; the failure itself is logged
        log.warning("could not tell the user that a request failed", exc_info=True)


async def report_error(error: Exception, body: dict[str, Any], context: AsyncBoltContext) -> None:
    """Bolt's error handler for every listener of the app."""
    what = body.get("command") or (body.get("event") or {}).get("type") or body.get("type") or "request"
    if isinstance(error, NotAllowed):
        log.info("refused %s: %s", what, error)
    else:
        log.error("handling %s failed", what, exc_info=error)
    if body.get("type") != "event_callback":
        await tell_user(error, context)


def spawn(context: AsyncBoltContext, work: Coroutine[Any, Any, Any], *, name: str, tell: bool = True) -> None:
    """Run `work` after the ack (tracked by BackgroundWork); a failure is logged and, unless
    `tell` is False (events: no one asked), reported to the user as above."""
    services_of(context).background.spawn(_reported(work, context, name, tell), name=name)


async def _reported(work: Coroutine[Any, Any, Any], context: AsyncBoltContext, name: str, tell: bool) -> None:
    try:
        await work
    except NotAllowed as refused:
        log.info("background work %s refused: %s", name, refused)
        if tell:
            await tell_user(refused, context)
    except Exception as error:  # noqa: BLE001 - logged and reported, not lost
        log.error("background work %s failed", name, exc_info=error)
        if tell:
            await tell_user(error, context)
