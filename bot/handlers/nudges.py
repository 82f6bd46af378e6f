"""Nudges: asking for an incident's outcome before it closes silently.

`send_due_nudges` posts what is due (claimed once across instances, see bot/memory/nudges.py):
the ask in the incident's channel, or by direct message to the declarer when the channel was
archived, and the one reminder to the declarer a day later. A trigger (a channel message saying
it is over, an archived channel) sends at once; `sweep_nudges` runs in `serve` for the rest
(quiet channels, reminders, anything a restart interrupted).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.handlers.work import JobPayload
from bot.jobs import JobContext, job
from bot.services.container import Services
from bot.services.nudges import REMINDER, NudgeService
from bot.slack import messages

log = logging.getLogger(__name__)

# Slack errors another attempt will not fix: the nudge is skipped, with the reason kept.
_GONE = {"channel_not_found", "is_archived", "not_in_channel", "user_not_found", "cannot_dm_bot", "account_inactive"}


async def send_due_nudges(client: AsyncWebClient, services: Services) -> int:
    """Post every nudge that is due and this instance could claim; how many were posted."""
    posted = 0
    for due in await services.nudges.claim_due():
        destination = NudgeService.destination(due)
        if destination is None:
            await services.nudges.skip(due, "nobody to ask: the channel is archived and no one declared the incident")
            continue
        message = messages.resolution_nudge(
            due.incident, due.reason, reminder=due.step == REMINDER, direct=destination.direct
        )
        try:
            response = await client.chat_postMessage(channel=destination.channel, **message)
        except SlackApiError as exc:
            error = exc.response.get("error")
            if error in _GONE:
                await services.nudges.skip(due, f"Slack answered {error}")
            else:
                log.warning("nudge for %s not sent (%s); the next sweep retries", due.incident.incident_id, error)
                await services.nudges.failed(due)
            continue
        except Exception:
            await services.nudges.failed(due)
            raise
        await services.nudges.sent(due, destination, response.get("ts"))
        posted += 1
    return posted


async def sweep_nudges(client: AsyncWebClient, services: Services, every_s: float) -> None:
    """`serve`'s loop: quiet channels, reminders, and whatever a restart interrupted."""
    while True:
        try:
            await send_due_nudges(client, services)
        except Exception:  # noqa: BLE001 - the next sweep tries again; nothing is lost
            log.warning("sending nudges failed", exc_info=True)
        await asyncio.sleep(every_s)


class ArchivedChannel(JobPayload):
    team_id: str
    channel_id: str


@job("nudges.archived", ArchivedChannel, deadline_s=6 * 3600)
async def ask_archived(ctx: JobContext, ref: ArchivedChannel) -> None:
    """An archived channel with its incident still open: its declarer is asked directly."""
    if await ctx.services.nudges.archived(ref.team_id, ref.channel_id) is not None:
        await send_due_nudges(ctx.client, ctx.services)


def archived_job(body: dict[str, Any], event: dict[str, Any], context: Any) -> tuple[ArchivedChannel, str] | None:
    """`channel_archive` / `group_archive`, queued before Slack gets its 200 (store_event_first)."""
    ref = ArchivedChannel(team_id=context.team_id, channel_id=event["channel"])
    return ref, ask_archived.dedupe(ref.team_id, ref.channel_id)


async def on_channel_archived() -> None:
    """Never reached: `store_event_first` queues the work and answers Slack itself."""
