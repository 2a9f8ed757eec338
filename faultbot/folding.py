"""Folding repeated evidence as it is read: of the records that say the same thing, only the first
and the last are kept, the last carrying how many were folded into it.

Jobs print the same evidence over and over: an Entry- line for every collective dispatched
(HCCL_ENTRY_LOG_ENABLE=1), a communicator-init line per step, the same error every few seconds
until the job is killed. Two records say the same thing when they come from the same file and
process, match the same symptoms and give the same facts, apart from facts the catalogue marks
``per_occurrence`` (a task id, a time stamp). Everything the engine and the cluster view read is
in the first and last of such a run (the distinct values, the first and last time), so memory and
output follow what the logs say, not how often they say it.

Records are held until their file ends, then given out in the order of their lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from .extract.facts import Observation
from .ingest.records import LogRecord
from .match.symptoms import SymptomMatch


@dataclass(frozen=True)
class Found:
    """A record that gave facts or matched symptoms, with what it gave."""

    record: LogRecord
    observations: tuple[Observation, ...]
    matches: tuple[SymptomMatch, ...]

    def with_repeats(self, repeats: int) -> Found:
        """The same evidence, its record saying that ``repeats`` records like it were folded into it."""
        record = replace(self.record, repeats=repeats)
        return Found(record, tuple(replace(o, record=record) for o in self.observations),
                     tuple(replace(m, record=record) for m in self.matches))


@dataclass
class _Run:
    """The records of one file that said the same thing: the first, the last so far, and how many."""

    first: tuple[int, Found]
    last: tuple[int, Found] | None = None
    records: int = 1          # records of the run, counting those folded before it was read here


class RecordFolder:
    """Feed it the found records of one input in order (``add``), then ``finish``; each call gives
    out the records of the files that are complete, folded, in input order."""

    def __init__(self, per_occurrence: frozenset[str]):
        self._per_occurrence = per_occurrence
        self._source: str | None = None
        self._runs: dict[tuple, _Run] = {}
        self._seen = 0

    def _key(self, found: Found) -> tuple:
        record = found.record
        origin = record.origin
        facts = frozenset((o.fact, repr(o.value)) for o in found.observations if o.fact not in self._per_occurrence)
        symptoms = frozenset((m.entry_id, m.symptom.id) for m in found.matches)
        return (origin.node, origin.rank, origin.device, origin.worker, origin.named_file, record.pid,
                record.level, facts, symptoms)

    def add(self, found: Found) -> Iterator[Found]:
        if found.record.origin.source != self._source:
            yield from self.finish()
            self._source = found.record.origin.source
        self._seen += 1
        key = self._key(found)
        run = self._runs.get(key)
        if run is None:
            self._runs[key] = _Run((self._seen, found), records=1 + found.record.repeats)
            return
        run.last = (self._seen, found)
        run.records += 1 + found.record.repeats

    def finish(self) -> Iterator[Found]:
        kept: list[tuple[int, Found]] = []
        for run in self._runs.values():
            kept.append(run.first)
            if run.last is not None:
                sequence, last = run.last
                folded = run.records - 2 - run.first[1].record.repeats
                kept.append((sequence, last.with_repeats(folded) if folded != last.record.repeats else last))
        self._runs = {}
        # a run's last record may come late (faultbot/ingest/repeats.py holds repeats to the file's end)
        kept.sort(key=lambda item: (item[1].record.origin.line, item[0]))
        for _, found in kept:
            yield found
