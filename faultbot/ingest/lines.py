"""Decoded text chunks to numbered physical lines, with over-long lines cut into pieces so that
a file without newlines cannot make a line grow without bound."""

from __future__ import annotations

from collections.abc import Generator
from typing import NamedTuple, TypeVar

import msgspec

T = TypeVar("T")


class PhysicalLine(NamedTuple):
    """One line of a source as read, with its number. A row of plain values rather than a dataclass:
    the line prefilter and the repeat gate make one for every line they pass on, and a NamedTuple
    is made several times faster."""

    number: int   # 1-based; every piece of a cut line keeps the line's number
    text: str     # without its line terminator
    cut: bool = False


class LineTally(msgspec.Struct, frozen=True):
    """What splitting a source into lines came to."""

    cut_lines: int  # over-long lines that were cut into pieces
    lines: int = 0  # lines of the text, a last one without its line end included


def split_lines(
    chunks: Generator[str, None, T], max_chars: int
) -> Generator[PhysicalLine, None, tuple[T, LineTally]]:
    """Lines of the text ``chunks`` yields, ending at LF, CRLF or a lone CR (as universal
    newlines do); returns what ``chunks`` returned and a tally."""
    number = 1
    pending = ""
    cutting = False  # the current line is over-long and already partly emitted
    cut_lines = 0
    while True:
        try:
            chunk = next(chunks)
        except StopIteration as stop:
            upstream = stop.value
            break
        text = pending + chunk
        # A CR at the end may be the first half of a CRLF split across chunks.
        held_cr = text.endswith("\r")
        if held_cr:
            text = text[:-1]
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        parts = text.split("\n")
        pending = parts.pop()
        for part in parts:
            if len(part) > max_chars:
                cut_lines += not cutting
                yield from _cut(number, part, max_chars)
            else:
                yield PhysicalLine(number, part, cutting)
            number += 1
            cutting = False
        if len(pending) > max_chars:
            cut_lines += not cutting
            cutting = True
            pieces = _cut(number, pending, max_chars)
            yield from pieces[:-1]
            pending = pieces[-1].text  # the line may go on in the next chunk
        if held_cr:
            pending += "\r"
    pending = pending.removesuffix("\r")
    if pending:
        yield PhysicalLine(number, pending, cutting)
    return upstream, LineTally(cut_lines, number - 1 + bool(pending))


def _cut(number: int, text: str, max_chars: int) -> list[PhysicalLine]:
    return [
        PhysicalLine(number, text[start:start + max_chars], True)
        for start in range(0, len(text), max_chars)
    ]
