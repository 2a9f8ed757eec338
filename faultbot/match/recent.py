"""The results of the last few calls of a costly function, for text that is read twice in a row.

Each line a large log's repeat gate judges (faultbot/ingest/repeats.py) is matched and read for
facts to learn its evidence, then again as a record a moment later; a flood of lines that all
differ would pay both every time. A handful of entries is enough: the two calls are a line or two
apart.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")
KEPT = 8


class Recent(Generic[T]):
    """``compute(key)``, remembered for the last ``KEPT`` keys."""

    def __init__(self, compute: Callable[..., T]) -> None:
        self._compute = compute
        self._results: dict[Hashable, T] = {}

    def __call__(self, *key: Hashable) -> T:
        found = self._results.get(key)
        if found is None:
            if len(self._results) >= KEPT:
                del self._results[next(iter(self._results))]
            found = self._results[key] = self._compute(*key)
        return found
