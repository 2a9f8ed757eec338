"""The budgets of lines one input file may give the reading: lines the prefilter lets through
(``ReadLimits.max_candidate_lines``, a microsecond or two each while the repeat gate holds them
back) and lines read in full (``ReadLimits.max_evidence_lines``, parsed, matched and read for facts
at tens of microseconds each). A file of millions of different error lines, or a gzip bomb of one
error line, would otherwise take minutes. Past either budget the file's text is only counted, a
line end at a time, but for the lines of its last ``tail_chars`` characters, read again: a job's last
words are often the ones that matter. The lines only counted reach the splitter as empty lines:
those read after them keep their numbers in the file, and nothing joins across them.

    budget = LineBudget(limits)
    selected = select_lines(budget.chunks(chunks), ..., budget.selected)   # counted before the repeat gate
    lines = budget.read(selected)                                           # and after it
    budget.note(tally.lines)   # None, or what was only counted, in words
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator
from typing import TypeVar

from faultbot.ingest.limits import CANDIDATE_LINES_VARIABLE, EVIDENCE_LINES_VARIABLE, ReadLimits
from faultbot.ingest.lines import PhysicalLine

T = TypeVar("T")


def line_ends(text: str) -> int:
    """Lines ``text`` ends, as universal newlines read them (LF, CRLF, a lone CR)."""
    ends = text.count("\n")
    # most logs hold no CR: one scan for it (memchr) rather than two counts
    return ends + text.count("\r") - text.count("\r\n") if "\r" in text else ends


def _after_line_end(text: str, start: int = 0) -> int:
    """Where the line that is open at ``start`` of ``text`` ends (past its terminator); -1 if it does
    not end in ``text``."""
    feed, carriage = text.find("\n", start), text.find("\r", start)
    if carriage < 0 or 0 <= feed < carriage:
        return feed + 1 if feed >= 0 else -1
    if carriage + 1 == len(text):
        return -1       # a CR that may be the first half of a CRLF: its line ends with the next text
    return carriage + 2 if text[carriage + 1] == "\n" else carriage + 1


class LineCount:
    """Lines counted as they pass (``counting``), or by the splitter a block at a time."""

    __slots__ = ("lines",)

    def __init__(self) -> None:
        self.lines = 0


def counting(lines: Generator[PhysicalLine, None, T], count: LineCount) -> Generator[PhysicalLine, None, T]:
    """``lines``, those with text counted in ``count``."""
    while True:
        try:
            line = next(lines)
        except StopIteration as stop:
            return stop.value
        count.lines += bool(line.text)
        yield line


class LineBudget:
    """The budgets of one file (see the module's description). ``chunks`` wraps the file's text,
    ``selected`` counts the lines the prefilter selects from it, ``read`` the lines given out for
    reading; the three meet here."""

    def __init__(self, limits: ReadLimits) -> None:
        self._max_candidates = limits.max_candidate_lines or None
        self._max_read = limits.max_evidence_lines or None
        self._tail_chars = limits.tail_chars
        self.selected = LineCount()     # lines the prefilter let through (the splitter counts them)
        self._read = 0                  # lines given out for reading
        self._spent: str | None = None  # the budget spent, as the note says it
        self._counted = 0               # lines only counted
        self._tail: tuple[int, int] | None = None   # lines of the tail text; lines let through before it
        self._line_end = "\n"          # of the empty lines that stand for the lines only counted

    def note(self, lines: int) -> str | None:
        """What the budget left unread in the file of ``lines`` lines, in words; None when it held."""
        if self._tail is None or not self._counted:
            return None
        tail_lines, selected_before = self._tail
        tail_read = self.selected.lines - selected_before
        first = lines - tail_lines - self._counted + 1
        tail = f"; of its last {tail_lines:,} lines, {tail_read:,} were read" if tail_lines else ""
        return (f"lines {first:,}–{first + self._counted - 1:,} only counted, not read: the file had given "
                f"{self._spent}{tail}")

    def _is_spent(self) -> bool:
        if self._max_candidates is not None and self.selected.lines >= self._max_candidates:
            self._spent = f"{self._max_candidates:,} lines the prefilter lets through ({CANDIDATE_LINES_VARIABLE})"
        elif self._max_read is not None and self._read >= self._max_read:
            self._spent = f"{self._max_read:,} lines to read in full ({EVIDENCE_LINES_VARIABLE})"
        return self._spent is not None

    def chunks(self, chunks: Generator[str, None, T]) -> Generator[str, None, T]:
        """``chunks``, until a budget is spent; then the rest of the open line, an empty line for
        every line only counted (so the lines after them keep their numbers, with a gap before
        them), and the lines of the last ``tail_chars`` characters."""
        last = "\n"       # the last character given out
        while True:
            try:
                chunk = next(chunks)
            except StopIteration as stop:
                return stop.value
            finish = -1
            if self._spent is not None or self._is_spent():
                split_crlf = last == "\r" and chunk.startswith("\n")
                finish = 1 if split_crlf else 0 if last in "\r\n" else _after_line_end(chunk)
            given = chunk if finish < 0 else chunk[:finish]
            if given:
                last = given[-1]
                yield given
            if finish >= 0:
                # after a lone CR an LF would end no line of its own (CRLF): the counted lines end in CRs
                self._line_end = "\r" if last == "\r" else "\n"
                return (yield from self._tail_of(chunk[finish:], chunks))

    def _tail_of(self, pending: str, chunks: Generator[str, None, T]) -> Generator[str, None, T]:
        """Counts the lines of ``pending`` and ``chunks`` but for the last ``tail_chars`` of them,
        an empty line for each, then gives those out. Whole chunks are let go from the front, so
        that no text is copied until the end."""
        held, size = deque([pending]), len(pending)
        at_line_start = True        # the text let go ended a line
        while True:
            try:
                chunk = next(chunks)
            except StopIteration as stop:
                text = "".join(held)
                # past the rest of a line whose start was let go (a CRLF let go half ends with its LF),
                # unless that is all there is: then its end is the tail
                start = 0 if at_line_start else _after_line_end(text)
                start = 0 if start in (-1, len(text)) else start
                counted, tail = self._cut_to_tail(text[start:])
                yield from self._empty_lines(counted + (start > 0))
                self._counted += start > 0
                self._tail = (line_ends(tail) + (tail[-1:] not in ("", "\r", "\n")), self.selected.lines)
                yield tail
                return stop.value
            held.append(chunk)
            size += len(chunk)
            while size - len(held[0]) >= self._tail_chars:
                first = held.popleft()
                size -= len(first)
                if not first:
                    continue
                split_crlf = first[-1] == "\r" and held[0].startswith("\n")
                counted = line_ends(first) - split_crlf
                at_line_start = first[-1] == "\n" or (first[-1] == "\r" and not split_crlf)
                self._counted += counted
                yield from self._empty_lines(counted)

    def _empty_lines(self, count: int) -> Generator[str, None, None]:
        """``count`` empty lines, a chunk at a time."""
        while count > 0:
            yield self._line_end * min(count, self._tail_chars)
            count -= self._tail_chars

    def _cut_to_tail(self, pending: str) -> tuple[int, str]:
        """The lines of ``pending`` before the first line that starts in its last ``tail_chars``
        characters, counted, and ``pending`` from there."""
        if len(pending) <= self._tail_chars:
            return 0, pending
        keep_from = len(pending) - self._tail_chars
        cut = _after_line_end(pending, keep_from)
        if cut < 0 or cut == len(pending):
            # no line starts in the tail: the last line's end is kept (at least a character of it),
            # read as the pieces of a cut line are, and a CRLF is not cut in two
            body_end = len(pending) - (2 if pending.endswith("\r\n") else pending[-1] in "\r\n")
            cut = max(0, min(keep_from, body_end - 1))
            if cut and pending[cut - 1] == "\r" and pending[cut] == "\n":
                cut -= 1
        counted = line_ends(pending[:cut])
        self._counted += counted
        return counted, pending[cut:]

    def read(self, lines: Generator[PhysicalLine, None, T]) -> Generator[PhysicalLine, None, T]:
        """``lines`` given out for reading, counted."""
        while True:
            try:
                line = next(lines)
            except StopIteration as stop:
                return stop.value
            if line.text:
                self._read += 1
            yield line
