"""Remembering the results of costly functions of log text, within a bound.

``Recent`` keeps the last few: each line a large log's repeat gate judges
(faultbot/ingest/repeats.py) is matched and read for facts to learn its evidence, then again as a
record a moment later; a flood of lines that all differ would pay both every time. A handful of
entries is enough: the two calls are a line or two apart.

``Remembered`` keeps up to a few thousand, for text met again anywhere in a reading (a message
printed at every step, a flood whose lines differ only in numbers masks to one message), and
forgets them all at once when full, which costs less than choosing which to forget. Text longer than
its bound is not kept, so what is kept stays a few MB whatever the lines' lengths.
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


class Remembered(Generic[T]):
    """``compute(text, *rest)``, remembered for up to ``size`` keys whose text is at most
    ``max_chars`` long."""

    def __init__(self, compute: Callable[..., T], size: int = 4096, max_chars: int = 1024) -> None:
        self._compute = compute
        self._size = size
        self._max_chars = max_chars
        self._results: dict[tuple[Hashable, ...], T] = {}

    def __call__(self, text: str, *rest: Hashable) -> T:
        if len(text) > self._max_chars:
            return self._compute(text, *rest)
        key = (text, *rest)
        found = self._results.get(key)
        if found is None:
            if len(self._results) >= self._size:
                self._results.clear()
            found = self._results[key] = self._compute(text, *rest)
        return found
