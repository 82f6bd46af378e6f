"""The connection pool's errors say what happened: busy is not down."""

from __future__ import annotations

import pytest

from bot.memory.pool import create_pool


async def test_waiting_for_a_connection_is_told_apart_from_a_database_that_is_down(
    database_url: str, monkeypatch
) -> None:  # noqa: ANN001
    from bot.errors import StoreBusy
    from bot.memory import pool as pool_module

    monkeypatch.setattr(pool_module, "ACQUIRE_TIMEOUT_S", 0.2)
    pool = await create_pool(database_url, max_size=1)
    try:
        async with pool_module.acquire(pool):
            with pytest.raises(StoreBusy, match="busy"):
                async with pool_module.acquire(pool):
                    pass
    finally:
        await pool.close()
