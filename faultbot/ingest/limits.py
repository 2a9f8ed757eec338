"""Size and time limits that keep reading bounded in memory and time whatever the input looks like.

The two decompressed-bytes budgets can be raised for a bundle that is really that large:
``FAULTBOT_MAX_ARCHIVE_BYTES`` and ``FAULTBOT_MAX_RUN_BYTES`` (a number of bytes, or with a K, M
or G suffix: ``16G``); the defaults below hold otherwise. ``FAULTBOT_MAX_REGEX_SECONDS`` sets the
CPU seconds the KB's regexes may spend on one record (faultbot/match/regex_budget.py; 0 for none),
``FAULTBOT_MAX_CANDIDATE_LINES`` and ``FAULTBOT_MAX_EVIDENCE_LINES`` the lines of one file the
prefilter lets through and those read in full (faultbot/ingest/line_budget.py; 0 for no budget).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

import msgspec
from msgspec.structs import replace

ARCHIVE_BYTES_VARIABLE = "FAULTBOT_MAX_ARCHIVE_BYTES"
RUN_BYTES_VARIABLE = "FAULTBOT_MAX_RUN_BYTES"
REGEX_SECONDS_VARIABLE = "FAULTBOT_MAX_REGEX_SECONDS"
CANDIDATE_LINES_VARIABLE = "FAULTBOT_MAX_CANDIDATE_LINES"
EVIDENCE_LINES_VARIABLE = "FAULTBOT_MAX_EVIDENCE_LINES"


class ReadLimits(msgspec.Struct, frozen=True):
    """Bounds that keep reading any input finite: line lengths, group sizes, nesting, buffers."""

    chunk_bytes: int = 1 << 20        # bytes read and decoded at a time
    max_line_chars: int = 64 * 1024   # longer lines are cut into records of this size (a note says so)
    sniff_bytes: int = 8192           # head inspected for compression, archives, binary content
    max_nesting: int = 4              # archives in compressed files in archives ...
    max_zip_in_memory: int = 128 << 20  # zips inside a stream must be buffered to be read: all of them at once
    max_group_lines: int = 2000       # lines one traceback or error block may gather
    max_joined_chars: int = 64 * 1024  # a record rejoined from wrapped lines stops growing here
    # Bytes that decompressors and zip members may give out: from one input file (everything nested
    # in it included), and from all the inputs of one run. A bomb stops there with a note.
    max_archive_bytes: int = 4 << 30
    max_run_bytes: int = 16 << 30
    # CPU seconds the KB's regexes may spend on one record (lines are cut at max_line_chars): a
    # regex the safety lint let through that backtracks for longer is stopped, and left out of the
    # rest of the reading, with a note. A linear regex needs milliseconds on the longest record.
    max_regex_seconds: float = 1.0
    # Lines of one file that the prefilter lets through (a microsecond or two each, while the repeat
    # gate holds them back), and of those the lines read in full (tens of microseconds each): past
    # either, the file's lines are only counted, but for its last ``tail_chars`` characters, read
    # again, with a note (faultbot/ingest/line_budget.py). The benchmark trees give about 15,000 and
    # 50 of them per 4 MB file; a flood of different errors or a gzip bomb of one, millions.
    max_candidate_lines: int = 1_000_000
    max_evidence_lines: int = 200_000
    tail_chars: int = 1 << 20

    @classmethod
    def from_environment(cls, environment: Mapping[str, str]) -> ReadLimits:
        """The defaults, with the budgets ``environment`` sets (an unreadable value is ignored)."""
        limits = cls()
        for variable, field in ((ARCHIVE_BYTES_VARIABLE, "max_archive_bytes"), (RUN_BYTES_VARIABLE, "max_run_bytes")):
            size = byte_size(environment.get(variable, ""))
            if size is not None:
                limits = replace(limits, **{field: size})
        seconds = _seconds(environment.get(REGEX_SECONDS_VARIABLE, ""))
        if seconds is not None:
            limits = replace(limits, max_regex_seconds=seconds)
        for variable, field in ((CANDIDATE_LINES_VARIABLE, "max_candidate_lines"),
                                (EVIDENCE_LINES_VARIABLE, "max_evidence_lines")):
            count = _count(environment.get(variable, ""))
            if count is not None:
                limits = replace(limits, **{field: count})
        return limits


_COUNT = re.compile(r"\s*(\d[\d_]{0,20})\s*")
_SIZE = re.compile(r"\s*(\d+)\s*([KMG]?)i?B?\s*", re.IGNORECASE)


def byte_size(text: str) -> int | None:
    """``4096``, ``512M`` or ``16G`` as a number of bytes; None when ``text`` is not such a size."""
    found = _SIZE.fullmatch(text)
    if found is None:
        return None
    return int(found[1]) << {"": 0, "K": 10, "M": 20, "G": 30}[found[2].upper()]


def _count(text: str) -> int | None:
    """``200000`` or ``200_000`` as a count; None when ``text`` is not one."""
    found = _COUNT.fullmatch(text)
    return None if found is None else int(found[1].replace("_", ""))


def _seconds(text: str) -> float | None:
    """``0.5`` or ``2`` as a number of seconds; None when ``text`` is not one (or is negative)."""
    try:
        seconds = float(text)
    except ValueError:
        return None
    return seconds if 0 <= seconds < float("inf") else None


def size_text(count: int) -> str:
    """A byte count as people read it: ``4 GiB``, ``512 MiB``, ``1000 bytes``."""
    for shift, unit in ((30, "GiB"), (20, "MiB"), (10, "KiB")):
        if count >= 1 << shift and count % (1 << shift) == 0:
            return f"{count >> shift} {unit}"
    return f"{count} bytes"


DEFAULT_LIMITS = ReadLimits.from_environment(os.environ)
