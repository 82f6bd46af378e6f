"""Steps several Slack surfaces share: posting a recall thread, running an investigation,
reading a channel, and saving a modal without ever losing what the user typed.

These run after the request was acknowledged (inside BackgroundWork), except `save_modal`,
which decides what the acknowledgement says.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pydantic import ValidationError
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.app import Services
from bot.memory.errors import MemoryError_
from bot.models import IncidentRecord, utcnow
from bot.services.incidents import ChannelInfo
from bot.slack import messages
from bot.slack.investigation import investigation_message
from bot.slack.limits import check_modal
from bot.slack.modals import prefilled_modal
from bot.slack.submissions import Submission
from bot.slack.templating import render

log = logging.getLogger(__name__)
T = TypeVar("T")

# Slack gives 3 s to acknowledge; saving gets this much of it, the rest is for the network.
SAVE_BUDGET_S = 2.0


# Messages in channels that are not incidents would otherwise cost a conversations.info each.
CHANNEL_CACHE_S = 300.0
_CHANNELS: dict[tuple[str, str], tuple[float, asyncio.Future[ChannelInfo]]] = {}  # (API base, channel)


async def recent_channel_info(client: AsyncWebClient, channel_id: str) -> ChannelInfo:
    """channel_info, remembered for a few minutes (a rename shows up after that). A burst of
    messages shares one request: the answer in flight is what is remembered."""
    now = time.monotonic()
    key = (client.base_url, channel_id)
    cached = _CHANNELS.get(key)
    if cached is None or now - cached[0] >= CHANNEL_CACHE_S:
        cached = (now, asyncio.ensure_future(channel_info(client, channel_id)))
        _CHANNELS[key] = cached
    try:
        return await asyncio.shield(cached[1])
    except Exception:
        _CHANNELS.pop(key, None)  # a failure is not remembered: ask again next time
        raise


async def channel_info(client: AsyncWebClient, channel_id: str) -> ChannelInfo:
    response = await client.conversations_info(channel=channel_id)
    channel = response["channel"]
    return ChannelInfo(
        id=channel_id,
        name=channel.get("name") or channel_id,
        is_private=bool(channel.get("is_private")),
        topic=(channel.get("topic") or {}).get("value", ""),
        purpose=(channel.get("purpose") or {}).get("value", ""),
        is_member=bool(channel.get("is_member", True)),
    )


_NAMES: dict[tuple[str, str], str] = {}  # (Slack API base, user id) → name; else one ask per message


async def user_name(client: AsyncWebClient, user_id: str) -> str:
    """How a person is named in memory ("maya.oncall"): readable later, and never a ping."""
    key = (client.base_url, user_id)
    if key in _NAMES:
        return _NAMES[key]
    try:
        user = (await client.users_info(user=user_id))["user"]
    except SlackApiError:
        return user_id  # not cached: the next message asks again
    profile = user.get("profile") or {}
    _NAMES[key] = profile.get("display_name") or user.get("name") or profile.get("real_name") or user_id
    return _NAMES[key]


async def post(client: AsyncWebClient, channel: str, message: dict[str, Any], **kwargs: Any) -> str | None:
    """Post a rendered message; returns its ts, or None (logged) when Slack refuses it."""
    try:
        response = await client.chat_postMessage(channel=channel, **message, **kwargs)
        return response["ts"]
    except SlackApiError as exc:
        log.error("chat.postMessage to %s failed: %s", channel, exc.response.get("error"))
        return None


async def post_recall_thread(client: AsyncWebClient, services: Services, incident: IncidentRecord) -> str | None:
    """The parent message ("3 past incidents look like this one") and one reply per memory."""
    result = await services.recall.for_incident(incident)
    parent = messages.recall_parent(incident.title, result.matches, result.conflicts, incident_ref=incident.incident_id)
    thread_ts = await post(client, incident.channel, parent)
    if thread_ts is None:
        return None
    await services.incidents.remember_recall_thread(incident, thread_ts)
    now = utcnow()
    for match in result.matches:
        reply = messages.recall_reply(match, now, messages.conflicting_ids(match, result.conflicts))
        await post(client, incident.channel, reply, thread_ts=thread_ts)
    return thread_ts


async def run_investigation(client: AsyncWebClient, services: Services, incident: IncidentRecord) -> None:
    """"Investigating…" at once in the incident's thread, then the answer in its place."""
    thread_ts = incident.recall_thread_ts
    placeholder = messages.investigating_placeholder(incident.title)
    ts = await post(client, incident.channel, placeholder, **({"thread_ts": thread_ts} if thread_ts else {}))
    try:
        recalled = await services.recall.for_incident(incident)
        timeline = await services.incidents.timeline(incident)
        investigation = await services.investigation.investigate(incident, timeline, recalled.matches)
        answer = investigation_message(investigation, incident.title)
    except MemoryError_ as exc:
        log.error("investigation of %s failed: %s", incident.incident_id, exc)
        answer = messages.notice(f"The investigation could not read the memory bank ({exc}). Try `/investigate` again.")
    except Exception:  # noqa: BLE001 - the placeholder must never be left spinning
        log.exception("investigation of %s failed", incident.incident_id)
        answer = messages.notice("The investigation failed unexpectedly; the error is in the bot's logs. Try `/investigate` again.")
    if ts is None:
        await post(client, incident.channel, answer, **({"thread_ts": thread_ts} if thread_ts else {}))
        return
    try:
        await client.chat_update(channel=incident.channel, ts=ts, **answer)
    except SlackApiError as exc:
        log.error("chat.update of the investigation failed: %s", exc.response.get("error"))


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
    services: Services,
    view: dict[str, Any],
    save: Awaitable[T],
    on_saved: Callable[[T], Awaitable[dict[str, Any] | None]],
) -> None:
    """Save within Slack's ack window without losing what was typed.

    Saved in time → `on_saved` decides the ack (None closes the modal). Storage failed → the
    modal stays open with every typed value and says why. Too slow → the modal says "still
    saving" (values kept), and is updated when the save ends.
    """
    task = asyncio.ensure_future(save)
    try:
        result = await asyncio.wait_for(asyncio.shield(task), SAVE_BUDGET_S)
    except TimeoutError:
        await ack(response_action="update", view=prefilled_modal(view, "Still saving… the database is slow. Keep this open."))
        services.background.spawn(_finish_slow_save(client, view, task, on_saved), name="slow-save")
        return
    except Exception as exc:  # noqa: BLE001 - whatever failed, what the user typed stays on screen
        await ack(response_action="update", view=prefilled_modal(view, _not_saved(exc)))
        return
    ack_with = await on_saved(result)
    await (ack(**ack_with) if ack_with else ack())


async def _finish_slow_save(
    client: AsyncWebClient,
    view: dict[str, Any],
    task: asyncio.Future[T],
    on_saved: Callable[[T], Awaitable[dict[str, Any] | None]],
) -> None:
    try:
        result = await task
    except Exception as exc:  # noqa: BLE001 - as in save_modal: keep the text, say why
        await client.views_update(view_id=view["id"], view=prefilled_modal(view, _not_saved(exc)))
        return
    ack_with = await on_saved(result)
    if ack_with and ack_with.get("response_action") == "update":
        await client.views_update(view_id=view["id"], view=ack_with["view"])
    elif ack_with and ack_with.get("response_action") == "errors":  # too late for inline errors: a banner
        await client.views_update(view_id=view["id"], view=prefilled_modal(view, " ".join(ack_with["errors"].values())))
    else:
        await client.views_update(view_id=view["id"], view=_saved_view())


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


def _saved_view() -> dict[str, Any]:
    return check_modal(render("modal_saved.json.j2"))
