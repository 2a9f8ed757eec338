"""Timestamp formats seen in Ascend job logs, as a table of patterns and builders.

Formats without a year (torch's ``[W723 10:35:57]``, vLLM's ``07-21 06:27:44``) give no
timestamp: a guessed year would silently misorder records across a year boundary.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

import msgspec

_MONTHS = {
    name: number
    for number, name in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}

# Free-text timestamps are looked for near the start of a line only: deeper in, a timestamp is
# usually a value the message talks about (opData timeStamp:[...]), not when the line was written.
SEARCH_WINDOW = 64


def make_datetime(
    year: str, month: str, day: str, hour: str, minute: str, second: str, fraction: str = ""
) -> datetime | None:
    """A datetime from decimal fields, or None when they name no real instant (month 13)."""
    micro = int((fraction + "000000")[:6]) if fraction else 0
    try:
        return datetime(int(year), int(month), int(day), int(hour), int(minute), int(second), micro)
    except ValueError:
        return None


def plog_time(text: str) -> datetime | None:
    """``2025-10-24-11:18:29.597.044`` -> datetime with microseconds.

    The caller has matched grammar.PLOG_TIME, so fixed offsets are safe; slicing is much
    cheaper than strptime on the millions of lines of a log tree.
    """
    return make_datetime(
        text[0:4], text[5:7], text[8:10], text[11:13], text[14:16], text[17:19],
        text[20:23] + text[24:27],
    )


class _Format(msgspec.Struct, frozen=True):
    """One time-stamp format: its regex and how its groups make a datetime."""

    pattern: re.Pattern[str]
    build: Callable[[re.Match[str]], datetime | None]


def _numeric(match: re.Match[str]) -> datetime | None:
    return make_datetime(*(group or "" for group in match.groups()))


def _ctime(match: re.Match[str]) -> datetime | None:
    month, day, hour, minute, second, year = match.groups()
    return make_datetime(year, str(_MONTHS[month]), day, hour, minute, second)


_FORMATS: tuple[_Format, ...] = (
    # plog style, also without the sub-second part: 2025-10-24-22:03:14
    _Format(
        re.compile(
            r"(?<![0-9])([0-9]{4})-([0-9]{2})-([0-9]{2})-([0-9]{2}):([0-9]{2}):([0-9]{2})"
            r"(?:\.([0-9]{3})\.?([0-9]{3})?)?"
        ),
        lambda m: make_datetime(*m.groups()[:6], (m.group(7) or "") + (m.group(8) or "")),
    ),
    # ISO 8601 and Python logging: 2025-10-24 11:18:29,123 / 2025-10-24T11:18:29.123456
    _Format(
        re.compile(
            r"(?<![0-9])([0-9]{4})[-/]([0-9]{2})[-/]([0-9]{2})[ T]([0-9]{2}):([0-9]{2}):([0-9]{2})"
            r"(?:[.,]([0-9]{1,9}))?"
        ),
        _numeric,
    ),
    # ctime: Tue Aug  4 06:51:57 2026
    _Format(
        re.compile(
            r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (" + "|".join(_MONTHS) + r") +([0-9]{1,2}) "
            r"([0-9]{2}):([0-9]{2}):([0-9]{2}) ([0-9]{4})"
        ),
        _ctime,
    ),
)


def find_timestamp(text: str) -> datetime | None:
    """The earliest timestamp of a known format near the start of ``text``."""
    window = text[:SEARCH_WINDOW]
    if ":" not in window:  # every format has HH:MM:SS; most prose lines stop here
        return None
    best: tuple[int, datetime | None] | None = None
    for fmt in _FORMATS:
        match = fmt.pattern.search(window)
        if match and (best is None or match.start() < best[0]):
            best = (match.start(), fmt.build(match))
    return best[1] if best else None
