"""The fixtures' own database connections leave nothing behind when cancelled.

The clones of tests/conftest.py connect in the background while a test runs; a synchronous test
holding the event loop past their connect timeout cancels them mid-connect. With asyncpg's
default TLS negotiation (`prefer`), a connect cancelled while it waits for the server's answer
to its SSLRequest leaves that answer's future failed and never retrieved, logged at interpreter
exit ("Future exception was never retrieved … unexpected connection_lost()"). Here a connect is
cancelled at every step of its way in turn (conftest's session check catches the rest).
"""

from __future__ import annotations

import asyncio
import gc

from tests.conftest import _admin


async def test_an_admin_connect_cancelled_at_any_step_leaves_no_future_unretrieved(admin_dsn: str) -> None:
    loop = asyncio.get_running_loop()
    previous = loop.get_exception_handler()
    logged: list[str] = []
    loop.set_exception_handler(lambda _, context: logged.append(str(context.get("message"))))
    try:
        for steps in range(1, 1_000):  # cancelled after 1, 2, 3 … steps of the loop, until one connects
            attempt = asyncio.ensure_future(_admin(admin_dsn))
            for _ in range(steps):
                await asyncio.sleep(0.0002)  # a step that lets the server's answers in
            attempt.cancel()
            try:
                await (await attempt).close()
                break  # the whole connect fitted: every step of it was cut once before
            except asyncio.CancelledError:
                pass
            finally:
                for _ in range(3):  # the transport's connection_lost runs a step after its close
                    await asyncio.sleep(0)
                gc.collect()
        else:
            raise AssertionError("no connect completed in 1,000 steps")
    finally:
        loop.set_exception_handler(previous)
    assert logged == []
