"""manifest.yml is what a team pastes into Slack: it must be valid, and say exactly what the
code handles. The slash command names are settings: the manifest (`incident-memory manifest`) and
the registered listeners follow the same ones, and Slack text names them too."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from bot.config import PROJECT_ROOT, Settings
from bot.handlers import EVENTS, SHORTCUTS, register_all
from bot.manifest import app_manifest
from bot.slack.commands import SlashCommands

SCHEMA = PROJECT_ROOT.parent / "shared" / "specs" / "slack-app-manifest.schema.v1.json"
MANIFEST = yaml.safe_load((PROJECT_ROOT / "manifest.yml").read_text())


class RecordingApp:
    """Stands in for Bolt's AsyncApp during registration and records what is registered."""

    def __init__(self) -> None:
        self.registered: dict[str, set[str]] = {
            "command": set(),
            "event": set(),
            "action": set(),
            "view": set(),
            "shortcut": set(),
        }

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


CUSTOM = {"SLACK_INCIDENT_COMMAND": "/im-incident", "SLACK_RECALL_COMMAND": "/im-recall",
          "SLACK_INVESTIGATE_COMMAND": "/im-investigate"}  # fmt: skip


def _commands(settings: Settings) -> SlashCommands:
    return SlashCommands(
        settings.slack_incident_command, settings.slack_recall_command, settings.slack_investigate_command
    )


def _registered(settings: Settings | None = None) -> dict[str, set[str]]:
    app = RecordingApp()
    register_all(app, None, commands=_commands(settings or Settings()))  # type: ignore[arg-type] - registration reads no service
    return app.registered


def _listeners(settings: Settings | None = None) -> tuple[set[str], set[str]]:
    registered = _registered(settings)
    return registered["command"], registered["event"]


def test_manifest_yml_is_what_incident_memory_manifest_prints(capsys) -> None:  # noqa: ANN001
    from bot.cli import main

    assert main(["manifest"]) == 0
    assert capsys.readouterr().out == (PROJECT_ROOT / "manifest.yml").read_text()


def test_configured_command_names_reach_both_the_listeners_and_the_manifest(monkeypatch, capsys) -> None:  # noqa: ANN001
    from bot.cli import main

    for name, value in CUSTOM.items():
        monkeypatch.setenv(name, value)
    assert main(["manifest", "--host", "bot.example.org", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    declared = {c["command"] for c in printed["features"]["slash_commands"]}
    commands, _ = _listeners(Settings())
    assert declared == commands == set(CUSTOM.values())
    assert {c["url"] for c in printed["features"]["slash_commands"]} == {"https://bot.example.org/slack/events"}


def test_a_command_name_slack_would_refuse_is_one_line_naming_the_setting(monkeypatch, capsys) -> None:  # noqa: ANN001
    from bot.cli import main

    monkeypatch.setenv("SLACK_RECALL_COMMAND", "Recall Past")
    assert main(["manifest"]) == 1
    assert capsys.readouterr().err.startswith("error: SLACK_RECALL_COMMAND='Recall Past': a slash command is /")
    monkeypatch.setenv("SLACK_RECALL_COMMAND", "/incident")
    assert main(["manifest"]) == 1
    assert "must be three different commands" in capsys.readouterr().err


async def test_an_app_with_other_command_names_answers_to_them_and_says_them(database_url: str) -> None:
    """Next to incident.io's /incident: the bot answers /im-incident, and its help says so."""
    from bot.sandbox.local_bot import local_bot
    from bot.slack.commands import use

    settings = Settings(database_url=database_url, **{k.lower(): v for k, v in CUSTOM.items()})
    try:
        async with local_bot(settings) as bot:
            bot.sandbox.add_channel("C5", "inc-checkout")
            answer = await bot.slack.command("/im-incident", "help", user_id="U1", channel_id="C5")
            assert answer.status == 200
            text = json.dumps(answer.body)
            assert "/im-incident resolve" in text and "/im-recall [text]" in text and "/incident " not in text
            unknown = await bot.slack.command("/im-incident", "frobnicate", user_id="U1", channel_id="C5")
            assert "I don't know `/im-incident frobnicate`" in json.dumps(unknown.body)
            assert (await bot.slack.command("/incident", "help", user_id="U1", channel_id="C5")).status == 404
    finally:
        use(SlashCommands())  # one Slack app per process: back to the defaults for the other tests


@pytest.mark.skipif(not SCHEMA.exists(), reason="shared/specs is not beside the checkout")
def test_manifest_is_valid_against_slacks_schema() -> None:
    jsonschema.validate(MANIFEST, json.loads(SCHEMA.read_text()))


def test_manifest_declares_exactly_what_the_code_handles() -> None:
    commands, events = _listeners()
    assert (
        commands
        == {"/incident", "/recall", "/investigate"}
        == {c["command"] for c in app_manifest(Settings())["features"]["slash_commands"]}
    )
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
    urls += [
        MANIFEST["settings"]["event_subscriptions"]["request_url"],
        MANIFEST["settings"]["interactivity"]["request_url"],
    ]
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


def test_alert_routes_that_create_channels_add_the_one_scope_they_need(tmp_path: Path) -> None:
    from bot.alerts.routes import load_routes

    routes = tmp_path / "routes.yml"
    routes.write_text("routes:\n  - match: {service: checkout}\n    channel: C0123ABCD\n")
    plain = app_manifest(Settings(alert_routes=routes))["oauth_config"]["scopes"]["bot"]
    assert plain == MANIFEST["oauth_config"]["scopes"]["bot"]  # posting in a named channel needs nothing more
    routes.write_text("routes:\n  - match: {team: payments}\n    create_channel: true\n    invite: [U012AB3CD]\n")
    assert load_routes(routes).creates_channels
    creating = app_manifest(Settings(alert_routes=routes))["oauth_config"]["scopes"]["bot"]
    assert set(creating) - set(plain) == {"channels:manage"}
