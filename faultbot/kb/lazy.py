"""A read-only mapping whose values are unpickled on first use.

A compiled knowledge base keeps each entry and each article as its own pickle, so a diagnosis
that touches three entries reads three, however large the KB grows.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

V = TypeVar("V")


class LazyTable(Mapping[str, V], Generic[V]):
    """Keys in the order given; a value is unpickled the first time it is read, then kept."""

    def __init__(self, values: Mapping[str, V]):
        self._keys = tuple(values)
        self._values: dict[str, V] = dict(values)
        self._blobs: dict[str, bytes] = {}

    def __getitem__(self, key: str) -> V:
        try:
            return self._values[key]
        except KeyError:
            pass
        value: V = pickle.loads(self._blobs[key])  # safe to unpickle: written by our own cache
        self._values[key] = value
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._values or key in self._blobs

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __reduce__(self) -> tuple[Callable[[dict[str, bytes]], LazyTable[V]], tuple[dict[str, bytes]]]:
        blobs = {key: self._blobs.get(key) or pickle.dumps(self._values[key], protocol=pickle.HIGHEST_PROTOCOL)
                 for key in self._keys}
        return _from_blobs, (blobs,)


def _from_blobs(blobs: dict[str, bytes]) -> LazyTable[V]:
    table: LazyTable[V] = LazyTable({})
    table._keys = tuple(blobs)
    table._blobs = blobs
    return table
