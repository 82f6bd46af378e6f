"""`python -m bot.cli …`: the `incident-memory` program, as the worker processes and tests start it."""

from bot.cli import run

if __name__ == "__main__":  # importing it (the architecture test imports every module) runs nothing
    run()
