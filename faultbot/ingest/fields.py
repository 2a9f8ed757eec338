"""What a header parser extracts from one piece of text, before it becomes a LogRecord."""

from __future__ import annotations

from datetime import datetime

import msgspec

from faultbot.ingest.records import RecordKind

# Level spellings normalised to one name each; single letters are glog/c10 severities.
LEVEL_NAMES = {
    "WARN": "WARNING",
    "I": "INFO",
    "W": "WARNING",
    "E": "ERROR",
    "F": "FATAL",
}


def level_name(raw: str | None) -> str | None:
    return LEVEL_NAMES.get(raw, raw) if raw else None


def small_int(digits: str | None) -> int | None:
    """int of a bounded digit group; None when absent."""
    return int(digits) if digits else None


class Parsed(msgspec.Struct, frozen=True):
    """What a header parser read from one piece of text, before it becomes a LogRecord."""

    kind: RecordKind
    message: str
    level: str | None = None
    module: str | None = None
    pid: int | None = None
    process: str | None = None
    timestamp: datetime | None = None
    src_file: str | None = None
    src_line: int | None = None
    tid: int | None = None
    error_code: str | None = None
    # torch_npu's "(PID:1, Device:0, RankID:3)" names the device and rank in the content itself.
    device: int | None = None
    rank: int | None = None
    # The header was cut: what is known is kept, the rest left None.
    truncated: bool = False
