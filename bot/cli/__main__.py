"""`python -m bot.cli …`: the `incident-memory` program, as the worker processes and tests start it."""

from bot.cli import run

run()
