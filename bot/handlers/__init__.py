"""Slack surfaces, one module each, all registered from here.

Every handler acknowledges first (Slack allows 3 s, and a trigger_id opens one modal once),
then hands slow work to `services.background`. Handlers call services and bot.slack renderers;
they hold no SQL and build no Block Kit themselves.
"""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp

from bot.app import Services
from bot.handlers import (
    action_incident,
    action_memory,
    action_open_form,
    command_incident,
    command_investigate,
    command_recall,
    event_member_joined,
    event_message,
    view_correction,
    view_declare,
    view_reject,
    view_resolution,
    work,
)
from bot.jobs import JobKind

SURFACES = (
    command_incident,
    command_recall,
    command_investigate,
    event_message,
    event_member_joined,
    action_memory,
    action_incident,
    action_open_form,
    view_declare,
    view_resolution,
    view_correction,
    view_reject,
)

# What the app registers, for the manifest test (it must list exactly these).
COMMANDS = ("/incident", "/recall", "/investigate")
EVENTS = ("message", "member_joined_channel")


def all_jobs() -> tuple[JobKind[Any], ...]:
    """Every kind of job the surfaces start: what the worker runs."""
    return (
        work.recall_thread, work.record_message, work.detect_incident, work.answer_recall, work.show_memory,
        work.run_investigation, work.post_ephemeral, work.post_to_channel, action_memory.record_feedback,
    )  # fmt: skip


def register_all(app: AsyncApp, services: Services) -> None:
    for surface in SURFACES:
        surface.register(app, services)
