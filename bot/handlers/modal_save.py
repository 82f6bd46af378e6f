"""The modal-save protocol: save within Slack's ack window without ever losing what was typed.

A view_submission must be answered within 3 s, and the answer is the only way to keep the modal
open with an error. `parse_submission` validates the typed values (errors shown inline);
`save_modal` runs the save against the ack budget and decides what the ack says.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pydantic import ValidationError
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.background import BackgroundWork
from bot.errors import MemoryError_
from bot.observability.context import request_age
from bot.slack.limits import check_modal
from bot.slack.modals import prefilled_modal
from bot.slack.submissions import Submission
from bot.slack.templating import render

log = logging.getLogger(__name__)
T = TypeVar("T")

# Slack gives 3 s to acknowledge, counted from the request's arrival; saving may use up to this
# much of it from then (what the server spent before the listener ran is taken off), the rest is
# for the network.
SAVE_BUDGET_S = 2.0


S = TypeVar("S", bound="Submission")


async def parse_submission(ack: Callable[..., Awaitable[Any]], model: type[S], view: dict[str, Any]) -> S | None:
    """The modal's values as `model`, or None after showing Slack each input's error inline."""
    try:
        return model.from_view_state(view["state"]["values"])
    except ValidationError as exc:
        await ack(response_action="errors", errors=model.block_errors(exc))
        return None


async def save_modal(
    ack: Callable[..., Awaitable[Any]],
    client: AsyncWebClient,
    background: BackgroundWork,
    view: dict[str, Any],
    save: Awaitable[T],
    on_saved: Callable[[T], Awaitable[dict[str, Any] | None]],
) -> None:
    """Save within Slack's ack window without losing what was typed.

    Saved in time → `on_saved` decides the ack (None closes the modal); what it queues (a
    confirmation, a note) counts against the same budget. Storage failed → the modal stays open
    with every typed value and says why. Too slow → the modal says "still saving" (values kept),
    and is updated when the save and its follow-ups end.
    """
    saving = asyncio.ensure_future(save)

    async def save_then_decide() -> dict[str, Any] | None:
        return await on_saved(await saving)

    deciding = asyncio.ensure_future(save_then_decide())
    try:
        async with asyncio.timeout(max(0.0, SAVE_BUDGET_S - request_age())):
            ack_with = await asyncio.shield(deciding)
    except TimeoutError:
        await ack(
            response_action="update", view=prefilled_modal(view, "Still saving… the database is slow. Keep this open.")
        )
        background.spawn(_finish_slow_save(client, view, deciding, saving), name="slow-save")
        return
    except Exception as exc:  # noqa: BLE001 - whatever failed, what the user typed stays on screen
        if _saved(saving):
            raise  # the save stands; what failed after it goes to the error handler
        await ack(response_action="update", view=prefilled_modal(view, _not_saved(exc)))
        return
    await (ack(**ack_with) if ack_with else ack())


def _saved(saving: asyncio.Future[Any]) -> bool:
    return saving.done() and not saving.cancelled() and saving.exception() is None


async def _finish_slow_save(
    client: AsyncWebClient,
    view: dict[str, Any],
    deciding: asyncio.Future[dict[str, Any] | None],
    saving: asyncio.Future[Any],
) -> None:
    try:
        ack_with = await deciding
    except Exception as exc:  # noqa: BLE001 - as in save_modal: keep the text, say why
        if not _saved(saving):
            await client.views_update(view_id=view["id"], view=prefilled_modal(view, _not_saved(exc)))
            return
        log.error("a modal was saved, but what follows the save failed", exc_info=exc)
        ack_with = None  # the save stands: the modal says so
    if ack_with and ack_with.get("response_action") == "update":
        await client.views_update(view_id=view["id"], view=ack_with["view"])
    elif ack_with and ack_with.get("response_action") == "errors":  # too late for inline errors: a banner
        await client.views_update(view_id=view["id"], view=prefilled_modal(view, " ".join(ack_with["errors"].values())))
    else:
        await client.views_update(view_id=view["id"], view=saved_view())


class CannotSave(Exception):
    """A reason not to save that the user can fix; shown in the modal as it is worded."""


def _not_saved(exc: BaseException) -> str:
    if isinstance(exc, (MemoryError_, CannotSave)):
        why = str(exc)
    elif isinstance(exc, SlackApiError):
        why = f"Slack answered {exc.response.get('error')!r}"
    else:
        log.error("saving a modal failed", exc_info=exc)
        why = "an unexpected error (in the bot's logs)"
    return f"Nothing was saved: {why}. Your text is kept; submit again."


def saved_view(text: str = ":white_check_mark: Saved. You can close this window.") -> dict[str, Any]:
    """A modal saying it was saved (mrkdwn `text`: what was kept, when that needs saying)."""
    return check_modal(render("modal_saved.json.j2", text=text))
