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

What is kept stays bounded whatever the logs hold (``FoldLimits``): past a number of different runs
in one file, of one kind in all files, or in all files, further records are folded by kind only
(level, symptoms and the names of their facts, not their values or process), and of one record only
so many values of one fact are kept. Either is said in ``notes``, naming the file. A tree read by
several processes (faultbot/parallel.py) is folded file by file in each, then once more as one
reading (``merging``), so that the bounds over all files hold there too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from sys import maxsize

import msgspec
from msgspec.structs import replace

from .extract.facts import Observation
from .ingest.records import LogRecord
from .ingest.stats import SkippedFile
from .match.symptoms import SymptomMatch


class FoldLimits(msgspec.Struct, frozen=True):
    """Bounds on the evidence one reading keeps (see the module's description)."""

    max_runs_per_file: int = 1000        # different runs of one file kept apart
    max_runs_per_kind: int = 5000        # ... of one kind (``RecordFolder._kind``) in all files together
    max_runs: int = 50_000               # ... of all kinds in all files together
    max_values_per_record: int = 64      # values of one fact read from one record


DEFAULT_FOLD_LIMITS = FoldLimits()


class Found(msgspec.Struct, frozen=True):
    """A record that gave facts or matched symptoms, with what it gave."""

    record: LogRecord
    observations: tuple[Observation, ...]
    matches: tuple[SymptomMatch, ...]

    def with_repeats(self, repeats: int) -> Found:
        """The same evidence, its record saying that ``repeats`` records like it were folded into it."""
        record = replace(self.record, repeats=repeats)
        return Found(record, tuple(replace(o, record=record) for o in self.observations),
                     tuple(replace(m, record=record) for m in self.matches))


class _Run(msgspec.Struct):
    """The records of one file that said the same thing: the first, the last so far, and how many."""

    first: tuple[int, Found]
    last: tuple[int, Found] | None = None
    records: int = 1          # records of the run, counting those folded before it was read here


class RecordFolder:
    """Feed it the found records of one input in order (``add``), then ``finish``; each call gives
    out the records of the files that are complete, folded, in input order. ``notes`` says where
    ``limits`` folded or left out more than repeats."""

    def __init__(self, per_occurrence: frozenset[str], limits: FoldLimits = DEFAULT_FOLD_LIMITS):
        self._per_occurrence = per_occurrence
        self._limits = limits
        self._source: str | None = None
        self._runs: dict[tuple, _Run] = {}
        self._seen = 0
        self._file_runs = 0          # runs of the current file kept apart by their values
        self._all_runs = 0           # ... of all files so far
        self._kind_runs: Counter[tuple[object, ...]] = Counter()     # ... of each kind, of all files so far
        self._by_kind = 0            # records of the current file folded by kind only
        self._cut_records = 0        # ... that gave too many values of a fact
        self._first_cut = ""         # where and what the first of them gave
        self.notes: list[SkippedFile] = []

    def _key(self, found: Found) -> tuple:
        record = found.record
        origin = record.origin
        facts = frozenset((o.fact, repr(o.value)) for o in found.observations if o.fact not in self._per_occurrence)
        symptoms = frozenset((m.entry_id, m.symptom.id) for m in found.matches)
        return (origin.node, origin.rank, origin.device, origin.worker, origin.named_file, record.pid,
                record.level, facts, symptoms)

    @classmethod
    def merging(cls, per_occurrence: frozenset[str], limits: FoldLimits = DEFAULT_FOLD_LIMITS) -> RecordFolder:
        """A folder of records that folders of one file each gave out, to fold as one reading: the
        bounds over all files apply, the bound of one file already has."""
        return cls(per_occurrence, replace(limits, max_runs_per_file=maxsize))

    @staticmethod
    def _kind(found: Found) -> tuple:
        """What a record is, short of its values and process: runs past the limits are folded by it."""
        return ("kind", found.record.level, frozenset(o.fact for o in found.observations),
                frozenset((m.entry_id, m.symptom.id) for m in found.matches))

    def add(self, found: Found) -> Iterator[Found]:
        if found.record.origin.source != self._source:
            yield from self.finish()
            self._source = found.record.origin.source
        self._seen += 1
        found = self._with_values_bounded(found)
        key = self._key(found)
        run = self._runs.get(key)
        if run is None:
            kind = self._kind(found)
            limits = self._limits
            if (self._file_runs >= limits.max_runs_per_file or self._all_runs >= limits.max_runs
                    or self._kind_runs[kind] >= limits.max_runs_per_kind):
                self._by_kind += 1 + found.record.repeats
                key = kind
                run = self._runs.get(key)
            else:
                self._file_runs += 1
                self._all_runs += 1
                self._kind_runs[kind] += 1
        if run is None:
            self._runs[key] = _Run((self._seen, found), records=1 + found.record.repeats)
            return
        run.last = (self._seen, found)
        run.records += 1 + found.record.repeats

    def _with_values_bounded(self, found: Found) -> Found:
        most = self._limits.max_values_per_record
        if len(found.observations) <= most:     # no fact can have more values than that: most records
            return found
        counts = Counter(o.fact for o in found.observations)
        over = sorted(fact for fact, count in counts.items() if count > most)
        if not over:
            return found
        kept: Counter[str] = Counter()
        observations = []
        for observation in found.observations:
            kept[observation.fact] += 1
            if kept[observation.fact] <= most:
                observations.append(observation)
        self._cut_records += 1
        if self._cut_records == 1:
            told = ", ".join(f"{counts[fact]} values of {fact}" for fact in over)
            self._first_cut = f"line {found.record.origin.line} gives {told}"
        return Found(found.record, tuple(observations), found.matches)

    def finish(self) -> Iterator[Found]:
        source = str(self._source)
        if self._cut_records:
            self.notes.append(SkippedFile(source, f"{self._cut_records} record(s) with more than "
                                          f"{self._limits.max_values_per_record} values of a fact, of which only "
                                          f"the first are kept ({self._first_cut})"))
        if self._by_kind:
            self.notes.append(SkippedFile(source, f"{self._by_kind} evidence records past the first "
                                          f"{self._file_runs} different ones (of {self._all_runs} in all, at most "
                                          f"{self._limits.max_runs_per_kind:,} of one kind) folded by kind: only the "
                                          "first and last of each symptom and set of facts kept"))
        kept: list[tuple[int, Found]] = []
        for run in self._runs.values():
            kept.append(run.first)
            if run.last is not None:
                sequence, last = run.last
                folded = run.records - 2 - run.first[1].record.repeats
                kept.append((sequence, last.with_repeats(folded) if folded != last.record.repeats else last))
        self._runs = {}
        self._file_runs = self._by_kind = self._cut_records = 0
        # a run's last record may come late (faultbot/ingest/repeats.py holds repeats to the file's end)
        kept.sort(key=lambda item: (item[1].record.origin.line, item[0]))
        for _, found in kept:
            yield found
