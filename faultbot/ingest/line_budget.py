"""The budgets of lines one input file may give the reading: lines the prefilter lets through
(``ReadLimits.max_candidate_lines``, a microsecond or two each while the repeat gate holds them
back) and lines read in full (``ReadLimits.max_evidence_lines``, parsed, matched and read for facts
at tens of microseconds each). A file of millions of different error lines, or a gzip bomb of one
error line, would otherwise take minutes. Past either budget the file's text is only counted, a
line end at a time, but for the lines of its last ``tail_chars`` characters, read again: a job's last
words are often the ones that matter. The lines read keep their numbers in the file, and a gap
stands for the lines only counted, so nothing joins across it.

    budget = LineBudget(limits)
    selected = select_lines(budget.chunks(chunks), ..., budget.candidates)   # before the repeat gate
    lines = budget.read(selected)                                             # after it
    budget.note   # None, or what was only counted, in words
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TypeVar

from faultbot.ingest.limits import CANDIDATE_LINES_VARIABLE, EVIDENCE_LINES_VARIABLE, ReadLimits
from faultbot.ingest.lines import PhysicalLine

T = TypeVar("T")


def line_ends(text: str) -> int:
    """Lines ``text`` ends, as universal newlines read them (LF, CRLF, a lone CR)."""
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def _after_line_end(text: str, start: int = 0) -> int:
    """Where the line that is open at ``start`` of ``text`` ends (past its terminator); -1 if it does
    not end in ``text``."""
    feed, carriage = text.find("\n", start), text.find("\r", start)
    if carriage < 0 or 0 <= feed < carriage:
        return feed + 1 if feed >= 0 else -1
    if carriage + 1 == len(text):
        return -1       # a CR that may be the first half of a CRLF: its line ends with the next text
    return carriage + 2 if text[carriage + 1] == "\n" else carriage + 1


class LineBudget:
    """The budgets of one file (see the module's description). ``chunks`` wraps the file's text,
    ``candidates`` the lines the prefilter selects from it, ``read`` the lines given out for reading;
    the three meet here."""

    def __init__(self, limits: ReadLimits) -> None:
        self._max_candidates = limits.max_candidate_lines or None
        self._max_read = limits.max_evidence_lines or None
        self._tail_chars = limits.tail_chars
        self._candidates = 0            # lines the prefilter let through
        self._read = 0                  # lines given out for reading
        self._spent: str | None = None  # the budget spent, as the note says it
        self._before: int | None = None  # lines of the file read before the count took over
        self._counted = 0               # lines only counted
        self._tail_lines = 0            # lines of the tail the prefilter let through
        self._tail_given = False

    @property
    def note(self) -> str | None:
        """What the budget left unread, in words; None when it held."""
        if self._before is None or not self._counted:
            return None
        first, last = self._before + 1, self._before + self._counted
        tail = f"; of its last lines, {self._tail_lines:,} were read" if self._tail_lines else ""
        return f"lines {first:,}–{last:,} only counted, not read: the file had given {self._spent}{tail}"

    def _is_spent(self) -> bool:
        if self._max_candidates is not None and self._candidates >= self._max_candidates:
            self._spent = f"{self._max_candidates:,} lines the prefilter lets through ({CANDIDATE_LINES_VARIABLE})"
        elif self._max_read is not None and self._read >= self._max_read:
            self._spent = f"{self._max_read:,} lines to read in full ({EVIDENCE_LINES_VARIABLE})"
        return self._spent is not None

    def chunks(self, chunks: Generator[str, None, T]) -> Generator[str, None, T]:
        """``chunks``, until a budget is spent; then the rest of the open line, and at the end the
        last ``tail_chars`` characters, from a line's start."""
        ends, last = 0, "\n"       # line ends given out; the last character given out
        spent = False
        while True:
            try:
                chunk = next(chunks)
            except StopIteration as stop:
                if spent:
                    self._before = ends
                return stop.value
            # a CRLF split between two chunks is one line end
            split_crlf = last == "\r" and chunk.startswith("\n")
            spent = spent or self._is_spent()
            finish = -1
            if spent:
                finish = 1 if split_crlf else 0 if last in "\r\n" else _after_line_end(chunk)
            given = chunk if finish < 0 else chunk[:finish]
            ends += line_ends(given) - split_crlf
            if given:
                last = given[-1]
                yield given
            if finish >= 0:
                self._before = ends
                return (yield from self._tail_of(chunk[finish:], chunks))

    def _tail_of(self, pending: str, chunks: Generator[str, None, T]) -> Generator[str, None, T]:
        """Counts the lines of ``pending`` and ``chunks`` but for the last ``tail_chars`` of them,
        then gives those out."""
        held, size = [pending], len(pending)
        while True:
            try:
                chunk = next(chunks)
            except StopIteration as stop:
                yield self._cut_to_tail("".join(held))
                return stop.value
            held.append(chunk)
            size += len(chunk)
            if size > 2 * self._tail_chars:     # cut now and then, not at every chunk
                held = [self._cut_to_tail("".join(held))]
                size = len(held[0])

    def _cut_to_tail(self, pending: str) -> str:
        """``pending`` from the first line that starts in its last ``tail_chars`` characters, the
        lines before it counted."""
        if len(pending) <= self._tail_chars:
            return pending
        keep_from = len(pending) - self._tail_chars
        cut = _after_line_end(pending, keep_from)
        if cut < 0 or cut == len(pending):
            # no line starts in the tail: the last line's end is kept (at least a character of it),
            # read as the pieces of a cut line are, and a CRLF is not cut in two
            body_end = len(pending) - (2 if pending.endswith("\r\n") else pending[-1] in "\r\n")
            cut = max(0, min(keep_from, body_end - 1))
            if cut and pending[cut - 1] == "\r" and pending[cut] == "\n":
                cut -= 1
        self._counted += line_ends(pending[:cut])
        return pending[cut:]

    def candidates(self, lines: Generator[PhysicalLine, None, T]) -> Generator[PhysicalLine, None, T]:
        """``lines`` the prefilter selected, counted; the lines of the tail after a gap, numbered as
        in the file (the splitter numbered them as if the lines only counted were not there)."""
        while True:
            try:
                line = next(lines)
            except StopIteration as stop:
                return stop.value
            if self._before is not None and line.number > self._before:
                if not self._tail_given:
                    yield PhysicalLine(self._before + self._counted, "")   # a gap: nothing joins across
                    self._tail_given = True
                self._tail_lines += bool(line.text)
                line = line._replace(number=line.number + self._counted)
            if line.text:
                self._candidates += 1
            yield line

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
