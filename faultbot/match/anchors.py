"""Which of many literal anchors occur in a text, and so which rules can apply to it.

One regex scan finds the anchors (longest first at each position); anchors inside a found anchor
are added from a table built once. Symptom matching and fact extraction both use it, so a line of
INFO noise costs one scan, not one substring test per rule.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


class AnchorIndex(Generic[T]):
    """Items keyed by their anchors; an item with no anchors applies to every text."""

    def __init__(self, anchors_of: Mapping[T, Sequence[str]]):
        self._order = {item: n for n, item in enumerate(anchors_of)}
        self._always = [item for item, anchors in anchors_of.items() if not anchors]
        self._by_anchor: dict[str, list[T]] = {}
        for item, anchors in anchors_of.items():
            for anchor in anchors:
                self._by_anchor.setdefault(anchor, []).append(item)
        self.anchors = tuple(sorted(self._by_anchor, key=len, reverse=True))
        self._scan = re.compile("|".join(map(re.escape, self.anchors))) if self.anchors else None
        # an anchor found at some place hides the shorter anchors it contains at the same place
        self._inside = {a: [b for b in self.anchors if b != a and b in a] for a in self.anchors}

    def present(self, text: str) -> set[str]:
        if self._scan is None:
            return set()
        found: set[str] = set()
        position = 0
        while (hit := self._scan.search(text, position)) is not None:
            found.add(hit.group(0))
            position = hit.start() + 1
        return found.union(*(self._inside[a] for a in found)) if found else found

    def candidates(self, text: str) -> list[T]:
        """Items that can apply to ``text``, in the order they were given."""
        chosen = {item for anchor in self.present(text) for item in self._by_anchor[anchor]}
        chosen.update(self._always)
        return sorted(chosen, key=self._order.__getitem__)
