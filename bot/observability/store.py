"""Store errors, counted at the store boundary: a thin proxy around a memory or incident store.

Conflicts, not-found and refused truth moves are answers, not failures: they are not counted.
Everything else a store call raises (StoreUnavailable, a driver error) is, by store and
operation, and then raised on unchanged.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, TypeVar, cast

from bot.errors import MemoryConflict, MemoryNotFound, PurgeRefused, TruthMoveRefused
from bot.observability.metrics import Metrics

T = TypeVar("T")
_ANSWERS = (MemoryConflict, MemoryNotFound, PurgeRefused, TruthMoveRefused)


class _CountingStore:
    def __init__(self, store: Any, metrics: Metrics, name: str) -> None:
        self._store = store
        self._metrics = metrics
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        value = getattr(self._store, attribute)
        if attribute.startswith("_") or not inspect.iscoroutinefunction(value):
            return value

        @functools.wraps(value)
        async def counted(*args: Any, **kwargs: Any) -> Any:
            try:
                return await value(*args, **kwargs)
            except _ANSWERS:
                raise
            except Exception:
                self._metrics.store_errors.labels(store=self._name, operation=attribute).inc()
                raise

        return counted

    def __repr__(self) -> str:
        return f"<counted {self._name} store {self._store!r}>"


def count_store_errors(store: T, metrics: Metrics, *, name: str) -> T:
    """`store`, with every failing async call counted in store_errors_total{store=name}."""
    return cast(T, _CountingStore(store, metrics, name))
