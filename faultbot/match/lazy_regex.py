"""A KB regex compiled the first time it is used: a knowledge base holds thousands, a diagnosis
runs a few, and a cached matcher then loads without compiling any."""

from __future__ import annotations

import re
from collections.abc import Iterator


class LazyRegex:
    __slots__ = ("pattern", "_compiled")

    def __init__(self, pattern: str):
        self.pattern = pattern
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern)
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text)

    def __reduce__(self) -> tuple:
        return LazyRegex, (self.pattern,)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LazyRegex) and other.pattern == self.pattern

    def __hash__(self) -> int:
        return hash(self.pattern)
