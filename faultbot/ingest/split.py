"""Cutting a line into pieces at every record start, for pastes that glue several records
(and grep's ``path:`` prefixes, and ``rankN:`` labels) onto one line."""

from __future__ import annotations

import re

import msgspec

from faultbot.ingest.grammar import GREP_PREFIX, LINE_ONLY_START, RANK_LABEL, RECORD_HEAD

# All record starts in one regex, every branch led by a literal. Labels ("rank1: ",
# "[rank1]: ") split only where a record follows them.
_START = re.compile(rf"{RECORD_HEAD}|(?:{RANK_LABEL})(?:{RECORD_HEAD})", re.ASCII)
# Starts that begin a word ("rank1:", "EI0002:", "Traceback") do not count inside one.
_WORD_LEADS = frozenset("rET")
_AT_LINE_START = re.compile(rf"(?:{RECORD_HEAD})|{LINE_ONLY_START}", re.ASCII)

# grep's "path:" (or "path:123:") right before a record start belongs to that record's piece.
_GREP_PREFIX_BEFORE = re.compile(rf"(?<!\S){GREP_PREFIX}$", re.ASCII)
_GREP_PREFIX_ONLY = re.compile(GREP_PREFIX, re.ASCII)
_GREP_PREFIX_REACH = 540  # the longest GREP_PREFIX


class Piece(msgspec.Struct, frozen=True):
    """The span of one record in a line that may hold several."""

    start: int
    end: int


def starts_record(text: str, pos: int = 0) -> bool:
    return _AT_LINE_START.match(text, pos) is not None


def _glued_starts(text: str, pos: int, line_start: int) -> list[int]:
    """Record starts after ``pos``, in order. ``line_start`` is where a rejoined wrapped line
    began: a record may start there even right after a word character."""
    starts = []
    # Scanning from ``pos`` itself lets a start there consume its own header, so that the
    # "[PID: n] ..." inside "EI0002: [PID: n] ..." is not taken for a second record.
    for match in _START.finditer(text, pos):
        start = match.start()
        if start == pos:
            continue
        if start != line_start and text[start] in _WORD_LEADS and _inside_word(text, start):
            continue
        if text[start - 1] == ":":
            prefix = _GREP_PREFIX_BEFORE.search(text, max(pos + 1, start - _GREP_PREFIX_REACH), start)
            if prefix:
                start = prefix.start()
            elif pos < line_start < start and _GREP_PREFIX_ONLY.fullmatch(text, line_start, start):
                start = line_start
        starts.append(start)
    return starts


def _inside_word(text: str, index: int) -> bool:
    before = text[index - 1]
    return before.isalnum() or before == "_"


def split_pieces(text: str, pos: int = 0, line_start: int = 0) -> list[Piece]:
    """Pieces of ``text[pos:]``, each starting at a record start except perhaps the first."""
    starts = _glued_starts(text, pos, line_start)
    if not starts:
        return [Piece(pos, len(text))]
    bounds = [pos, *starts, len(text)]
    return [Piece(start, end) for start, end in zip(bounds, bounds[1:])]
