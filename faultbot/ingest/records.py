"""Log records: one logical log entry each, with where it came from.

Everything downstream (fact extraction, symptom matching, the engine) works on these, never on
raw text, so a record keeps both its parsed fields and the raw text it was cut from.
"""

from __future__ import annotations

from datetime import datetime
from enum import Enum

import msgspec


class RecordKind(str, Enum):
    PLOG = "plog"                  # [LEVEL] MODULE(pid,process):timestamp [file.cc:line] [tid]message
    SCREEN = "screen"              # [PID: n] timestamp Name(EI0012): message  (screen-printed error)
    ERROR_CODE_HEADER = "error_code_header"  # EI0002: [PID: n] ... / EZ9999: Inner Error!
    TRACEBACK = "traceback"        # CANN "TraceBack (most recent call last):" continuation lines
    PYTHON_TRACEBACK = "python_traceback"
    TEXT = "text"                  # anything else worth keeping (free text, other stacks' logs)


class Origin(msgspec.Struct, frozen=True):
    """Where a record was read: file (``bundle.tar.gz!log/run/plog/plog-1.log`` inside an
    archive, ``<paste>`` or ``<stdin>`` otherwise), 1-based line of its first line, and the node
    and rank when the path or the content says so.

    ``device`` is the NPU device id (``log/debug/device-<id>/``, torch_npu's ``Device:<d>``), which
    is not a rank; ``worker`` is a launcher's worker label (``Worker_TP3`` from vLLM); and
    ``named_file`` is the log file a grep ``path:`` prefix in pasted output names."""

    source: str
    line: int
    node: str | None = None
    rank: int | None = None
    device: int | None = None
    worker: str | None = None
    named_file: str | None = None


class LogRecord(msgspec.Struct, frozen=True):
    """One logical log entry: its parsed fields, the text it was read from, and where."""

    origin: Origin
    kind: RecordKind
    raw: str                       # the text as read (after decoding), for evidence display
    message: str                   # normalised message body, header stripped
    level: str | None = None       # ERROR, WARNING, INFO, DEBUG, EVENT, TRACE, FATAL (WARN -> WARNING)
    module: str | None = None      # HCCL, RUNTIME, ROCE, HCCP, ...
    pid: int | None = None
    process: str | None = None
    timestamp: datetime | None = None
    src_file: str | None = None    # task_exception_handler.cc
    src_line: int | None = None
    tid: int | None = None
    error_code: str | None = None  # EI0012 for screen / error-code-header records
    notes: tuple[str, ...] = ()  # repairs applied: "glued", "wrapped", "truncated", ...
    repeats: int = 0               # records that said the same were folded into this one (faultbot/folding.py)

    @property
    def match_text(self) -> str:
        """The message as extractors and signatures see it: with the error code in front when
        the parser moved it out of the message (``EI0002: [PID: ..] ...`` headers)."""
        if self.error_code and self.error_code not in self.message:
            return f"{self.error_code}: {self.message}"
        return self.message
