"""How the command line runs: its argument parser's rules (JSON usage errors, options a
command refuses by saying why, bounded numbers), quiet logging, and signals that clean up."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, NoReturn

from bot.cli.output import EXIT_SIGTERM, EXIT_USAGE, Output


def at_least(low: int, high: int | None = None) -> Callable[[str], int]:
    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from exc
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(
                f"{value} is out of range: give {low}…{high}" if high else f"{value} is below {low}"
            )
        return value

    return number


class Refused(argparse.Action):
    """An option a command refuses by saying why, rather than 'unrecognized arguments'."""

    def __init__(self, *args: Any, refusal: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.refusal = refusal

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: str | None = None
    ) -> None:
        parser.error(f"{option} is not an option of {parser.prog.split()[-1]}: {self.refusal}")


class NonBlank(argparse.Action):
    """Words that must say something: blank text (`recall ''`) is a usage error, not a search."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: str | None = None
    ) -> None:
        if not " ".join(values).strip():
            parser.error(f"{self.dest} is empty: say what to look for")
        setattr(namespace, self.dest, values)


class Parser(argparse.ArgumentParser):
    """argparse whose usage errors come out as JSON when --json is on the command line."""

    json_errors = False

    def error(self, message: str) -> NoReturn:
        if Parser.json_errors:
            Output(json_mode=True).error(f"{self.prog}: {message}")
            self.exit(EXIT_USAGE)
        super().error(message)


def version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("incident-memory")
    except PackageNotFoundError:
        return "unknown"


def configure_logging(verbose: bool) -> None:
    """Quiet by default: warnings only. -v adds what happens, such as where the database is."""
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    # pgserver narrates every start in detail, and its failures reach the user as our one line
    logging.getLogger("pgserver").setLevel(logging.WARNING if verbose else logging.CRITICAL)


async def until_signalled(work: Awaitable[int]) -> int:
    """Run a command; SIGTERM cancels it like Ctrl-C does, so every cleanup runs (asyncio
    turns SIGINT into the same cancellation, then KeyboardInterrupt)."""
    task = asyncio.current_task()
    assert task is not None
    terminated = False

    def on_sigterm() -> None:
        nonlocal terminated
        if not terminated:
            terminated = True
            task.cancel()

    loop = asyncio.get_running_loop()
    before = signal.getsignal(signal.SIGTERM)
    try:
        loop.add_signal_handler(signal.SIGTERM, on_sigterm)
        handled = True
    except (RuntimeError, ValueError):  # not the main thread (a caller's worker thread): its caller's signals
        handled = False
    try:
        return await work
    except asyncio.CancelledError:
        if terminated:
            return EXIT_SIGTERM
        raise
    finally:
        if handled:
            # The loop's removal leaves SIGTERM at its default, which kills the process outright: between here and
            # the program's exit (asyncio.run's shutdown, the embedded PostgreSQL's stop at exit) that would skip the
            # stop and leave the server running. Put back what the caller had (bot.cli.run: exit as by sys.exit).
            loop.remove_signal_handler(signal.SIGTERM)
            if before is not None:
                signal.signal(signal.SIGTERM, before)


def timestamp(text: str) -> datetime:
    """An argument that is a time (ISO 8601; a time without a zone is UTC)."""
    try:
        value = datetime.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 time: {text!r}") from exc
    return value if value.tzinfo else value.replace(tzinfo=UTC)
