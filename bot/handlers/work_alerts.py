"""The alert job: a stored delivery (bot/alerts/web.py) becomes an incident in Slack.

Firing: the route (ALERT_ROUTES) names the channel — an id, a name, or a new `inc-…` channel
with people invited — the channel's open incident is joined or one is opened (no declarer), the
recall thread is queued as for a declared incident, and the alerts are said in the channel and
join its timeline as CURRENT evidence. Resolved: said in the incident's channel, in its
timeline; once every alert of the incident is resolved, the closure nudge asks for the outcome.
Safe to run again: posts are once per delivery, the timeline and the incident are keyed.
"""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime

from slack_sdk.errors import SlackApiError

from bot.alerts.model import AlertBatch, Status
from bot.alerts.routes import Route
from bot.handlers.lookups import channel_info
from bot.handlers.nudges import send_due_nudges
from bot.handlers.work import JobPayload, post_once, slack_failure
from bot.handlers.work_recall import start_recall_thread
from bot.jobs import JobContext, job
from bot.models import IncidentRecord
from bot.services.alerts import StoredDelivery, incident_from, timeline_text
from bot.services.incidents import ChannelInfo
from bot.slack import messages

log = logging.getLogger(__name__)

CHANNEL_NAME_CHARS = 80  # Slack's limit


class AlertDelivery(JobPayload):
    delivery_id: int


async def start_delivery(services: object, delivery_id: int) -> None:
    """Queue the job of a stored delivery (once while it waits)."""
    await services.jobs.enqueue(  # type: ignore[attr-defined]
        deliver_alerts.name, AlertDelivery(delivery_id=delivery_id), dedupe_key=deliver_alerts.dedupe(delivery_id)
    )


def new_channel_name(route: Route, batch: AlertBatch, day: datetime) -> str:
    """inc-<service or alert name>-<yyyymmdd>: one channel per service and day, so the groups of
    one outage meet in one channel (Slack's rules: lowercase, digits, - and _, 80 at most)."""
    what = route.service or batch.labels().get("service") or batch.alerts[0].name
    slug = re.sub(r"[^a-z0-9_-]+", "-", what.lower()).strip("-_")[:60] or "alert"
    return f"inc-{slug}-{day:%Y%m%d}"[:CHANNEL_NAME_CHARS]


async def _invite(ctx: JobContext, channel_id: str, invite: tuple[str, ...]) -> None:
    """The route's people (user groups expanded) into a created channel, once."""
    key = f"alert-invite:{channel_id}"
    if not invite or await ctx.services.effects.done(key) is not None:
        return
    users: list[str] = [i for i in invite if not i.startswith("S")]
    for group in (i for i in invite if i.startswith("S")):
        try:
            users += (await ctx.client.usergroups_users_list(usergroup=group)).get("users") or []
        except SlackApiError as exc:
            log.warning("user group %s of an alert route could not be read: %s", group, exc.response.get("error"))
    users = list(dict.fromkeys(users))[:1000]
    if users:
        try:
            await ctx.client.conversations_invite(channel=channel_id, users=",".join(users))
        except SlackApiError as exc:
            if exc.response.get("error") != "already_in_channel":
                raise slack_failure(exc) from exc
    await ctx.services.effects.record(key)


async def _route_channel(ctx: JobContext, route: Route, batch: AlertBatch, *, create: bool) -> ChannelInfo | None:
    """The channel the route names (created if it says so and `create`); None when there is
    none or the bot is not in it (it could not post)."""
    client = ctx.client
    channel_id = route.channel_id()
    if channel_id is None and route.channel_name():
        channel_id = await ctx.lookups.channel_id_named(client, route.channel_name())
    if channel_id is None and route.create_channel:
        name = new_channel_name(route, batch, datetime.now(UTC))
        channel_id = await ctx.lookups.channel_id_named(client, name)
        if channel_id is None and create:
            try:
                channel_id = (await client.conversations_create(name=name))["channel"]["id"]
            except SlackApiError as exc:
                if exc.response.get("error") != "name_taken":
                    raise slack_failure(exc) from exc
                channel_id = await ctx.lookups.channel_id_named(client, name)
        if channel_id is not None and create:
            await _invite(ctx, channel_id, route.invite)
    if channel_id is None:
        return None
    try:
        channel = await channel_info(client, channel_id, lookups=ctx.lookups)
    except SlackApiError as exc:
        if exc.response.get("error") in ("channel_not_found", "not_in_channel"):
            return None
        raise slack_failure(exc) from exc
    return channel if channel.is_member else None


async def _incident(ctx: JobContext, stored: StoredDelivery, team_id: str) -> tuple[IncidentRecord | None, str]:
    """The incident the delivery goes to, and what happened: opened, joined, or why none."""
    services, batch = ctx.services, stored.batch
    firing = any(a.status is Status.FIRING for a in batch.alerts)
    if not firing:  # resolved: where these alerts fired, else the routed channel's open incident
        known = await services.alerts.incident_of(batch)
        if known is not None:
            incident = await services.incidents.get(*known)
            return incident, "joined" if incident is not None else "no_incident"
    route = services.alerts.route(batch)
    if route is None:
        return None, "unrouted"
    try:
        channel = await _route_channel(ctx, route, batch, create=firing)
    except SlackApiError as exc:  # a lookup by name Slack refused (e.g. a missing scope): said, not retried
        raise slack_failure(exc) from exc
    if channel is None:
        log.warning("alert route for %s names no channel the bot is in: nothing posted", batch.source.value)
        return None, "not_in_channel"
    if not firing:
        incident = await services.incidents.open_in(team_id, channel.id)
        return incident, "joined" if incident is not None else "no_incident"
    incident, new = await services.incidents.declare(team_id, channel, incident_from(route, batch), declared_by=None)
    return incident, "opened" if new else "joined"


# One at a time per worker: a group's resolve must not race its firing (it looks up the incident
# the firing opened), and two groups for one channel must not both open it. Alerts are few.
@job("alerts.deliver", AlertDelivery, max_attempts=10, deadline_s=6 * 3600, concurrency_limit=1)
async def deliver_alerts(ctx: JobContext, ref: AlertDelivery) -> None:
    services = ctx.services
    stored = await services.alerts.delivery(ref.delivery_id)
    if stored is None or stored.processed:
        return
    batch = stored.batch
    team_id = await ctx.lookups.team_id(ctx.client)
    incident, outcome = await _incident(ctx, stored, team_id)
    if incident is None:
        await services.alerts.finish(stored, outcome)
        return
    fresh = await services.alerts.news(stored.id, incident.team, incident.incident_id)
    if fresh:
        message = messages.alert_posted(
            batch.source.value, [s.alert for s in fresh], incident_id=incident.incident_id,
            opened=outcome == "opened", truncated=batch.truncated,
        )  # fmt: skip
        ts = await post_once(ctx, f"alerts:{stored.id}", incident.channel, message)
        await services.incidents.record_message(
            incident.team, incident.channel, ts, batch.source.value, timeline_text(batch.source.value, fresh),
            datetime.now(UTC), event_id=None,
        )  # fmt: skip
    if any(a.status is Status.FIRING for a in batch.alerts) and (
        outcome == "opened" or incident.recall_thread_ts is None
    ):
        # as for a declared incident, at alert time; once its alerts are its own: they are recalled by
        await start_recall_thread(services, incident)
    if any(s.alert.status is Status.RESOLVED for s in fresh) and await services.alerts.all_resolved(
        incident.team, incident.incident_id
    ):
        if await services.nudges.alerts_resolved(incident):
            await send_due_nudges(ctx.client, services)
    await services.alerts.finish(
        stored, outcome, channel_id=incident.channel, team_id=incident.team, incident_id=incident.incident_id
    )
