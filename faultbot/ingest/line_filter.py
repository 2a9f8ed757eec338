"""The line prefilter: in a large log, only the lines that can matter are parsed.

A line matters when it holds one of the knowledge base's literal anchors or prefilter patterns,
or a sign of damage that normalisation could turn into one (an escape, a backslash), or holds one
once its full-width punctuation is read as ASCII (when every pattern matches ASCII alone, the
whole text is scanned once read as ASCII, faultbot/ingest/ascii_reading.py; else line by line,
only where full-width characters occur). Such a line is read together with the lines around it
that continue its record (lines that do not start a record of their own, up to a few), and a gap
between selected lines ends the record before it, as a blank line would. INFO noise is never
decoded into records, so a tree of hundreds of megabytes costs little more than the pattern scan.
Sources under 64 KiB are read whole: the filter (and the repeat gate it brings) changes speed, not
results.

A stream given as its bytes (faultbot/ingest/decode.py ``LineDecoding``: ASCII, UTF-8, GB18030) is
scanned as bytes: its ASCII lines as they are, its lines with bytes above 0x7F decoded (all of them
at once) and scanned as text, so a Chinese-locale log is not decoded whole; only the lines kept are
given out decoded. When every pattern matches ASCII alone, the decoded lines are first scanned by
their ASCII skeleton, and only those it hits are read as ASCII and scanned again.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Generator, Iterable, Sequence
from itertools import accumulate, chain, islice, repeat
from typing import AnyStr, TypeVar

import msgspec

from faultbot.fullwidth import FULL_WIDTH_CHARACTERS, as_ascii_punctuation
from faultbot.ingest.ascii_reading import ascii_skeleton, is_ascii_literal, matches_ascii_only, read_as_ascii
from faultbot.ingest.decode import LineDecoding
from faultbot.ingest.grammar import LINE_ONLY_START, RECORD_HEAD
from faultbot.ingest.line_budget import LineCount, counting
from faultbot.ingest.lines import LineTally, PhysicalLine, _cut, split_lines
from faultbot.ingest.repeats import RepeatGate
from faultbot.ingest.scanner import Scanner, lines_with_high_bytes

T = TypeVar("T")

DAMAGE_PATTERNS = (r"\x1b", r"\\")
CONTEXT_LINES = 3
FILTER_FROM_CHARS = 64 * 1024   # smaller texts (pastes, snippets) are read whole
_RECORD_START = re.compile(rf"\s*(?:{RECORD_HEAD}|{LINE_ONLY_START})", re.ASCII)
_HIGH_AS_NUL = bytes(range(0x80)) + b"\x00" * 0x80


class LineFilter(msgspec.Struct, frozen=True):
    """The line prefilter of one knowledge base (see the module's description)."""

    scanner: Scanner          # anchors, prefilter patterns and damage
    full_width: Scanner       # full-width characters
    ascii_only: bool = False  # every pattern matches ASCII characters only (faultbot/ingest/ascii_reading.py)

    @classmethod
    def build(cls, literals: Sequence[str], regexes: Sequence[str] = (), engine: str | None = None) -> LineFilter:
        regexes = (*regexes, *DAMAGE_PATTERNS)
        ascii_only = all(map(is_ascii_literal, literals)) and all(map(matches_ascii_only, regexes))
        return cls(Scanner(literals, regexes, engine), Scanner(FULL_WIDTH_CHARACTERS, (), engine), ascii_only)

    def hit_ends(self, text: str) -> list[int]:
        """End offsets of hits in ``text``, in order: every line that matters holds one."""
        if text.isascii():
            return self.scanner.ends(text)
        if self.ascii_only:
            # one scan of the text read as ASCII finds what the scans below find, at the same offsets
            return self.scanner.ends(read_as_ascii(text))
        ends = self.scanner.ends(text)
        hit_lines = {start for start, _ in _lines_of(text, ends)}
        # lines with full-width characters and no hit yet
        suspects = [line for line in _lines_of(text, self.full_width.ends(text)) if line[0] not in hit_lines]
        if not suspects:
            return ends
        # all of them read as ASCII and scanned at once; the i-th line starts at offsets[i]
        offsets = list(accumulate((end - start + 1 for start, end in suspects[:-1]), initial=0))
        read = as_ascii_punctuation("\n".join(text[start:end] for start, end in suspects))
        hidden = {suspects[bisect_right(offsets, end - 1) - 1][1] for end in self.scanner.ends(read)}
        return sorted(ends + list(hidden)) if hidden else ends

    def hit_ends_in_bytes(self, text: str, decoding: LineDecoding, terminated: bool) -> list[int]:
        """``hit_ends`` of the text that ``text``, a stream's bytes one character each (NULs
        dropped), stands for, as offsets into ``text``; ``terminated``: its last line has its newline.
        Every line with a high byte is decoded here, once (``LineDecoding.text_of_lines``)."""
        if text.isascii():
            return self.scanner.ends(text)
        data = text.encode("latin-1")
        high_lines = lines_with_high_bytes(data, self.scanner.engine)
        decoded = decoding.text_of_lines([data[start:end] for start, end in high_lines],
                                         terminated or high_lines[-1][1] < len(data))
        if self.ascii_only:
            # the ASCII lines as they are; the others by their decoded text, first by its skeleton
            ends = _outside(self.scanner.ends_in_bytes(data), high_lines)
            skeleton = ascii_skeleton(decoded)
            suspects: Sequence[int] = _line_numbers(skeleton, self.scanner.ends_in_bytes(skeleton), b"\n")
            if not suspects:
                return ends
            lines = decoded.split("\n")
            decoded = "\n".join(lines[number] for number in suspects)
        else:
            # NULs are gone: in the masked bytes each NUL marks a high byte
            ends = _outside(self.scanner.ends(data.translate(_HIGH_AS_NUL).decode("ascii")), high_lines)
            suspects = range(len(high_lines))
        hidden = [high_lines[suspects[number]][1] for number in _line_numbers(decoded, self.hit_ends(decoded), "\n")]
        return sorted(ends + hidden) if hidden else ends


def _line_numbers(text: AnyStr, ends: list[int], newline: AnyStr) -> list[int]:
    """The numbers (from 0) of the lines of ``text`` that the sorted ``ends`` are on, once each."""
    numbers: list[int] = []
    number = counted = 0
    for end in ends:
        position = max(end - 1, 0)
        number += text.count(newline, counted, position)
        counted = position
        if not numbers or numbers[-1] != number:
            numbers.append(number)
    return numbers


def _outside(ends: list[int], lines: list[tuple[int, int]]) -> list[int]:
    """The sorted ``ends`` that are not on one of the sorted ``lines``."""
    kept: list[int] = []
    index = 0
    for end in ends:
        position = max(end - 1, 0)
        while index < len(lines) and lines[index][1] < position:
            index += 1
        if index == len(lines) or position < lines[index][0]:
            kept.append(end)
    return kept


def _lines_of(text: str, ends: list[int]) -> list[tuple[int, int]]:
    """(start, end) of each line holding one of the sorted ``ends``, once each (``_hit_lines``)."""
    return list(zip(*_hit_lines(text, ends)))


def _line_start(text: str, position: int) -> int:
    return text.rfind("\n", 0, position) + 1


def _line_end(text: str, start: int) -> int:
    end = text.find("\n", start)
    return len(text) if end < 0 else end


def _spans(text: str, ends: list[int], owed_start: int, owed: int) -> tuple[list[int], int]:
    """Starts of the lines of ``text`` to read: each hit line and the neighbours that continue its
    record, plus up to ``owed`` continuation lines from ``owed_start`` (context the previous block
    promised). Also returns how many continuation lines the last hit wants from the next block.
    Hit lines, and whether they and the lines after them start records, are found a list at a time
    (``map`` runs each search in C): where hits are dense, most of them start records and need no
    context, and only a line that continues a record leads to a walk, line by line."""
    looked_at: dict[int, bool] = {}    # where records start, for the walks

    def starts_record(start: int) -> bool:
        known = looked_at.get(start)
        if known is None:
            known = looked_at[start] = _RECORD_START.match(text, start) is not None
        return known

    context: set[int] = set()   # lines read for the hits' sake
    start = owed_start
    for _ in range(owed):
        if start >= len(text) or starts_record(start):
            break
        context.add(start)
        start = _line_end(text, start) + 1
    hit_starts, hit_ends = _hit_lines(text, ends)
    # no walk back from a hit line right after another: that one's walk takes what this one's would
    for first in _continuing(text, [start for start, before in zip(hit_starts, [-1, *hit_ends]) if start != before + 1]):
        for _ in range(CONTEXT_LINES):
            first = _line_start(text, first - 1)
            context.add(first)
            if first == 0 or starts_record(first):
                break
    # nor forward from one right before another: that one's walk goes further
    still_owed = 0
    for following in _continuing(text, [end + 1 for end, after in zip(hit_ends, [*hit_starts[1:], -1]) if end + 1 != after]):
        for taken in range(CONTEXT_LINES):
            if following > len(text):
                still_owed = CONTEXT_LINES - taken
                break
            if taken and starts_record(following):
                break
            context.add(following)
            following = _line_end(text, following) + 1
    return sorted(context.union(hit_starts)) if context else hit_starts, still_owed


def _hit_lines(text: str, ends: list[int]) -> tuple[list[int], list[int]]:
    """Starts and ends (before the newline) of the lines of ``text`` that the sorted ``ends`` are on,
    once each. Each search for a line's start stops at the previous hit: a line with a thousand hits
    is looked at once, not searched back to its start a thousand times."""
    if not ends:
        return [], []
    positions = [end - 1 if end else 0 for end in ends]
    # the last newline before each hit and after the one before it, if any: then it starts a new line
    newlines = map(text.rfind, repeat("\n"), positions, positions[1:])
    starts = [text.rfind("\n", 0, positions[0]) + 1]
    starts += [newline + 1 for newline in newlines if newline >= 0]
    return starts, _line_ends(text, starts)


def _line_ends(text: str, starts: list[int]) -> list[int]:
    """Where the lines of ``text`` with the sorted ``starts`` end (before their newline)."""
    ends = list(map(text.find, repeat("\n"), starts))
    if ends and ends[-1] < 0:   # the last line, the only one without a newline
        ends[-1] = len(text)
    return ends


def _continuing(text: str, starts: list[int]) -> list[int]:
    """Those of ``starts`` whose line does not start a record (and those past the end of ``text``)."""
    return [start for start, match in zip(starts, map(_RECORD_START.match, repeat(text), starts)) if match is None]


def select_lines(chunks: Generator[str, None, T], line_filter: LineFilter, max_chars: int,
                 gate: RepeatGate | None = None, decoding: LineDecoding | None = None,
                 selected: LineCount | None = None) -> Generator[PhysicalLine, None, tuple[T, LineTally]]:
    """Like ``split_lines``, but once the text is longer than one chunk only selected lines come
    out (with their real line numbers), an empty line marking each gap; ``gate`` then also holds
    back repeated lines (faultbot/ingest/repeats.py). ``selected`` counts the lines selected, before
    the gate (faultbot/ingest/line_budget.py). ``decoding`` is given when ``chunks`` may be a
    stream's bytes (``LineDecoding.active``)."""
    as_bytes = decoding if decoding is not None and decoding.active else None
    selected = selected or LineCount()
    head: list[str] = []
    while not _long_enough(head, as_bytes):
        try:
            head.append(next(chunks))
        except StopIteration as stop:
            if as_bytes is not None:
                head = [as_bytes.whole("".join(head).encode("latin-1"))]
            return (yield from counting(split_lines(_replay(head, _finished(stop.value)), max_chars), selected))
        as_bytes = decoding if decoding is not None and decoding.active else None
    lines = _filtered(_replay(head, chunks), line_filter, max_chars, as_bytes, selected)
    return (yield from gate.lines(lines) if gate is not None else lines)


def _long_enough(head: list[str], as_bytes: LineDecoding | None) -> bool:
    """Whether the text ``head`` stands for is ``FILTER_FROM_CHARS`` long: as bytes, a character
    is one to four of them."""
    size = sum(map(len, head))
    if size < FILTER_FROM_CHARS or as_bytes is None or size >= 4 * FILTER_FROM_CHARS:
        return size >= FILTER_FROM_CHARS
    text = "".join(head)
    return text.isascii() or as_bytes.chars(text.encode("latin-1")) >= FILTER_FROM_CHARS


def _given_out(pending: str, max_chars: int, as_bytes: LineDecoding | None) -> int:
    """How much of ``pending``, the start of a line over ``max_chars`` long (as bytes: as many
    bytes), goes out before the rest of the line is read."""
    return len(pending) if as_bytes is None else as_bytes.given_out(pending.encode("latin-1"), max_chars)


def _finished(value: T) -> Generator[str, None, T]:
    return value
    yield  # a generator that yields nothing and returns ``value``


def _replay(head: list[str], rest: Generator[str, None, T]) -> Generator[str, None, T]:
    yield from head
    return (yield from rest)


def _lines_at(text: str, starts: list[int], first_number: int) -> tuple[list[int], list[int], list[str]]:
    """The ends, numbers and text of the lines of ``text`` with the sorted ``starts``, its first
    line being number ``first_number``."""
    ends = _line_ends(text, starts)
    newlines = map(text.count, repeat("\n"), [0, *starts], starts)
    numbers = list(islice(accumulate(newlines, initial=first_number), 1, None))
    return ends, numbers, list(map(text.__getitem__, map(slice, starts, ends)))


def _decode_lines(lines: list[str], decoding: LineDecoding, open_last: bool) -> None:
    """Decode in place those of ``lines``, bytes one character each, that are not ASCII;
    ``open_last``: the last one has no line end yet."""
    for index in [index for index, line in enumerate(lines) if not line.isascii()]:
        open_end = open_last and index == len(lines) - 1
        lines[index] = decoding.text(lines[index].encode("latin-1"), terminated=not open_end)


def _gapped(numbers: list[int], texts: list[str], last: int) -> list[PhysicalLine]:
    """Lines ``texts`` with their increasing ``numbers``, past ``last`` (the last line given out, 0:
    none), an empty line marking each gap before one; made a list at a time, in C."""
    if not numbers:
        return []
    rows: Iterable[tuple[int, str, bool]] = zip(numbers, texts, repeat(False))
    gaps = [number - 1 for number, before in zip(numbers, [last or numbers[0] - 1, *numbers]) if number > before + 1]
    if gaps:
        rows = sorted(chain(rows, zip(gaps, repeat(""), repeat(False))))
    # tuple.__new__ makes each row a PhysicalLine with no call into Python (the NamedTuple's __new__ is one)
    return list(map(tuple.__new__, repeat(PhysicalLine), rows))


def _filtered(chunks: Generator[str, None, T], line_filter: LineFilter, max_chars: int,
              as_bytes: LineDecoding | None, selected: LineCount) -> Generator[PhysicalLine, None, tuple[T, LineTally]]:
    number = 1            # line number of the first line of the next block of text
    carry = ""            # the last lines of the previous block, for backward context
    carry_lines = 0
    pending = ""
    last_emitted = 0      # number of the last line given out (0: none yet)
    last_cut = 0          # number of the last over-long line given out, counted once however many pieces
    owed = 0              # continuation lines the previous block's last hit still wants
    cut_lines = 0
    continuing = False    # the block starts with the rest of the previous block's unfinished line
    while True:
        try:
            chunk = next(chunks)
            final = False
        except StopIteration as stop:
            upstream, chunk, final = stop.value, "", True
        text = pending + chunk
        unfinished = False    # the block ends inside a line let out before its end
        if not final:
            # hold back a trailing CR (maybe half of a CRLF) and the unfinished last line
            held_cr = text.endswith("\r")
            text = text[:-1] if held_cr else text
            if "\r" in text:
                text = text.replace("\r\n", "\n").replace("\r", "\n")
            cut = text.rfind("\n")
            pending, text = (text[cut + 1:], text[:cut]) if cut >= 0 else (text, "")
            out = _given_out(pending, max_chars, as_bytes) if len(pending) > max_chars else 0
            if out:  # no newline for a long while: let the line go out cut (bytes: where decoding would)
                text, pending, unfinished = (text + "\n" + pending[:out]) if text else pending[:out], pending[out:], True
            pending += "\r" if held_cr else ""
        else:
            text = text.removesuffix("\r").replace("\r\n", "\n").replace("\r", "\n")
        if text:
            window = f"{carry}\n{text}" if carry_lines else text
            offset = len(carry) + 1 if carry_lines else 0
            base = number - carry_lines
            ends = [offset + end for end in (line_filter.hit_ends(text) if as_bytes is None else
                                             line_filter.hit_ends_in_bytes(text, as_bytes, not (final or unfinished)))]
            starts, next_owed = _spans(window, ends, offset, owed)
            line_ends, numbers, bodies = _lines_at(window, starts, base)
            open_last = line_ends[-1:] == [len(window)]    # the last line read runs to the end of the block
            if as_bytes is not None:
                # a line still open at the end of the stream, or let out unfinished, is decoded as such
                _decode_lines(bodies, as_bytes, open_last=open_last and (final or unfinished))
            to_cut = ((continuing and starts[:1] == [0]) or (unfinished and open_last)
                      or max(map(len, bodies), default=0) > max_chars)
            if not to_cut:
                # the common case, made a list at a time: whole lines, none given out cut
                kept = bisect_right(numbers, last_emitted)
                selected.lines += len(numbers) - kept
                yield from _gapped(numbers[kept:], bodies[kept:], last_emitted)
                last_emitted = max(last_emitted, numbers[-1]) if numbers else last_emitted
            else:
                for start, line_end, line_number, body in zip(starts, line_ends, numbers, bodies):
                    rest_of_line = continuing and start == 0
                    if line_number < last_emitted or (line_number == last_emitted and not rest_of_line):
                        continue
                    if last_emitted and line_number > last_emitted + 1:
                        yield PhysicalLine(line_number - 1, "")
                    selected.lines += 1
                    if len(body) > max_chars or rest_of_line or (unfinished and line_end == len(window)):
                        cut_lines += line_number != last_cut
                        last_cut = line_number
                        yield from _cut(line_number, body, max_chars)
                    else:
                        yield PhysicalLine(line_number, body)
                    last_emitted = line_number
            owed = next_owed
            # the block's lines, its last one only when it ended there; the newlines up to the last
            # line read are counted already, and the window has one for each line carried
            newlines = numbers[-1] - base + window.count("\n", starts[-1]) if starts else window.count("\n")
            number += newlines - carry_lines + (not unfinished)
            keep = len(window)
            for _ in range(CONTEXT_LINES):
                keep = window.rfind("\n", 0, keep)
                if keep < 0:
                    break
            # no context across a line let out unfinished: its rest starts the next block
            carry = "" if unfinished else window[keep + 1:]
            carry_lines = 0 if unfinished else carry.count("\n") + 1
        continuing = unfinished
        if final:
            return upstream, LineTally(cut_lines, number - 1)
