"""ALERT_ROUTES: which channel an alert group goes to, read from a YAML file the team keeps.

    routes:
      - match: {service: checkout}        # every label given must be equal (service included)
        channel: "#inc-checkout"          # a channel id (C…) or name
        severity: SEV2                    # optional: else the alert's `severity` label
      - match: {team: payments}
        create_channel: true              # a new inc-… channel per service and day
        invite: [U012AB3CD, S0G1234]      # user or user-group ids, invited to a created channel
        service: payments

Routes are tried in order; the first whose `match` the group's labels satisfy wins (an empty
`match` takes everything). No route: the alert is stored and counted, and nothing is posted.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import yaml
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from bot.alerts.model import AlertBatch
from bot.config import ConfigurationError, Settings

MAX_ROUTES_BYTES = 256 * 1024
SLACK_ID = re.compile(r"^[CG][A-Z0-9]{1,20}$")  # ids are upper case; names never are
_INVITEE = re.compile(r"^[UWS][A-Z0-9]{1,20}$")
Short = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class Route(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    match: dict[Short, Short] = Field(default_factory=dict)
    channel: Short | None = None
    create_channel: bool = False
    service: Short | None = None
    severity: Short | None = None
    invite: tuple[Short, ...] = ()

    @model_validator(mode="after")
    def _a_destination(self) -> Route:
        if not self.channel and not self.create_channel:
            raise ValueError("a route needs a channel (an id or a name), or create_channel: true")
        bad = [i for i in self.invite if not _INVITEE.match(i)]
        if bad:
            raise ValueError(f"invite takes Slack user ids (U…, W…) or user group ids (S…), not {bad[0]!r}")
        return self

    def matches(self, labels: dict[str, str]) -> bool:
        return all(labels.get(key) == value for key, value in self.match.items())

    def channel_id(self) -> str | None:
        return self.channel if self.channel and SLACK_ID.match(self.channel) else None

    def channel_name(self) -> str | None:
        return self.channel.lstrip("#") if self.channel and not SLACK_ID.match(self.channel) else None


class AlertRoutes(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    routes: tuple[Route, ...] = ()

    def route(self, batch: AlertBatch) -> Route | None:
        labels = batch.labels()
        return next((r for r in self.routes if r.matches(labels)), None)

    @property
    def creates_channels(self) -> bool:
        return any(r.create_channel or r.invite for r in self.routes)


def _where(error: dict) -> str:
    return ".".join(str(part) for part in error["loc"]) or "the file"


def load_routes(path: Path) -> AlertRoutes:
    """The routes in `path`; ConfigurationError naming ALERT_ROUTES, the place and the fix."""
    setting = f"ALERT_ROUTES={path}"
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigurationError(
            f"{setting} cannot be read ({exc.strerror or exc}): fix the path, or unset ALERT_ROUTES"
        ) from exc
    if len(raw) > MAX_ROUTES_BYTES:
        raise ConfigurationError(f"{setting} is over {MAX_ROUTES_BYTES // 1024} KiB: a routing file is a few routes")
    try:
        document = yaml.safe_load(raw.decode("utf-8")) or {}
    except (UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ConfigurationError(f"{setting} is not YAML ({type(exc).__name__}): fix the file") from exc
    if isinstance(document, list):  # a bare list of routes is accepted too
        document = {"routes": document}
    try:
        return AlertRoutes.model_validate(document)
    except ValidationError as exc:
        first = exc.errors()[0]
        message = first["msg"].removeprefix("Value error, ")
        raise ConfigurationError(
            f"{setting}: {_where(first)}: {message}; fix the file (see the README's Alerts section)"
        ) from exc


def alert_routes(settings: Settings) -> AlertRoutes | None:
    """The routes when ALERT_ROUTES is set (None: the alert receivers answer 404). Set without
    any secret, nothing could ever authenticate: refused, naming what is missing."""
    if settings.alert_routes is None:
        return None
    if not settings.alerts_token and not settings.pagerduty_webhook_secret:
        raise ConfigurationError(
            "ALERT_ROUTES is set but neither ALERTS_TOKEN nor PAGERDUTY_WEBHOOK_SECRET is: set ALERTS_TOKEN (the bearer "
            "token Alertmanager, Grafana and Opsgenie send) and/or PAGERDUTY_WEBHOOK_SECRET, or unset ALERT_ROUTES"
        )
    return load_routes(settings.alert_routes)
