"""What a command checks before it starts anything (the embedded database included): each
problem is one line that names the setting and the fix."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from bot.config import ConfigurationError, Settings, default_data_dir
from bot.memory.embedded import MAX_DATA_DIR_CHARS


def _data_dir_name(settings: Settings) -> str:
    if settings.incident_memory_data_dir is not None:
        return f"INCIDENT_MEMORY_DATA_DIR={settings.incident_memory_data_dir}"
    return f"the data folder {default_data_dir()} (INCIDENT_MEMORY_DATA_DIR)"


def check_data_dir(settings: Settings) -> None:
    """Without DATABASE_URL the embedded PostgreSQL lives in the data folder: it must be a folder
    this user can write, with a path short enough for PostgreSQL's socket."""
    if settings.database_url:
        return
    folder: Path = settings.data_dir
    fix = "set INCIDENT_MEMORY_DATA_DIR to a folder you can write, or DATABASE_URL to a PostgreSQL server"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigurationError(
            f"{_data_dir_name(settings)} cannot be created ({exc.strerror or exc}): {fix}"
        ) from exc
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigurationError(f"{_data_dir_name(settings)} is not a folder you can write: {fix}")
    if len(str((folder / "pg").resolve())) > MAX_DATA_DIR_CHARS:
        raise ConfigurationError(
            f"{_data_dir_name(settings)} is too long for PostgreSQL's socket (over {MAX_DATA_DIR_CHARS} characters "
            "with /pg): set INCIDENT_MEMORY_DATA_DIR to a shorter folder"
        )


def check_vocabulary(settings: Settings) -> None:
    """A team's own concept vocabulary, read now rather than at the first recall."""
    if settings.incident_memory_concepts_path is None:
        return
    from bot.recall.concepts import VocabularyError, load_vocabulary

    try:
        load_vocabulary(settings.incident_memory_concepts_path)
    except VocabularyError as exc:
        detail = str(exc).removeprefix(f"{settings.incident_memory_concepts_path}: ")
        raise ConfigurationError(
            f"INCIDENT_MEMORY_CONCEPTS_PATH={settings.incident_memory_concepts_path}: {detail}; fix the file "
            "(shaped like bot/data/concepts.json), or unset INCIDENT_MEMORY_CONCEPTS_PATH"
        ) from exc


def check_slack_settings(settings: Settings) -> None:
    if not settings.slack_bot_token:
        raise ConfigurationError(
            "SLACK_BOT_TOKEN is not set: copy the Bot User OAuth Token (xoxb-…) from your Slack app's "
            "OAuth & Permissions page into SLACK_BOT_TOKEN"
        )
    if not settings.slack_signing_secret and not settings.slack_app_token:
        raise ConfigurationError(
            "SLACK_SIGNING_SECRET is not set: over HTTP set it to the Signing Secret of your Slack app's Basic "
            "Information page, or use Socket Mode instead by setting SLACK_APP_TOKEN (xapp-…, scope connections:write)"
        )


@dataclass(frozen=True, slots=True)
class Workspace:
    team: str
    team_id: str
    bot_user: str
    url: str


async def check_slack_token(settings: Settings) -> Workspace:
    """auth.test: is SLACK_BOT_TOKEN a token Slack accepts, and for which workspace."""
    from slack_sdk.errors import SlackApiError
    from slack_sdk.web.async_client import AsyncWebClient

    client = AsyncWebClient(token=settings.slack_bot_token, base_url=settings.slack_api_url, timeout=15)
    try:
        answer = await client.auth_test()
    except SlackApiError as exc:
        error = exc.response.get("error") if isinstance(exc.response.data, dict) else exc.response.status_code
        raise ConfigurationError(
            f"Slack refused SLACK_BOT_TOKEN ({error}): copy the Bot User OAuth Token (xoxb-…) from your Slack app's "
            "OAuth & Permissions page again (reinstall the app if it was revoked)"
        ) from exc
    except Exception as exc:  # noqa: BLE001 - aiohttp's and the SDK's connection errors have no common base
        raise ConfigurationError(
            f"cannot reach Slack's Web API at {settings.slack_api_url} ({type(exc).__name__}: {exc}): check the "
            "network, or SLACK_API_URL if you set it"
        ) from exc
    if settings.slack_app_token:
        await _check_app_token(settings)
    return Workspace(
        team=str(answer.get("team") or ""),
        team_id=str(answer.get("team_id") or ""),
        bot_user=str(answer.get("user") or ""),
        url=str(answer.get("url") or ""),
    )


async def _check_app_token(settings: Settings) -> None:
    """Socket Mode starts with apps.connections.open; the SDK retries a refusal for ever, so ask once."""
    from slack_sdk.errors import SlackApiError
    from slack_sdk.web.async_client import AsyncWebClient

    client = AsyncWebClient(token=settings.slack_app_token, base_url=settings.slack_api_url, timeout=15)
    try:
        await client.apps_connections_open(app_token=settings.slack_app_token)
    except SlackApiError as exc:
        error = exc.response.get("error") if isinstance(exc.response.data, dict) else exc.response.status_code
        raise ConfigurationError(
            f"Slack refused SLACK_APP_TOKEN ({error}): create an app-level token with connections:write (Basic "
            "Information → App-Level Tokens), or unset SLACK_APP_TOKEN to serve over HTTP with SLACK_SIGNING_SECRET"
        ) from exc
