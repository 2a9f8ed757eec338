"""Which process wrote a log record: the key under which a rank's records belong together.

One process holds one rank. A CANN plog line names its pid; the node is the host folder its path
names, and "" when nothing names one, so the files of one unnamed node folder and the pastes of one
session are one node. Output without a pid (a ``rank-N.txt`` screen log) is keyed by the rank its
path names. The engine joins a task exception's lines across rotated files and pastes by this key,
and the cluster view (faultbot/cluster) gathers each rank's records under it.
"""

from __future__ import annotations

import msgspec

from ..ingest.records import LogRecord


class ProcessKey(msgspec.Struct, frozen=True, order=True):
    """One rank's process: its node ("" when no path names it) and pid; output without a pid
    (a ``rank-N.txt`` screen log) is keyed by the rank its path names (-1: not known)."""

    node: str
    pid: int = -1
    path_rank: int = -1

    def __str__(self) -> str:
        where = f" ({self.node})" if self.node else ""
        if self.pid >= 0:
            return f"pid {self.pid}{where}"
        return f"rank {self.path_rank}{where}" if self.path_rank >= 0 else f"process{where}"


def process_of(record: LogRecord) -> ProcessKey:
    """The process that wrote ``record``."""
    origin = record.origin
    if record.pid is not None:
        return ProcessKey(origin.node or "", record.pid)
    return ProcessKey(origin.node or "", path_rank=origin.rank if origin.rank is not None else -1)
