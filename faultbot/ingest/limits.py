"""Size limits that keep reading bounded in memory and time whatever the input looks like."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReadLimits:
    """Bounds that keep reading any input finite: line lengths, group sizes, nesting, buffers."""

    chunk_bytes: int = 1 << 20        # bytes read and decoded at a time
    max_line_chars: int = 1 << 20     # longer lines are cut into pieces of this size
    sniff_bytes: int = 8192           # head inspected for compression, archives, NUL bytes
    max_nesting: int = 4              # archives in compressed files in archives ...
    max_zip_in_memory: int = 256 << 20  # a zip inside a stream must be buffered to be read
    max_group_lines: int = 2000       # lines one traceback or error block may gather
    max_joined_chars: int = 64 * 1024  # a record rejoined from wrapped lines stops growing here


DEFAULT_LIMITS = ReadLimits()
