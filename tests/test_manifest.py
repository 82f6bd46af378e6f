"""manifest.yml is what a team pastes into Slack: it must be valid, and say exactly what the
code handles."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from bot.config import PROJECT_ROOT
from bot.handlers import COMMANDS, EVENTS, SHORTCUTS, register_all

SCHEMA = PROJECT_ROOT.parent / "shared" / "specs" / "slack-app-manifest.schema.v1.json"
MANIFEST = yaml.safe_load((PROJECT_ROOT / "manifest.yml").read_text())


class RecordingApp:
    """Stands in for Bolt's AsyncApp during registration and records what is registered."""

    def __init__(self) -> None:
        self.registered: dict[str, set[str]] = {"command": set(), "event": set(), "action": set(), "view": set(), "shortcut": set()}

    def middleware(self, middleware):  # noqa: ANN001, ANN201 - every request's context, not a surface
        return middleware

    def error(self, handler):  # noqa: ANN001, ANN201 - the one error handler, not a surface
        return handler

    def __getattr__(self, kind: str):  # noqa: ANN204
        if kind not in self.registered:
            raise AttributeError(kind)

        def register(name: str, **_options: object):  # noqa: ANN202 - e.g. middleware=[...]
            self.registered[kind].add(name)
            return lambda listener: listener

        return register


def _registered() -> dict[str, set[str]]:
    app = RecordingApp()
    register_all(app, services=None)  # type: ignore[arg-type] - registration reads no service
    return app.registered


def _listeners() -> tuple[set[str], set[str]]:
    registered = _registered()
    return registered["command"], registered["event"]


@pytest.mark.skipif(not SCHEMA.exists(), reason="shared/specs is not beside the checkout")
def test_manifest_is_valid_against_slacks_schema() -> None:
    jsonschema.validate(MANIFEST, json.loads(SCHEMA.read_text()))


def test_manifest_declares_exactly_what_the_code_handles() -> None:
    commands, events = _listeners()
    assert commands == set(COMMANDS)
    assert events == set(EVENTS)
    declared_commands = {c["command"] for c in MANIFEST["features"]["slash_commands"]}
    assert declared_commands == commands
    # Slack names message events by where they happen; both map to the one `message` listener
    declared_events = {e.split(".")[0] for e in MANIFEST["settings"]["event_subscriptions"]["bot_events"]}
    assert declared_events == events
    assert MANIFEST["settings"]["interactivity"]["is_enabled"] is True


def test_manifest_asks_for_the_scopes_the_bot_needs_and_no_more() -> None:
    scopes = set(MANIFEST["oauth_config"]["scopes"]["bot"])
    assert scopes == {
        "commands", "chat:write", "channels:history", "groups:history", "channels:read", "groups:read", "users:read",
        "usergroups:read",  # MEMORY_REVIEWERS may name a user group
    }  # fmt: skip


def test_every_url_points_at_the_events_endpoint() -> None:
    from bot.app import SLACK_EVENTS_PATH

    urls = [c["url"] for c in MANIFEST["features"]["slash_commands"]]
    urls += [MANIFEST["settings"]["event_subscriptions"]["request_url"], MANIFEST["settings"]["interactivity"]["request_url"]]
    assert all(Path(u.split("://", 1)[1]).as_posix().endswith(SLACK_EVENTS_PATH) for u in urls)


def test_the_message_shortcut_and_app_home_are_declared_as_the_code_handles_them() -> None:
    registered = _registered()
    assert registered["shortcut"] == set(SHORTCUTS)
    declared = {s["callback_id"]: s["type"] for s in MANIFEST["features"]["shortcuts"]}
    assert declared == {callback_id: "message" for callback_id in SHORTCUTS}
    # App Home is published per person on app_home_opened; nudges reach declarers in Messages
    assert "app_home_opened" in registered["event"]
    assert MANIFEST["features"]["app_home"]["home_tab_enabled"] is True
    assert MANIFEST["features"]["app_home"]["messages_tab_enabled"] is True
