"""Multi-pattern search: where in a text any of many literals or simple regexes occurs, or which of
them occur at all.

Hyperscan is used when it is installed, then google-re2, then Python's ``re``; all three report
the same lines and the same patterns (tests check it), the first two much faster. Literals may be
any text (Chinese included); regexes must be simple ASCII regexes (classes, repeats, alternation)
that every engine reads alike, which ``kb lint`` enforces. Text is scanned as UTF-8 bytes by
hyperscan, so a Chinese character costs what an ASCII one does.

A scanner pickles to its patterns and, for hyperscan, its compiled database, so a cached one
loads without compiling anything.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
from collections.abc import Sequence
from functools import cache, cached_property
from typing import Any, AnyStr

ENGINES = ("hyperscan", "re2", "re")
# UTF-8 continuation bytes: deleting them from a stretch of bytes leaves one byte per character.
_CONTINUATION = bytes(range(0x80, 0xC0))
# matches a line may give after its first before hyperscan's scan leaves it (see _hyperscan_line_ends)
_EXTRA_HITS_PER_LINE = 16


@cache
def available_engines() -> tuple[str, ...]:
    """The engines this machine has, fastest first; each is imported only by a scanner using it."""
    return tuple(e for e in ENGINES if e == "re" or importlib.util.find_spec(e) is not None)


def default_engine() -> str:
    """``$FAULTBOT_SCANNER`` when it names an available engine (CI runs every engine so), else the fastest."""
    chosen = os.environ.get("FAULTBOT_SCANNER", "")
    return chosen if chosen in available_engines() else available_engines()[0]


def _hyperscan_literal(literal: str) -> bytes:
    return b"".join(b"\\x%02x" % byte for byte in literal.encode("utf-8"))


class Scanner:
    """Finds the end offsets of matches of any pattern (``ends``) or which patterns occur
    (``present``, by position: literals first, then regexes). ``engine`` says which library does it.
    A ``presence_only`` scanner answers ``present`` alone, hyperscan then reporting each pattern once
    per text rather than at each of its thousands of matches on a hostile line."""

    def __init__(self, literals: Sequence[str], regexes: Sequence[str] = (), engine: str | None = None,
                 presence_only: bool = False):
        self.literals = tuple(dict.fromkeys(literals))
        self.regexes = tuple(regexes)
        if not self.literals and not self.regexes:
            raise ValueError("a scanner needs at least one pattern")
        self.engine = engine or default_engine()
        self.presence_only = presence_only
        self._database = self._compile_hyperscan() if self.engine == "hyperscan" else None

    @property
    def patterns(self) -> tuple[str, ...]:
        """Every pattern as a Python regex, literals escaped."""
        return tuple(re.escape(literal) for literal in self.literals) + self.regexes

    def _compile_hyperscan(self) -> object:
        expressions = [_hyperscan_literal(literal) for literal in self.literals]
        expressions += [regex.encode("ascii") for regex in self.regexes]
        hyperscan = importlib.import_module("hyperscan")
        database = hyperscan.Database()
        flag = hyperscan.HS_FLAG_SINGLEMATCH if self.presence_only else 0
        database.compile(expressions=expressions, ids=list(range(len(expressions))), elements=len(expressions),
                         flags=[flag] * len(expressions))
        return database

    @cached_property
    def _alternation(self) -> re.Pattern[str]:
        return re.compile("|".join(f"(?:{p})" for p in self.patterns))

    @cached_property
    def _re2_alternation(self) -> object:
        return importlib.import_module("re2").compile("|".join(f"(?:{p})" for p in self.patterns))

    @cached_property
    def _re2_set(self) -> object:
        patterns = importlib.import_module("re2").Set.SearchSet()
        for pattern in self.patterns:
            patterns.Add(pattern)
        patterns.Compile()
        return patterns

    @staticmethod
    def _utf8(text: str) -> bytes:
        return text.encode("ascii") if text.isascii() else text.encode("utf-8", "surrogatepass")

    def _hyperscan_line_ends(self, data: bytes) -> list[int]:
        """The end of the first match on each line of ``data`` that holds one. Hyperscan calls back
        into Python at every match, so a line full of matches is left once it has given a few more,
        and the scan goes on after it."""
        hyperscan = importlib.import_module("hyperscan")
        view = memoryview(data)
        ends: list[int] = []
        offset = resume_at = 0      # where the scan under way started; where the next one starts
        line_end = -1               # offset of the end of the line of the last end kept
        extra = 0                   # matches on that line after the one kept

        def on_match(_ident: int, _start: int, end: int, _flags: int, _context: object) -> bool:
            # the state lives in the closure: at a call a match, a cell is read faster than an attribute
            nonlocal line_end, extra, resume_at
            end += offset
            if end - 1 > line_end:
                ends.append(end)
                line_end = data.find(b"\n", end - 1)
                if line_end < 0:
                    line_end = len(data)
                extra = 0
                return False
            extra += 1
            if extra <= _EXTRA_HITS_PER_LINE:
                return False
            resume_at = line_end + 1
            return True

        while resume_at < len(data):
            offset, resume_at = resume_at, len(data)
            try:
                self._database.scan(view[offset:], match_event_handler=on_match)
            except hyperscan.ScanTerminated:
                pass
        return ends

    def ends(self, text: str) -> list[int]:
        """End offsets (exclusive) of matches in ``text``, sorted: every line holding a match holds
        one of them (``re`` and ``re2`` give the first of each line only: a line full of matches
        costs them one search)."""
        if self.presence_only:
            raise ValueError("a presence-only scanner does not report where patterns end")
        if self.engine == "re":
            return _first_per_line(self._alternation, text, "\n")
        data = self._utf8(text)
        if self.engine == "hyperscan":
            ends = self._hyperscan_line_ends(data)
        else:   # re2, given the bytes: given a str, the re2 module encodes all of it at every search
            ends = _first_per_line(self._re2_alternation, data, b"\n")
        return ends if len(data) == len(text) else _character_offsets(data, ends)

    def ends_in_bytes(self, data: bytes) -> list[int]:
        """``ends`` of ``data`` read one byte a character (Latin-1), as byte offsets, with no copy to
        text: for ASCII patterns, which match the bytes of ASCII, UTF-8 or GB18030 text where they
        match its ASCII characters (and only there when they match ASCII alone)."""
        if self.presence_only:
            raise ValueError("a presence-only scanner does not report where patterns end")
        if self.engine == "hyperscan":
            return self._hyperscan_line_ends(data)
        if self.engine == "re2":
            return _first_per_line(self._re2_alternation, data, b"\n")
        return _first_per_line(self._alternation, data.decode("latin-1"), "\n")

    def present(self, text: str) -> set[int]:
        """The positions of the patterns that occur in ``text``."""
        if self.engine == "hyperscan":
            found: set[int] = set()
            self._database.scan(self._utf8(text), match_event_handler=lambda ident, _start, _end, _flags, _context:
                                found.add(ident))
            return found
        if self.engine == "re2":
            return set(self._re2_set.Match(text) or ())   # None when nothing matches
        found = {i for i, literal in enumerate(self.literals) if literal in text}
        return found | {len(self.literals) + i for i, regex in enumerate(self._each_regex) if regex.search(text)}

    def occurs(self, text: str) -> bool:
        """Whether any pattern occurs in ``text``: the scan stops at the first match."""
        if self.engine == "hyperscan":
            try:
                self._database.scan(self._utf8(text), match_event_handler=_stop)
            except importlib.import_module("hyperscan").ScanTerminated:
                return True
            return False
        if self.engine == "re2":
            return self._re2_alternation.search(self._utf8(text)) is not None
        return self._alternation.search(text) is not None

    @cached_property
    def _each_regex(self) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(regex) for regex in self.regexes)

    def __getstate__(self) -> dict[str, object]:
        database = importlib.import_module("hyperscan").dumpb(self._database) if self._database is not None else None
        return {"literals": self.literals, "regexes": self.regexes, "engine": self.engine,
                "presence_only": self.presence_only, "database": database}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.literals = state["literals"]  # type: ignore[assignment]
        self.regexes = state["regexes"]  # type: ignore[assignment]
        self.engine = state["engine"]  # type: ignore[assignment]
        self.presence_only = bool(state["presence_only"])
        self._database = None
        if state["database"] is not None:
            hyperscan = importlib.import_module("hyperscan")
            # A loaded database comes without the scratch space scans need (python-hyperscan #153).
            self._database = hyperscan.loadb(state["database"], hyperscan.HS_MODE_BLOCK)
            self._database.scratch = hyperscan.Scratch(self._database)


# high bytes as NULs, and NULs as something else
_HIGH_AS_ONLY_NUL = b"\x01" + bytes(range(1, 0x80)) + b"\x00" * 0x80


def lines_with_high_bytes(data: bytes, engine: str | None = None) -> list[tuple[int, int]]:
    """(start, end) of each line of ``data`` holding a byte above 0x7F, its newline left out:
    found by hyperscan when it is the ``engine``, at one call a line, else in a copy of ``data``."""
    if (engine or default_engine()) != "hyperscan":
        return _lines_with_nul(data.translate(_HIGH_AS_ONLY_NUL))
    ends: list[int] = []
    _high_line_database().scan(data, match_event_handler=lambda _ident, _start, end, _flags, _context:
                               ends.append(end))
    lines = [(data.rfind(b"\n", 0, end - 1) + 1, end - 1) for end in ends]
    last = data.rfind(b"\n") + 1
    return lines if data[last:].isascii() else [*lines, (last, len(data))]


@cache
def _high_line_database() -> Any:
    # one match a line, where it ends: its newline (the last line, without one, is looked at apart)
    hyperscan = importlib.import_module("hyperscan")
    database = hyperscan.Database()
    database.compile(expressions=[rb"[\x80-\xff][^\n]*\n"], ids=[0], elements=1, flags=[0])
    return database


def _lines_with_nul(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of each line of ``data`` holding a NUL byte."""
    lines: list[tuple[int, int]] = []
    position = 0
    while (nul := data.find(b"\x00", position)) >= 0:
        end = data.find(b"\n", nul)
        end = len(data) if end < 0 else end
        lines.append((data.rfind(b"\n", position, nul) + 1 or position, end))
        position = end + 1
    return lines


def _stop(_ident: int, _start: int, _end: int, _flags: int, _context: object) -> bool:
    return True   # a hyperscan match handler that ends the scan at the first match


def _first_per_line(pattern: Any, text: AnyStr, newline: AnyStr) -> list[int]:
    """The end of the first match of ``pattern`` (an ``re`` or ``re2`` pattern) on each line of
    ``text`` that holds one."""
    ends: list[int] = []
    position = 0
    while (found := pattern.search(text, position)) is not None:
        ends.append(found.end())
        line_end = text.find(newline, max(found.end() - 1, found.start()))
        if line_end < 0:
            break
        position = line_end + 1
    return ends



def _character_offsets(data: bytes, byte_offsets: list[int]) -> list[int]:
    """Sorted offsets into the UTF-8 ``data``, as offsets into the text it encodes."""
    characters = previous = 0
    converted = []
    for offset in byte_offsets:
        characters += len(data[previous:offset].translate(None, _CONTINUATION))
        converted.append(characters)
        previous = offset
    return converted
