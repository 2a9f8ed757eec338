"""From log inputs to evidence: records are read, facts extracted and symptoms matched in one pass.

Only records that yield a fact or a match are kept (inside their observations and matches), and
of those that say the same thing only the first and the last (faultbot/folding.py), so memory
follows what the evidence says, not the size of the log tree or how often a line repeats. What the
folding's bounds left out is noted beside the files the reader set aside (``InputStats.skipped``),
so every output names it, and so is a KB regex that ran past its time budget on a record
(faultbot/match/regex_budget.py): the record is read again without it, and so is the rest.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence

import msgspec

from . import cache
from .extract.facts import FactExtractor, Observation
from .extract.repeat_keys import RepeatKeys
from .folding import Found, RecordFolder
from .ingest.inputs import InputSpec, Paste
from .ingest.limits import DEFAULT_LIMITS, REGEX_SECONDS_VARIABLE, ReadLimits
from .ingest.line_filter import LineFilter
from .ingest.plog import PlainPlog
from .ingest.reader import LogReader
from .ingest.records import LogRecord, RecordKind
from .ingest.repeats import NO_EVIDENCE
from .ingest.scanner import default_engine
from .ingest.stats import InputStats, SkippedFile
from .kb.loader import KnowledgeBase
from .match.description import MAX_WORDS_CHARS, description_of
from .match.recent import Remembered
from .match.regex_budget import WATCH, OverBudget, watching
from .match.symptoms import SymptomMatch, SymptomMatcher

SAID_REMEMBERED = 4096       # messages whose evidence the repeat gate remembers
SAID_MAX_CHARS = 4096        # ... at most this long: what they hold stays under 16 MB of text


class Evidence(msgspec.Struct, frozen=True):
    """The facts and symptom matches an input gave, and what reading it came to."""

    observations: tuple[Observation, ...]
    matches: tuple[SymptomMatch, ...]
    stats: InputStats | None = None
    description: str = ""      # the input's text when it is a failure told in words (match/description.py)


class _Compiled(msgspec.Struct, frozen=True):
    """The extractors, matchers and line prefilter of one KB and engine, as cached."""

    extractor: FactExtractor
    matcher: SymptomMatcher
    line_filter: LineFilter | None


def _compile(kb: KnowledgeBase, use_prefilter: bool, engine: str) -> _Compiled:
    extractor = FactExtractor(kb.catalogue, engine)
    matcher = SymptomMatcher(kb, use_prefilter=use_prefilter, engine=engine)
    extractors = kb.catalogue.extractors
    literals = {*matcher.anchors, *(a for e in extractors for a in e.anchors)}
    regexes = sorted({e.prefilter for e in extractors if e.prefilter})
    return _Compiled(extractor, matcher, LineFilter.build(sorted(literals), regexes, engine) if use_prefilter else None)


class EvidenceCollector:
    """The extractors and matchers of one knowledge base, compiled once per KB content and engine
    (then loaded from the cache)."""

    def __init__(self, kb: KnowledgeBase, use_prefilter: bool = True, engine: str | None = None):
        engine = engine or default_engine()
        compiled = cache.load_or_build("matchers", (kb.digest.content, engine, str(use_prefilter)),
                                       lambda: _compile(kb, use_prefilter, engine))
        self.extractor = compiled.extractor
        self.matcher = compiled.matcher
        self.matcher.attach(kb.entry_table)
        self.line_filter = compiled.line_filter
        self.engine = engine if use_prefilter else None
        self.per_occurrence = frozenset(name for name, spec in kb.facts.items() if spec.per_occurrence)
        # what the extractors and symptoms make of a message: jobs print the same message over and over
        self._said = Remembered(self._evidence_said, SAID_REMEMBERED, SAID_MAX_CHARS)
        # the repeat gate's key of every line judged: most are of a shape met before
        self.line_key = RepeatKeys(self.repeat_key, self.extractor, self.matcher, self.per_occurrence)

    def repeat_key(self, line: PlainPlog) -> Hashable:
        """What a plain log line's evidence is (faultbot/ingest/repeats.py): its process, level and
        module, the facts it gives (per-occurrence ones left out) and the symptoms it matches, as
        RecordFolder compares records; NO_EVIDENCE when it gives none."""
        WATCH.begin()
        try:
            evidence = self._said(line.message, line.module, line.level)
        except OverBudget:
            # a key of its own: the line is read as a record, where the budget runs out again and is noted
            return object()
        finally:
            WATCH.end()
        return NO_EVIDENCE if evidence == NO_EVIDENCE else (line.pid, line.level, line.module, evidence)

    def _evidence_said(self, message: str, module: str, level: str) -> Hashable:
        facts = self.extractor.values_read(message, module, level, self.per_occurrence)
        symptoms = self.matcher.matched(message, module)
        return (facts, symptoms) if facts or symptoms else NO_EVIDENCE

    def folder(self) -> RecordFolder:
        """A folder of this KB's evidence records, for one reading (``found_in``)."""
        return RecordFolder(self.per_occurrence)

    def found_in(self, records: Iterable[LogRecord], folder: RecordFolder | None = None,
                 limits: ReadLimits = DEFAULT_LIMITS) -> Iterator[Found]:
        """Every record that gives a fact or matches a symptom, with what it gives, in input order,
        repeats folded (faultbot/folding.py) by ``folder``, whose ``notes`` then say what its bounds
        folded or left out, and which KB regexes ran past the time budget ``limits`` sets."""
        folder = folder or self.folder()
        with watching(limits.max_regex_seconds):
            for record in records:
                observations, matches = self._read(record, folder, limits.max_regex_seconds)
                if observations or matches:
                    yield from folder.add(Found(record, tuple(observations), tuple(matches)))
            yield from folder.finish()

    def _read(self, record: LogRecord, folder: RecordFolder, seconds: float
              ) -> tuple[list[Observation], list[SymptomMatch]]:
        """The facts and matches of ``record``. A KB regex that runs past the time budget on it is
        noted in ``folder`` and left out, and the record read again without it."""
        while True:
            WATCH.begin()
            try:
                return self.extractor.extract(record), self.matcher.match(record)
            except OverBudget as spent:
                spent.leave_out()
                self.line_key.forget()
                folder.notes.append(_over_budget_note(record, spent, seconds))
                if not spent.rule:
                    return [], []
            finally:
                WATCH.end()

    def from_records(self, records: Iterable[LogRecord], limits: ReadLimits = DEFAULT_LIMITS) -> Evidence:
        """The evidence of ``records``; its stats hold only the folding's notes."""
        observations: list[Observation] = []
        matches: list[SymptomMatch] = []
        folder = self.folder()
        for found in self.found_in(records, folder, limits):
            observations += found.observations
            matches += found.matches
        return Evidence(tuple(observations), tuple(matches), InputStats().noting(folder.notes))

    def folded(self, inputs: Sequence[InputSpec], limits: ReadLimits = DEFAULT_LIMITS) -> tuple[list[Found], InputStats]:
        """The evidence records of ``inputs`` folded file by file, and what reading them came to:
        one process's share of a tree read in parallel (faultbot/parallel.py)."""
        reader = self.reader(inputs, limits)
        folder = self.folder()
        found = list(self.found_in(reader.records(), folder, limits))
        return found, reader.stats.noting(folder.notes)

    def has_log_records(self, text: str) -> bool:
        """Whether ``text`` holds log records (not just words), e.g. a paste given as an answer."""
        return any(record.kind is not RecordKind.TEXT for record in LogReader([Paste(text)]).records())

    def reader(self, inputs: Sequence[InputSpec], limits: ReadLimits = DEFAULT_LIMITS) -> LogReader:
        """A reader of ``inputs`` with this KB's line prefilter and repeat gate."""
        return LogReader(inputs, limits, line_filter=self.line_filter,
                         repeat_key=self.line_key if self.line_filter else None)

    def from_inputs(self, inputs: Sequence[InputSpec], limits: ReadLimits = DEFAULT_LIMITS) -> Evidence:
        """The evidence of ``inputs``; its stats say what was read, what was set aside or read in
        part, and what the folding left out."""
        reader = self.reader(inputs, limits)
        opening = _Opening(MAX_WORDS_CHARS)
        evidence = self.from_records(opening.through(reader.records()), limits)
        description = "" if evidence.matches or opening.overflowed else description_of(opening.records)
        stats = reader.stats.noting(evidence.stats.skipped if evidence.stats else ())
        return Evidence(evidence.observations, evidence.matches, stats, description)


def _over_budget_note(record: LogRecord, spent: OverBudget, seconds: float) -> SkippedFile:
    budget = f"time budget ({seconds:g} s of CPU, {REGEX_SECONDS_VARIABLE})"
    said = (f"the KB regex of {spent.rule} ran past its {budget} and is left out from there on" if spent.rule
            else f"reading it ran past the KB regexes' {budget}; the record is left out")
    return SkippedFile(record.origin.source, f"line {record.origin.line}: {said}")


class _Opening:
    """The first records of a stream, up to ``limit`` characters, kept as they pass: a short
    input may be a failure told in words."""

    def __init__(self, limit: int):
        self.limit = limit
        self.records: list[LogRecord] = []
        self.overflowed = False
        self._size = 0

    def through(self, records: Iterable[LogRecord]) -> Iterator[LogRecord]:
        for record in records:
            if not self.overflowed:
                self._size += len(record.raw)
                self.overflowed = self._size > self.limit
                if self.overflowed:
                    self.records.clear()
                else:
                    self.records.append(record)
            yield record
