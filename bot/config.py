"""Every setting, read from the environment in one place."""

from __future__ import annotations

import os
import re
from functools import cached_property
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.recall.floor import DEFAULT_FLOOR
from bot.text_limits import DOCUMENT_CHARS, DRAFT_CHARS, DRAFT_MESSAGES, INCIDENT_MESSAGES, MESSAGE_CHARS, ReadLimits

PROJECT_ROOT = Path(__file__).resolve().parent.parent  # the checkout (tests, bench, docs); absent when installed
# Inside the package, so an installed wheel has them too (in a checkout, a link to migrations/)
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
POSTGRES_SCHEMES = ("postgresql", "postgres")
DATABASE_URL_SHAPE = "postgresql://USER:PASSWORD@HOST:5432/DATABASE"
SLASH_COMMAND = re.compile(r"/[a-z0-9][a-z0-9_-]{0,30}")


class ConfigurationError(Exception):
    """A setting that cannot work, worded as one line that names the setting and the fix."""


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "incident-memory"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", extra="ignore", case_sensitive=False)

    database_url: str | None = Field(
        default=None, description="PostgreSQL URL; unset runs an embedded PostgreSQL in the data folder"
    )
    incident_memory_data_dir: Path | None = Field(
        default=None, description="where the embedded PostgreSQL keeps its data (default: the user's data folder)"
    )
    incident_memory_team: str = Field(default="local", description="team_id the CLI reads and writes")
    migrations_dir: Path = Field(default=MIGRATIONS_DIR, description="folder of NNNN_name.sql files")
    slack_bot_token: str | None = Field(default=None, description="xoxb- token of the Slack app")
    slack_signing_secret: str | None = Field(default=None, description="verifies Slack's requests")
    slack_app_token: str | None = Field(default=None, description="xapp- token: set → Socket Mode")
    slack_api_url: str = Field(default="https://slack.com/api/", description="Slack Web API base")
    slack_timeout_s: float = Field(
        default=30.0, gt=0, description="a Slack Web API call unanswered this long fails (its job then retries)"
    )
    slack_incident_command: str = Field(default="/incident", description="slash command to declare, resolve, show")
    slack_recall_command: str = Field(default="/recall", description="slash command to recall past incidents")
    slack_investigate_command: str = Field(default="/investigate", description="slash command to investigate")
    anthropic_api_key: str | None = Field(default=None, description="unset → offline investigator")
    anthropic_model: str = Field(default="claude-sonnet-5", description="model for investigations")
    anthropic_base_url: str | None = Field(default=None, description="Messages API base URL")
    anthropic_guard_model: str = Field(
        default="claude-haiku-5-5",
        description="small model giving the guard a second opinion on each sentence of an investigation; empty → the guard's rules alone",
    )
    investigation_guard_timeout_s: float = Field(
        default=10.0,
        gt=0,
        description="give up on the guard's second opinion after this long (the rules then decide alone)",
    )
    incident_memory_concepts_path: Path | None = Field(
        default=None,
        description="a team's own incident vocabulary (JSON, as bot/data/concepts.json), added to the built-in one",
    )
    embeddings_url: str | None = Field(
        default=None,
        description="OpenAI-compatible embeddings API (e.g. http://127.0.0.1:8089/v1): set → semantic recall; unset → lexical only",
    )
    embeddings_model: str | None = Field(default=None, description="model name sent to the embeddings endpoint")
    embeddings_api_key: str | None = Field(
        default=None, description="Bearer token for the embeddings endpoint, if it needs one"
    )
    embeddings_include_private: bool = Field(
        default=False,
        description="also send private channels' memories and queries to the embeddings endpoint (a server you run)",
    )
    embeddings_timeout_s: float = Field(
        default=1.0, gt=0, description="a recall waits this long for its query's vector, then answers lexically"
    )
    recall_floor: float = Field(
        default=DEFAULT_FLOOR,
        ge=0,
        le=1,
        description="relevance a memory needs to join a thread the recall judgement posts (0–1; docs/BENCHMARKS.md)",
    )
    recall_when_nothing_found: Literal["line", "silent"] = Field(
        default="line", description="a new incident with no memory above the floor: one short line, or nothing"
    )
    rules_dir: Path | None = Field(
        default=None, description="folder of reviewed rule files (YAML, kept in git); unset → no rules are used"
    )
    investigation_timeout_s: float = Field(default=60.0, gt=0, description="give up on the model after this long")
    investigate_private_with_model: bool = Field(
        default=False, description="send private channels' incidents and memories to the model"
    )
    memory_reviewers: str | None = Field(
        default=None,
        description="Slack user ids and/or one user group id (comma-separated) who may confirm, reject, "
        "verify and purge memories, besides the incident's declarer and workspace admins",
    )
    memory_corrections_max: int = Field(
        default=10, ge=0, le=100, description="corrections (unverified additions) a memory keeps at most"
    )
    memory_corrections_per_person: int = Field(
        default=3, ge=0, le=100, description="corrections one person may add to one memory"
    )
    incident_channel_pattern: str = Field(default="^inc-", description="channels watched as incidents")
    resolution_nudge_after_h: float = Field(
        default=4.0,
        gt=0,
        description="ask for an open incident's outcome once its channel has been quiet this many hours",
    )
    resolution_reminder_after_h: float = Field(
        default=24.0, gt=0, description="the one reminder to the declarer comes this many hours after the ask"
    )
    nudge_sweep_s: float = Field(default=60.0, gt=0, description="how often `serve` looks for nudges that are due")
    drafting_timeout_s: float = Field(
        default=20.0, gt=0, description="give up on the model's draft after this long (the rules' draft stays)"
    )
    timeline_retention_days: float | None = Field(
        default=None, gt=0, description="delete channel messages of incidents resolved longer ago than this"
    )
    guest_channels: Literal["isolated", "public"] = Field(
        default="isolated",
        description="a channel with guests is kept to itself, as a Slack Connect channel is (isolated), or not (public)",
    )
    metrics_token: str | None = Field(
        default=None, description="when set, GET /metrics needs `Authorization: Bearer <token>`"
    )
    job_workers: int = Field(
        default=1, ge=0, le=16,
        description="worker processes `serve` starts for jobs, so their work never delays Slack's acks (0: in `serve`'s own process)",
    )  # fmt: skip
    job_concurrency: int = Field(
        default=8,
        ge=2,
        le=64,
        description="jobs (recall threads, investigations, answers) run at once by each instance",
    )
    shutdown_drain_s: float = Field(
        default=25.0,
        ge=0,
        description="at SIGTERM, how long jobs in flight may finish before they go back to the queue",
    )
    job_heartbeat_timeout_s: float = Field(
        default=30.0, ge=1, le=3600,
        description="a job whose worker has not beaten its heartbeat for this long (killed, or its database lost) runs again",
    )  # fmt: skip
    job_retry_base_s: float = Field(
        default=1.0, ge=0.01, le=60,
        description="a failed job runs again after this many seconds, doubled at each attempt (at most 60 s)",
    )  # fmt: skip
    # --- limits on members' text and on cost (docs/SECURITY.md "Limits") ---
    read_message_chars: int = Field(
        default=MESSAGE_CHARS, ge=1000, le=1_000_000,
        description="a channel message is stored and read up to this many characters",
    )  # fmt: skip
    read_draft_messages: int = Field(
        default=DRAFT_MESSAGES, ge=1, le=5000, description="a resolution draft reads the newest this many messages"
    )
    read_draft_chars: int = Field(
        default=DRAFT_CHARS, ge=1000, le=5_000_000,
        description="and at most this many characters of them in all (the model drafter too)",
    )  # fmt: skip
    import_max_document_chars: int = Field(
        default=DOCUMENT_CHARS, ge=1000, le=50_000_000,
        description="an imported postmortem (Markdown or text) longer than this is refused, not cut",
    )  # fmt: skip
    timeline_max_messages: int = Field(
        default=INCIDENT_MESSAGES, ge=10, le=1_000_000,
        description="messages kept per incident; past it the oldest are dropped (investigations say how many)",
    )  # fmt: skip
    reading_workers: int = Field(
        default=2, ge=0, le=16,
        description="processes that read text for jobs (drafts, the guard, the \"is it over?\" check) off the "
        "event loop; 0: in the job's own process (tests, tiny installs)",
    )  # fmt: skip
    reading_deadline_s: float = Field(
        default=20.0, gt=0, description="a reading job still running after this long is stopped, and says so"
    )
    investigations_per_person_per_hour: int = Field(
        default=6, ge=1, description="investigations one person may start per hour"
    )
    investigations_per_channel_per_hour: int = Field(
        default=20, ge=1, description="investigations one channel may start per hour"
    )
    drafts_per_person_per_hour: int = Field(
        default=6, ge=1, description="drafted resolutions one person may ask for per hour"
    )
    drafts_per_channel_per_hour: int = Field(
        default=20, ge=1, description="drafted resolutions one channel may ask for per hour"
    )
    port: int = Field(default=3000, ge=1, le=65535, description="HTTP port of `serve`")
    alert_routes: Path | None = Field(
        default=None,
        description="YAML file routing alert webhooks (Alertmanager, Grafana, PagerDuty, Opsgenie) to channels; "
        "unset → the /alerts/… receivers answer 404",
    )
    alerts_token: str | None = Field(
        default=None, description="bearer token Alertmanager, Grafana and Opsgenie must send to /alerts/…"
    )
    pagerduty_webhook_secret: str | None = Field(
        default=None, description="secret of the PagerDuty V3 webhook subscription (checks X-PagerDuty-Signature)"
    )
    alerts_max_body: int = Field(
        default=1024 * 1024, ge=1024, le=16 * 1024 * 1024, description="largest alert webhook body accepted (bytes)"
    )
    recall_alert_labels: str = Field(
        default="", description="comma-separated labels that identify an alert besides its name and `service` "
        "(e.g. `cluster,env`): the same alert recalls a past incident (bot/recall/alerts.py)"
    )  # fmt: skip
    recurrence_window_days: int = Field(
        default=90,
        ge=1,
        le=3650,
        description="how far back the recall thread counts the same alert's confirmed memories",
    )
    log_format: Literal["json", "text"] = Field(
        default="json", description="`serve`'s log lines: one JSON object per line, or text for a terminal"
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = Field(
        default="INFO", description="`serve`'s log level (DEBUG adds slack_sdk's request and response bodies)"
    )
    fly_app_name: str | None = Field(
        default=None, description="set by Fly.io on its machines: then DATABASE_URL is required"
    )

    @field_validator("log_format", "log_level", mode="before")
    @classmethod
    def _case_insensitive(cls, value: object, info: ValidationInfo) -> object:
        if not isinstance(value, str):
            return value
        return value.strip().lower() if info.field_name == "log_format" else value.strip().upper()

    @field_validator("database_url", mode="after")
    @classmethod
    def _a_postgres_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        parts = urlsplit(value)
        if "+" in parts.scheme and parts.scheme.split("+", 1)[0] in POSTGRES_SCHEMES:
            raise ValueError(
                f"{parts.scheme}:// is SQLAlchemy's spelling: write {parts.scheme.split('+', 1)[0]}://… instead"
            )
        if parts.scheme not in POSTGRES_SCHEMES:
            raise ValueError(f"not a PostgreSQL URL: expected {DATABASE_URL_SHAPE}")
        try:
            parts.port  # noqa: B018 - raises on a port that is not a number
        except ValueError as exc:
            raise ValueError(f"the port is not a number: expected {DATABASE_URL_SHAPE}") from exc
        return value

    @field_validator("slack_incident_command", "slack_recall_command", "slack_investigate_command", mode="after")
    @classmethod
    def _a_slash_command(cls, value: str) -> str:
        if not SLASH_COMMAND.fullmatch(value):
            raise ValueError("a slash command is / then 1 to 31 lowercase letters, digits, - or _ (e.g. /incident)")
        return value

    @model_validator(mode="after")
    def _distinct_commands(self) -> Settings:
        names = [self.slack_incident_command, self.slack_recall_command, self.slack_investigate_command]
        if len(set(names)) != len(names):
            raise ValueError(
                "SLACK_INCIDENT_COMMAND, SLACK_RECALL_COMMAND and SLACK_INVESTIGATE_COMMAND must be three different "
                f"commands (got {', '.join(names)})"
            )
        return self

    @field_validator("incident_channel_pattern", mode="after")
    @classmethod
    def _a_regular_expression(cls, value: str) -> str:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"not a regular expression ({exc})") from exc
        return value

    @cached_property
    def read_limits(self) -> ReadLimits:
        return ReadLimits(
            message_chars=self.read_message_chars, draft_messages=self.read_draft_messages,
            draft_chars=self.read_draft_chars, document_chars=self.import_max_document_chars,
        )  # fmt: skip

    @cached_property
    def data_dir(self) -> Path:
        return self.incident_memory_data_dir or default_data_dir()


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)


def settings_error_line(exc: ValidationError) -> str:
    """One line per setting the environment got wrong, each naming the variable and the fix."""
    lines = []
    for err in exc.errors():
        if not err["loc"]:  # a rule across settings: its message names them
            lines.append(err["msg"].removeprefix("Value error, "))
            continue
        name = str(err["loc"][0]).upper()
        given = os.environ.get(name, err.get("input"))  # as typed, before any normalising
        if name == "DATABASE_URL" and isinstance(given, str):
            given = _without_password(given)
        shown = f"{name}={given!r}" if isinstance(given, (str, int, float)) else name
        message = err["msg"].removeprefix("Value error, ")
        if name == "DATABASE_URL":
            fix = "fix DATABASE_URL, or unset it to use the embedded PostgreSQL"
        else:
            fix = f"fix {name}, or unset it for the default"
        lines.append(f"{shown}: {message}; {fix}")
    return "\n".join(lines)


def load_settings() -> Settings:
    """The settings, or ConfigurationError naming each variable that is wrong."""
    try:
        return Settings()
    except ValidationError as exc:
        raise ConfigurationError(settings_error_line(exc)) from exc
