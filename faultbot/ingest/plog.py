"""CANN plog lines: ``[LEVEL] MODULE(pid,process):timestamp [file.cc:line] [tid]message``.

Besides the full header this accepts the spacing variants seen in real logs, headers cut at
the end of a paste (what is known is kept) and lines whose header start was cut off. ``plain_plog``
(and ``PlainLines``, the same with a memory of line shapes) tells the lines the repeat gate may
judge.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from faultbot.fullwidth import as_ascii_punctuation
from faultbot.ingest.fields import Parsed, level_name, small_int
from faultbot.ingest.grammar import LEVELS, PLOG_TIME, RECORD_HEAD
from faultbot.ingest.normalize import needs_cleaning
from faultbot.ingest.number_shapes import Kinds, blind_to
from faultbot.ingest.records import RecordKind
from faultbot.ingest.scanner import Scanner, available_engines
from faultbot.ingest.timestamps import plog_time

_SOURCE_AT = r"\[(?P<file>[^\[\]:\s]{1,200}):(?P<line>[0-9]{1,9})\] ?"

_HEADER = re.compile(
    rf"\[(?P<level>{LEVELS})\] ?(?P<module>[A-Za-z_][\w-]{{0,63}})"
    # The process name is free text (python3.10, all_reduce_test): it ends at the "):" that
    # precedes the timestamp.
    rf"\((?P<pid>[0-9]{{1,10}}),(?P<process>.{{0,256}}?)\):(?P<time>{PLOG_TIME}) ?{_SOURCE_AT}",
    re.ASCII,
)

# A header cut at the end of the text: each part is kept only when it is complete.
_PARTIAL = re.compile(
    rf"\[(?P<level>{LEVELS})\] ?(?P<module>[A-Za-z_][\w-]{{0,63}})"
    rf"(?:\((?:(?P<pid>[0-9]{{1,10}}),(?:(?P<process>[^)]{{0,256}})\):(?P<time>{PLOG_TIME})?)?)?)?",
    re.ASCII,
)

_HEADER_FRAGMENT = re.compile(r"\[?[^\s\[\]]*")

# The thread id after [file:line]: "[2111667]", "57288 " or, in ROCE/HCCP lines, "tid:2040458,".
_TID = re.compile(r"\[(?P<a>[0-9]{1,10})\]|(?P<b>[0-9]{1,10}) (?=\S)|tid:(?P<c>[0-9]{1,10}),", re.ASCII)

# A line whose header start was cut off still shows "[file.cc:line]", perhaps after a timestamp.
_HEADLESS = re.compile(
    rf"(?P<pre>[\x20-\x7e]*?)(?:(?P<time>{PLOG_TIME}) ?)?"
    r"\[(?P<file>[\w.-]{1,200}\.(?:cc|c|cpp|cxx|h|hpp|py)):(?P<line>[0-9]{1,9})\] ?",
    re.ASCII,
)
_HEADLESS_WINDOW = 160
# Remains of a header in front of [file:line] that make a cut plog line recognisable.
_HEADER_REMAINS = re.compile(r"[0-9]{2}[:.][0-9]{2}|\):|\] ?[A-Za-z_]+\(", re.ASCII)
_PRE_LEVEL = re.compile(rf"^\[?(?P<level>{LEVELS})\]")
_PRE_MODULE = re.compile(r"\] ?(?P<module>[A-Za-z_][\w-]{0,63})\(", re.ASCII)
_PRE_PROCESS = re.compile(r"\((?P<pid>[0-9]{1,10}),(?P<process>[^)]{0,256})\):", re.ASCII)


class PlainPlog(NamedTuple):
    """What a plain plog line says that decides its evidence (see ``plain_plog``)."""

    level: str
    module: str
    pid: int
    message: str


# A record start anywhere in a line: every start the splitter (faultbot/ingest/split.py) knows
# contains one of these.
_ANY_HEAD = re.compile(RECORD_HEAD, re.ASCII)


@cache
def _head_scanner() -> Scanner | None:
    """``_ANY_HEAD`` for hyperscan, which looks for it in a line several times faster than ``re`` (the
    repeat gate looks in every line it judges); None without hyperscan. Hyperscan reads ``\\w`` as
    ASCII, as ``_ANY_HEAD`` does (the ``re`` scanner reads it as Unicode)."""
    return Scanner((), (RECORD_HEAD,), "hyperscan", presence_only=True) if "hyperscan" in available_engines() else None


def _has_glued_head(text: str) -> bool:
    """Whether a record starts anywhere in ``text`` but at its very start."""
    heads = _head_scanner()
    return heads.occurs(text[1:]) if heads is not None else _ANY_HEAD.search(text, 1) is not None


# The header and the thread id after it, in one match: the repeat gate parses every line it judges.
_HEADER_AND_TID = re.compile(rf"{_HEADER.pattern}(?:{_TID.pattern})?", re.ASCII)


def plain_plog(text: str) -> PlainPlog | None:
    """The line as one whole plog record when it is nothing else: its header at the start, printable
    text that no clean-up step but reading full-width punctuation as ASCII would change, no launcher
    prefix, no second record glued on. Such a line is read the same whatever its neighbours
    (faultbot/ingest/repeats.py relies on it); None for any other line."""
    text = as_ascii_punctuation(text)
    match = _plain_match(text)
    if match is None:
        return None
    level, module, pid = match.group("level", "module", "pid")
    return PlainPlog(level_name(level), module, int(pid), text[match.end():].strip())


def _plain_match(text: str) -> re.Match[str] | None:
    """The header (and thread id) of ``text`` read as ASCII when the line is plain, else None."""
    match = _HEADER_AND_TID.match(text)
    if match is None or not text.isprintable() or needs_cleaning(text, printable=True) or _has_glued_head(text):
        return None
    return match


# Digits as "0": lines that differ only in their digits (a time, a count) have one shape.
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
SHAPES_REMEMBERED = 4096
SHAPE_MAX_CHARS = 1024      # longer lines are read afresh: the memory stays within a few MB


_TIME_AT = re.compile(PLOG_TIME)


def timeless(text: str) -> str | tuple[str, str]:
    """``text`` but for the plog time after its first "):", where a plog header has it; ``text`` when
    it has none there. Every such time has the same characters but for its digits: two lines alike
    but for their times are plain alike (``PlainLines``) and say the same (a time is neither a field
    of the line nor in its message)."""
    at = text.find("):") + 2
    time = _TIME_AT.match(text, at) if at > 1 else None
    return text if time is None else (text[:at], text[time.end():])


class PlainLines:
    """``plain_plog`` with a memory of the shapes of the ASCII lines it has read: the repeat gate reads
    the same few shapes of line over and over, with other times and numbers in them.

    Every test ``plain_plog`` makes reads a digit only as a digit (``[0-9]``, ``\\w``, printable), but
    one: clean-up's rewrite of Markdown links compares two stretches of text (a backreference), and a
    line where it applies ("](") is read afresh. Two lines that differ only in their digits are
    therefore plain alike, and their header fields and message lie at the same offsets."""

    def __init__(self) -> None:
        self._spans: dict[bytes, tuple[int, ...] | None] = {}

    def __call__(self, text: str) -> PlainPlog | None:
        if len(text) > SHAPE_MAX_CHARS or not text.isascii() or "](" in text:
            return plain_plog(text)
        shape = text.encode("ascii").translate(_DIGITS_AS_ZERO)
        spans = self._spans.get(shape, _NOT_SEEN)
        if spans is _NOT_SEEN:
            if len(self._spans) >= SHAPES_REMEMBERED:
                self._spans.clear()
            match = _plain_match(text)
            spans = self._spans[shape] = None if match is None else (
                *match.span("level"), *match.span("module"), *match.span("pid"), match.end())
        if spans is None:
            return None
        level_start, level_end, module_start, module_end, pid_start, pid_end, header_end = spans
        return PlainPlog(level_name(text[level_start:level_end]), text[module_start:module_end],
                         int(text[pid_start:pid_end]), text[header_end:].strip())


_NOT_SEEN = (-1,)


class PlainLayout(NamedTuple):
    """Where a plain plog line's level, module, pid and message are (start, end)."""

    level: tuple[int, int]
    module: tuple[int, int]
    pid: tuple[int, int]
    message: tuple[int, int]


def plain_layout(text: str) -> PlainLayout | None:
    """Where ``plain_plog`` reads the fields of an ASCII line; None when the line is not plain."""
    match = _plain_match(text)
    if match is None:
        return None
    rest = text[match.end():]
    start = match.end() + len(rest) - len(rest.lstrip())
    return PlainLayout(match.span("level"), match.span("module"), match.span("pid"), (start, start + len(rest.strip())))


def read_alike(text: str, kinds: Kinds) -> bool:
    """Whether ``plain_plog`` reads every line of the shape of ASCII ``text`` (numbers of ``kinds``,
    faultbot/ingest/number_shapes.py) alike: plain or not, its fields at the same places. Its regexes
    and clean-up's read the digits of numbers blindly (tests/ingest/test_number_shapes.py checks
    clean-up's), and its other tests look at characters other than digits, but for clean-up's
    rewrite of Markdown links, which compares two stretches of text: a line where it applies
    ("](") is read afresh."""
    return "](" not in text and kinds <= _blind_to()


@cache
def _blind_to() -> Kinds:
    return blind_to(_HEADER_AND_TID.pattern, _HEADER_AND_TID.flags) & blind_to(_ANY_HEAD.pattern, _ANY_HEAD.flags)


def _tid_and_message(rest: str) -> tuple[int | None, str]:
    match = _TID.match(rest)
    if match is None:
        return None, rest.strip()
    return small_int(match.group("a") or match.group("b") or match.group("c")), rest[match.end():].strip()


def parse_plog(text: str) -> Parsed | None:
    """A plog line with its header at the start of ``text``; None when it has none."""
    match = _HEADER.match(text)
    if match is None:
        return _parse_partial(text)
    tid, message = _tid_and_message(text[match.end():])
    return Parsed(
        kind=RecordKind.PLOG,
        message=message,
        level=level_name(match.group("level")),
        module=match.group("module"),
        pid=small_int(match.group("pid")),
        process=match.group("process"),
        timestamp=plog_time(match.group("time")),
        src_file=match.group("file"),
        src_line=small_int(match.group("line")),
        tid=tid,
    )


def _parse_partial(text: str) -> Parsed | None:
    match = _PARTIAL.match(text)
    if match is None:
        return None
    time = match.group("time")
    rest = text[match.end():].strip()
    # A single token after the partial header is the rest of it, cut ("pyth", "2025-05-1",
    # "[task_excep"); anything longer is a message after an unusual header (no [file:line]).
    cut = _HEADER_FRAGMENT.fullmatch(rest) is not None
    return Parsed(
        kind=RecordKind.PLOG,
        message="" if cut else rest,
        level=level_name(match.group("level")),
        module=match.group("module"),
        pid=small_int(match.group("pid")),
        process=match.group("process"),
        timestamp=plog_time(time) if time else None,
        truncated=cut,
    )


def parse_headless(text: str) -> Parsed | None:
    """A plog line whose start was cut off (first line of a paste), or None."""
    if "]" not in text[:_HEADLESS_WINDOW]:
        return None
    match = _HEADLESS.match(text, 0, _HEADLESS_WINDOW)
    if match is None:
        return None
    pre = match.group("pre")
    # A header has at most two spaces; more means prose that happens to mention a source file.
    if pre.count(" ") > 2:
        return None
    tid, message = _tid_and_message(text[match.end():])
    # Without remains of a header in front, only a thread id after [file:line] tells a cut plog
    # line from a prose line that mentions a source location.
    if not (match.group("time") or _HEADER_REMAINS.search(pre) or (not pre and tid is not None)):
        return None
    level = _PRE_LEVEL.match(pre)
    module = _PRE_MODULE.search(pre)
    process = _PRE_PROCESS.search(pre)
    time = match.group("time")
    return Parsed(
        kind=RecordKind.PLOG,
        message=message,
        level=level_name(level.group("level")) if level else None,
        module=module.group("module") if module else None,
        pid=small_int(process.group("pid")) if process else None,
        process=process.group("process") if process else None,
        timestamp=plog_time(time) if time else None,
        src_file=match.group("file"),
        src_line=small_int(match.group("line")),
        tid=tid,
        truncated=True,
    )
