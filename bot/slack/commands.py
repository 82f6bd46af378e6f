"""The slash command names this app answers to, as the settings name them (SLACK_INCIDENT_COMMAND
…): what Slack text tells a person to type says the same names the app registered.

The composition root sets them once, when it builds the Slack app (`use`); the renderers read
them (`in_use`). One Slack app per process, so one set of names.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SlashCommands:
    incident: str = "/incident"
    recall: str = "/recall"
    investigate: str = "/investigate"

    def all(self) -> tuple[str, str, str]:
        return (self.incident, self.recall, self.investigate)


_in_use = SlashCommands()


def use(commands: SlashCommands) -> None:
    global _in_use  # noqa: PLW0603 - set once by the composition root
    _in_use = commands


def in_use() -> SlashCommands:
    return _in_use
