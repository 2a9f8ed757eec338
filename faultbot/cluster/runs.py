"""Runs of table rows for people: consecutive ranks of a communicator in the same state become one
row, so a table of thousands of ranks shows its few odd ones; suspects always stand alone."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from ..engine.process import ProcessKey
from .table import RankRow


class RowRun(msgspec.Struct, frozen=True):
    rows: tuple[RankRow, ...]        # consecutive ranks of one communicator, alike
    suspect: bool

    @property
    def first(self) -> RankRow:
        return self.rows[0]

    @property
    def last(self) -> RankRow:
        return self.rows[-1]


def _alike(row: RankRow) -> tuple[object, ...]:
    error = row.first_error
    return row.group, row.status, (error.code, error.entry, error.op) if error else None


def row_runs(rows: Iterable[RankRow], suspects: set[ProcessKey]) -> list[RowRun]:
    runs: list[list[RankRow]] = []
    for row in rows:
        last = runs[-1][-1] if runs else None
        if (last is not None and row.process not in suspects and last.process not in suspects
                and row.rank == last.rank + 1 and _alike(row) == _alike(last)):
            runs[-1].append(row)
        else:
            runs.append([row])
    return [RowRun(tuple(run), run[0].process in suspects) for run in runs]
