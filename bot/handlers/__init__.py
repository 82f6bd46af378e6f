"""Slack surfaces, one module each, holding plain module-level listener functions; all of them
are registered here, and only here.

Every listener acknowledges first (Slack allows 3 s, and a trigger_id opens one modal once),
then hands slow work to a durable job (bot/handlers/work*.py: the shared queueing and
once-only posting in work.py, the jobs by what they serve; events are queued before their ack).
Listeners find the services, this app's Slack lookups and the resolved team/user/channel in Bolt's `context`
(bot/handlers/context.py); one error handler turns any failure into a message the user sees.
They call services and bot.slack renderers; they hold no SQL and build no Block Kit themselves.
"""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp

from bot.handlers import (
    action_incident,
    action_memory,
    action_open_form,
    command_incident,
    command_investigate,
    command_recall,
    event_member_joined,
    event_message,
    home,
    nudges,
    resolution_form,
    shortcut_add_to_memory,
    view_confirm,
    view_correction,
    view_declare,
    view_reject,
    view_resolution,
    work,
    work_alerts,
    work_channel,
    work_embed,
    work_investigation,
    work_recall,
)
from bot.handlers.context import context_middleware
from bot.handlers.errors import report_error
from bot.handlers.lookups import SlackLookups
from bot.handlers.work import store_event_first
from bot.jobs import JobKind
from bot.services.container import Services
from bot.slack import ids
from bot.slack.commands import SlashCommands

# The events the app listens to, for the manifest test (the manifest subscribes to exactly these).
EVENTS = ("message", "member_joined_channel", "app_home_opened", "channel_archive", "group_archive")
SHORTCUTS = (ids.ADD_TO_MEMORY_SHORTCUT,)


def all_jobs() -> tuple[JobKind[Any], ...]:
    """Every kind of job the surfaces start: what the worker runs."""
    return (
        work_recall.recall_thread, work_channel.record_message, work_channel.detect_incident,
        work_recall.answer_recall, work_recall.show_memory, work_investigation.run_investigation,
        work.post_ephemeral, work.post_to_channel, action_memory.record_feedback,
        work_embed.embed_memories, nudges.ask_archived, resolution_form.show_draft, work_alerts.deliver_alerts,
    )  # fmt: skip


def register_all(
    app: AsyncApp, services: Services, lookups: SlackLookups | None = None, commands: SlashCommands | None = None
) -> None:
    """Wire every surface of `app` to its listener, with `services` in each request's context.
    The slash commands go by the names the settings give them (the manifest declares the same)."""
    commands = commands or SlashCommands()
    lookups = lookups or (SlackLookups.configured(services.settings) if services is not None else SlackLookups())
    app.middleware(context_middleware(services, lookups))
    app.error(report_error)

    app.command(commands.incident)(command_incident.incident_command)
    app.command(commands.recall)(command_recall.recall_command)
    app.command(commands.investigate)(command_investigate.investigate_command)

    # Bolt runs only the first `message` listener that matches: there is one, it dispatches
    store_message = store_event_first(work_channel.record_message, event_message.message_job)
    app.event("message", middleware=[store_message])(event_message.on_message)
    store_join = store_event_first(work_channel.detect_incident, event_member_joined.detect_job)
    app.event("member_joined_channel", middleware=[store_join])(event_member_joined.on_member_joined)
    app.event("app_home_opened")(home.on_home_opened)
    # an archived channel (public or private) with its incident still open: ask the declarer
    store_archive = store_event_first(nudges.ask_archived, nudges.archived_job)
    app.event("channel_archive", middleware=[store_archive])(nudges.on_channel_archived)
    app.event("group_archive", middleware=[store_archive])(nudges.on_channel_archived)

    app.shortcut(ids.ADD_TO_MEMORY_SHORTCUT)(shortcut_add_to_memory.on_add_to_memory)

    app.action(ids.MEMORY_HELPFUL)(action_memory.on_helpful)
    app.action(ids.MEMORY_NOT_RELEVANT)(action_memory.on_not_relevant)
    app.action(ids.MEMORY_ADD_CORRECTION)(action_memory.open_correction_modal)
    app.action(ids.MEMORY_REJECT)(action_memory.open_reject_modal)
    app.action(ids.MEMORY_CONFIRM)(action_memory.open_confirm_modal)
    app.action(ids.MEMORY_WHY)(action_memory.open_why_modal)
    app.action(ids.INCIDENT_INVESTIGATE)(action_incident.on_investigate)
    app.action(ids.INCIDENT_RESOLVE)(action_incident.on_resolve)
    app.action(ids.NUDGE_SAVE)(action_incident.on_resolve)
    app.action(ids.HOME_SEARCH)(home.on_home_search)
    app.action(ids.OPEN_FORM)(action_open_form.on_open_form)

    app.view(ids.DECLARE_MODAL)(view_declare.on_declare)
    app.view(ids.RESOLUTION_MODAL)(view_resolution.on_resolution)
    app.view(ids.CORRECTION_MODAL)(view_correction.on_correction)
    app.view(ids.REJECT_MODAL)(view_reject.on_reject)
    app.view(ids.CONFIRM_MODAL)(view_confirm.on_confirm)
    app.view(ids.MARK_MODAL)(shortcut_add_to_memory.on_mark)
