"""Which rules can apply to a text: those whose literal anchors, or simple prefilter regexes, it holds.

One multi-pattern scan (faultbot/ingest/scanner.py) finds every anchor the text holds. Symptom
matching and fact extraction both use it, so a line of INFO noise costs one scan, not one
substring test per rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

from ..ingest.scanner import Scanner

T = TypeVar("T")


class AnchorIndex(Generic[T]):
    """Items keyed by their anchors (literals) and prefilter (a simple regex, or ""); an item with
    neither applies to every text."""

    def __init__(self, keyed: Sequence[tuple[T, Sequence[str], str]], engine: str | None = None):
        self._items = tuple(item for item, _, _ in keyed)
        self._always = tuple(n for n, (_, anchors, prefilter) in enumerate(keyed) if not anchors and not prefilter)
        positions: dict[str, list[int]] = {}
        regexes: dict[str, list[int]] = {}
        for n, (_, anchors, prefilter) in enumerate(keyed):
            for anchor in anchors:
                positions.setdefault(anchor, []).append(n)
            if prefilter:
                regexes.setdefault(prefilter, []).append(n)
        self.anchors = tuple(sorted(positions, key=len, reverse=True))
        # for each pattern of the scanner (literals, then regexes), the items it keys
        self._keyed = tuple(positions[a] for a in self.anchors) + tuple(regexes.values())
        self._scanner = Scanner(self.anchors, tuple(regexes), engine, presence_only=True) if self._keyed else None

    def candidates(self, text: str) -> list[T]:
        """Items that can apply to ``text``, in the order they were given."""
        chosen = set(self._always)
        if self._scanner is not None:
            for pattern in self._scanner.present(text):
                chosen.update(self._keyed[pattern])
        return [self._items[n] for n in sorted(chosen)]
