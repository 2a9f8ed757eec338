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

ENGINES = ("hyperscan", "re2", "re")
# UTF-8 continuation bytes: deleting them from a stretch of bytes leaves one byte per character.
_CONTINUATION = bytes(range(0x80, 0xC0))


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
    (``present``, by position: literals first, then regexes). ``engine`` says which library does it."""

    def __init__(self, literals: Sequence[str], regexes: Sequence[str] = (), engine: str | None = None):
        self.literals = tuple(dict.fromkeys(literals))
        self.regexes = tuple(regexes)
        if not self.literals and not self.regexes:
            raise ValueError("a scanner needs at least one pattern")
        self.engine = engine or default_engine()
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
        database.compile(expressions=expressions, ids=list(range(len(expressions))), elements=len(expressions),
                         flags=[0] * len(expressions))
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

    def _hyperscan_hits(self, text: str) -> tuple[list[tuple[int, int]], bytes | None]:
        """(pattern, end) of every match, and the UTF-8 bytes scanned when the text is not ASCII."""
        found: list[tuple[int, int]] = []
        data = text.encode("ascii") if text.isascii() else text.encode("utf-8", "surrogatepass")
        self._database.scan(data, match_event_handler=lambda ident, _start, end, _flags, _context:
                            found.append((ident, end)))
        return found, None if len(data) == len(text) else data

    def ends(self, text: str) -> list[int]:
        """End offsets (exclusive) of matches in ``text``: every line holding a match holds one of them."""
        if self.engine == "hyperscan":
            hits, data = self._hyperscan_hits(text)
            ends = sorted({end for _, end in hits})
            return ends if data is None else _character_offsets(data, _one_per_line(data, ends))
        if self.engine == "re2":
            return [m.end() for m in self._re2_alternation.finditer(text)]
        return [m.end() for m in self._alternation.finditer(text)]

    def present(self, text: str) -> set[int]:
        """The positions of the patterns that occur in ``text``."""
        if self.engine == "hyperscan":
            return {ident for ident, _ in self._hyperscan_hits(text)[0]}
        if self.engine == "re2":
            return set(self._re2_set.Match(text) or ())   # None when nothing matches
        found = {i for i, literal in enumerate(self.literals) if literal in text}
        return found | {len(self.literals) + i for i, regex in enumerate(self._each_regex) if regex.search(text)}

    @cached_property
    def _each_regex(self) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(regex) for regex in self.regexes)

    def __getstate__(self) -> dict[str, object]:
        database = importlib.import_module("hyperscan").dumpb(self._database) if self._database is not None else None
        return {"literals": self.literals, "regexes": self.regexes, "engine": self.engine, "database": database}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.literals = state["literals"]  # type: ignore[assignment]
        self.regexes = state["regexes"]  # type: ignore[assignment]
        self.engine = state["engine"]  # type: ignore[assignment]
        self._database = None
        if state["database"] is not None:
            hyperscan = importlib.import_module("hyperscan")
            # A loaded database comes without the scratch space scans need (python-hyperscan #153).
            self._database = hyperscan.loadb(state["database"], hyperscan.HS_MODE_BLOCK)
            self._database.scratch = hyperscan.Scratch(self._database)


def _one_per_line(data: bytes, ends: list[int]) -> list[int]:
    """Of sorted ``ends`` in ``data``, the first on each line."""
    kept: list[int] = []
    line_end = -1
    for end in ends:
        if end > line_end:
            kept.append(end)
            line_end = data.find(b"\n", end - 1)
            line_end = len(data) if line_end < 0 else line_end
    return kept


def _character_offsets(data: bytes, byte_offsets: list[int]) -> list[int]:
    """Sorted offsets into the UTF-8 ``data``, as offsets into the text it encodes."""
    characters = previous = 0
    converted = []
    for offset in byte_offsets:
        characters += len(data[previous:offset].translate(None, _CONTINUATION))
        converted.append(characters)
        previous = offset
    return converted
