"""Which rules can apply to a text: those whose literal anchors, or simple prefilter regexes, it holds.

One multi-pattern scan (faultbot/ingest/scanner.py) finds every anchor the text holds. Symptom
matching and fact extraction both use it, so a line of INFO noise costs one scan, not one
substring test per rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Generic, NamedTuple, TypeVar

from ..ingest.number_shapes import (
    EVERY_KINDS,
    Kinds,
    blind_to,
    could_hold,
    is_hex,
    necessary_literal,
    occurrences,
    relaxed_filter,
)
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
        self._unsure = {kinds: _unsure(self.anchors, tuple(regexes), kinds) for kinds in EVERY_KINDS}

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

    def unsure(self, wildcards: str, kinds: Kinds) -> Unsure | None:
        """The anchors and prefilter regexes whose presence may differ between texts of one shape
        (faultbot/ingest/number_shapes.py: numbers of ``kinds``, ``wildcards`` what they all have): two
        texts of the shape in which none occurs have the same candidates. None when that cannot be
        told (a prefilter regex that the digits of numbers may change holds no literal text)."""
        groups = self._unsure[kinds]
        if groups is None:
            return None
        literals, regexes = [], []
        filtered = relaxed_filter(wildcards)
        for needle, members in groups.items():
            if needle not in filtered:
                continue
            positions = occurrences(filtered, needle)
            # digits of numbers as many as the needle's characters: any hex literal could be there
            blank = "\0" * len(needle) in (wildcards[position:position + len(needle)] for position in positions)
            for anchor, regex, literal, hex_only in members:
                if (blank and hex_only) or could_hold(wildcards, literal, positions):
                    (literals if anchor else regexes).append(anchor or regex)
        return Unsure(frozenset(literals), frozenset(regexes))


class Unsure(NamedTuple):
    """Anchors and prefilter regexes whose presence may differ between texts of one shape."""

    literals: frozenset[str]
    regexes: frozenset[str]


UnsureGroups = dict[str, list[tuple[str, str, str, bool]]]


def _unsure(anchors: Sequence[str], regexes: Sequence[str], kinds: Kinds) -> UnsureGroups | None:
    """The anchors and prefilter regexes whose presence the digits of numbers of ``kinds`` could
    change, as (anchor or "", regex or ""), each with the literal text every match of it holds and
    whether that is all hex digits (``is_hex``), grouped by the literal's ``relaxed_filter``. None
    when a prefilter regex the digits may change holds no literal text."""
    groups: UnsureGroups = {}
    for anchor in anchors:
        if not kinds <= blind_to(re.escape(anchor)):
            groups.setdefault(relaxed_filter(anchor), []).append((anchor, "", anchor, is_hex(anchor)))
    for regex in regexes:
        if not kinds <= blind_to(regex):
            literal = necessary_literal(regex)
            if not literal:
                return None
            groups.setdefault(relaxed_filter(literal), []).append(("", regex, literal, is_hex(literal)))
    return groups
