"""Moved: the Web API stand-in is being split by responsibility (see bot/sandbox/__init__.py)."""

from bot.sandbox.workspace import *  # noqa: F403
from bot.sandbox.workspace import DEFAULT_APP_ID, DEFAULT_BOT_USER_ID, DEFAULT_TEAM_ID  # noqa: F401
