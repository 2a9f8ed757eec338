"""How many other log lines say what an evidence line says: the rest of a symptom's matches,
folded repeats included, and how many ranks (processes) they come from. Reports show the lines
that decide and this count, never every line."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from ..match.symptoms import SymptomMatch


class MoreLike(msgspec.Struct, frozen=True):
    """How many other lines say what an evidence line says."""

    lines: int        # other lines that matched the same symptom of the same entry
    ranks: int        # the processes they come from, besides the shown line's own


def _process(match: SymptomMatch) -> tuple[object, ...]:
    record = match.record
    origin = record.origin
    return (origin.source if record.pid is None and origin.rank is None else None, origin.node, record.pid,
            origin.rank)


def more_like(shown: SymptomMatch, matches: Sequence[SymptomMatch]) -> MoreLike:
    alike = [m for m in matches if m.entry_id == shown.entry_id and m.symptom.id == shown.symptom.id]
    lines = sum(1 + m.record.repeats for m in alike) - 1
    ranks = {_process(m) for m in alike} - {_process(shown)}
    return MoreLike(max(lines, 0), len(ranks))
