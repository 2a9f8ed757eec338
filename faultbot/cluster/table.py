"""The summary table: one row per communicator and rank, with the rank's node, status and first error."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

import msgspec
from msgspec.structs import replace

from ..engine.process import ProcessKey
from ..ingest.records import LogRecord
from .communicators import Communicator
from .rank_evidence import HeartbeatSeen, OpEntry, RankEvidence, RankFailure


class RowStatus(str, Enum):
    ERROR = "error"          # its first error here is not a timeout
    TIMEOUT = "timeout"      # it timed out waiting for the others
    SILENT = "silent"        # no error, while other ranks of the communicator timed out
    OK = "ok"                # no error, and none in the communicator either
    NO_LOGS = "no logs"      # a rank of the communicator that no input speaks for


class RankRow(msgspec.Struct, frozen=True):
    group: str
    rank: int
    process: ProcessKey | None       # None for a rank without logs
    device: int | None
    status: RowStatus
    first_error: RankFailure | None
    last_op: OpEntry | None
    heartbeats: tuple[HeartbeatSeen, ...]
    destroyed: LogRecord | None


_NONE = RankEvidence()


def _status(error: RankFailure | None) -> RowStatus:
    if error is None:
        return RowStatus.OK
    return RowStatus.TIMEOUT if error.echo else RowStatus.ERROR


def table(comms: tuple[Communicator, ...], evidence: Mapping[ProcessKey, RankEvidence]) -> tuple[RankRow, ...]:
    rows: list[RankRow] = []
    for comm in comms:
        group_rows = []
        for member in comm.members:
            found = evidence.get(member.process, _NONE)
            error = found.first_error(comm.name)
            group_rows.append(RankRow(comm.name, member.rank, member.process, member.device, _status(error), error,
                                      found.last_op(comm.name), found.heartbeats, found.destroyed))
        timed_out = any(row.status is RowStatus.TIMEOUT for row in group_rows)
        group_rows = [replace(row, status=RowStatus.SILENT) if timed_out and row.status is RowStatus.OK else row
                      for row in group_rows]
        group_rows += [RankRow(comm.name, rank, None, None, RowStatus.NO_LOGS, None, None, (), None)
                       for rank in comm.missing]
        rows += sorted(group_rows, key=lambda row: row.rank)
    return tuple(rows)
