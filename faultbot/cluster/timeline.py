"""The timeline of first errors: each rank's first error, earliest first, with its delay after the first."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import msgspec

from ..engine.process import ProcessKey
from .rank_evidence import RankEvidence, RankFailure


class TimelineEntry(msgspec.Struct, frozen=True):
    process: ProcessKey
    error: RankFailure
    offset_s: float | None       # seconds after the earliest first error; None without a time


def timeline(evidence: Mapping[ProcessKey, RankEvidence]) -> tuple[TimelineEntry, ...]:
    firsts = [(key, error) for key, found in evidence.items() if (error := found.first_error()) is not None]
    firsts.sort(key=lambda pair: (pair[1].time is None, pair[1].time or datetime.min, pair[0]))
    start = firsts[0][1].time if firsts else None
    return tuple(TimelineEntry(key, error, round((error.time - start).total_seconds(), 3)
                               if error.time is not None and start is not None else None) for key, error in firsts)
