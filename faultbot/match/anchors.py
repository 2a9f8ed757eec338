"""Which rules can apply to a text: those whose literal anchors, or simple prefilter regexes, it holds.

One multi-pattern scan (faultbot/ingest/scanner.py) finds every anchor the text holds. Symptom
matching and fact extraction both use it, so a line of INFO noise costs one scan, not one
substring test per rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
        # what a text holding no pattern, or only the one at each position, gets: most texts do
        self._none = self._chosen(())
        self._alone = tuple(self._chosen([pattern]) for pattern in range(len(self._keyed)))

    def _chosen(self, patterns: Iterable[int]) -> tuple[T, ...]:
        chosen = set(self._always)
        for pattern in patterns:
            chosen.update(self._keyed[pattern])
        return tuple(self._items[n] for n in sorted(chosen))

    def candidates(self, text: str) -> tuple[T, ...]:
        """Items that can apply to ``text``, in the order they were given."""
        present = self._scanner.present(text) if self._scanner is not None else ()
        if not present:
            return self._none
        if len(present) == 1:
            return self._alone[next(iter(present))]
        return self._chosen(present)
