"""Masking the variable parts of a log message, Drain3-style, so that signatures compare shapes.

The masks are KB data (``kb/masks.yaml``, carried by the compiled KB as ``KnowledgeBase.masks``):
an ordered table of regexes and the placeholder each becomes. One ``Masker`` masks both the KB's
signatures and the log's records, so an example value written in a signature never has to equal
the log's value. A mask is not tried on a text that lacks a character every match of it holds (a
path's "/", a date's "-" or "/"), or holds it fewer times than every match does (an address's three
dots, a time's two colons): most records are masked by a few of the masks.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from ..ingest.number_shapes import sre_constants, sre_parse
from ..kb.model import Mask

# A placeholder a signature's author may write by hand for "anything here".
WRITTEN_PLACEHOLDER = "<*>"


class Masker:
    """A KB's masks, compiled, in the order they are applied."""

    def __init__(self, masks: Sequence[Mask]):
        self._masks = tuple((re.compile(mask.regex), mask.token, *_needed(mask.regex)) for mask in masks)
        tokens = sorted({WRITTEN_PLACEHOLDER, *(mask.token for mask in masks)})
        self._placeholder = re.compile("|".join(map(re.escape, tokens)))

    def mask(self, message: str) -> str:
        """``message`` with its variable parts replaced by typed placeholders and spaces folded."""
        present = frozenset(message)
        for pattern, token, needed, needed_one_of, needed_often in self._masks:
            if needed <= present and (not needed_one_of or all(not present.isdisjoint(chars) for chars in needed_one_of)) and (
                    not needed_often or all(message.count(char) >= times for char, times in needed_often)):
                message, replaced = pattern.subn(token, message)
                if replaced:
                    present = frozenset(message)
        return " ".join(message.split())

    def literal_runs(self, masked: str) -> list[str]:
        """The literal stretches of a masked message, longest first (candidates for prefilter anchors)."""
        runs = [run.strip(" ,.:;[](){}") for run in self._placeholder.split(masked)]
        return sorted((run for run in runs if len(run) >= 4), key=len, reverse=True)


def _needed(regex: str) -> tuple[frozenset[str], tuple[frozenset[str], ...], tuple[tuple[str, int], ...]]:
    """What a text holds wherever the regex matches it: the characters it must hold, sets of
    characters it must hold one of each of, and the characters it must hold more than once, with how
    many times. They are the regex's characters and character sets outside alternatives and optional
    parts (and inside lookarounds that must match, which are not counted: they may read characters
    of the match), where they are plain (no case folding, no category)."""
    parsed = sre_parse.parse(regex)
    sets = [] if parsed.state.flags & re.I else _needed_in(list(parsed))
    counted = Counter(chars for chars, in_match in sets if in_match and len(chars) == 1)
    return (frozenset().union(*(chars for chars, _ in sets if len(chars) == 1)),
            tuple(chars for chars, _ in sets if len(chars) > 1),
            tuple(sorted((next(iter(chars)), times) for chars, times in counted.items() if times > 1)))


def _needed_in(items: list[tuple[object, object]], in_match: bool = True) -> list[tuple[frozenset[str], bool]]:
    """The character sets of ``_needed``, one for each character of a match or of a lookaround that
    must match (``in_match`` false) that they describe."""
    needed: list[tuple[frozenset[str], bool]] = []
    for op, value in items:
        if op is sre_constants.LITERAL:
            needed.append((frozenset(chr(value)), in_match))  # type: ignore[arg-type]
        elif op is sre_constants.IN and all(item in (sre_constants.LITERAL, sre_constants.RANGE) for item, _ in value):  # type: ignore[attr-defined]
            needed.append((frozenset(chr(code) for item, spec in value  # type: ignore[attr-defined]
                                     for code in ((spec,) if item is sre_constants.LITERAL else range(spec[0], spec[1] + 1))),
                           in_match))
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT) and value[0] >= 1:  # type: ignore[index]
            needed += _needed_in(list(value[2]), in_match) * value[0]  # type: ignore[index]
        elif op is sre_constants.SUBPATTERN and not value[1] and not value[2]:  # type: ignore[index]
            needed += _needed_in(list(value[3]), in_match)  # type: ignore[index]
        elif op is sre_constants.ASSERT:
            needed += _needed_in(list(value[1]), in_match=False)  # type: ignore[index]
    return needed
