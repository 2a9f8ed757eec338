"""From log inputs to evidence: records are read, facts extracted and symptoms matched in one pass.

Only records that yield a fact or a match are kept (inside their observations and matches), so
memory follows the evidence, not the size of the log tree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .extract.facts import FactExtractor, Observation
from .ingest.inputs import InputSpec, Paste
from .ingest.line_filter import LineFilter
from .ingest.reader import LogReader
from .ingest.records import LogRecord, RecordKind
from .ingest.stats import InputStats
from .kb.loader import KnowledgeBase
from .match.symptoms import SymptomMatch, SymptomMatcher


@dataclass(frozen=True)
class Evidence:
    observations: tuple[Observation, ...]
    matches: tuple[SymptomMatch, ...]
    stats: InputStats | None = None


class EvidenceCollector:
    """The extractors and matchers of one knowledge base, compiled once."""

    def __init__(self, kb: KnowledgeBase, use_prefilter: bool = True, engine: str | None = None):
        self.extractor = FactExtractor(kb.catalogue)
        self.matcher = SymptomMatcher(kb, use_prefilter=use_prefilter)
        extractors = kb.catalogue.extractors
        literals = {*self.matcher.anchors, *(a for e in extractors for a in e.anchors)}
        regexes = sorted({e.prefilter for e in extractors if e.prefilter})
        self.line_filter = LineFilter.build(sorted(literals), regexes, engine) if use_prefilter else None
        self.engine = self.line_filter.scanner.engine if self.line_filter else None

    def from_records(self, records: Iterable[LogRecord]) -> Evidence:
        observations: list[Observation] = []
        matches: list[SymptomMatch] = []
        for record in records:
            observations += self.extractor.extract(record)
            matches += self.matcher.match(record)
        return Evidence(tuple(observations), tuple(matches))

    def has_log_records(self, text: str) -> bool:
        """Whether ``text`` holds log records (not just words), e.g. a paste given as an answer."""
        return any(record.kind is not RecordKind.TEXT for record in LogReader([Paste(text)]).records())

    def from_inputs(self, inputs: Sequence[InputSpec]) -> Evidence:
        reader = LogReader(inputs, line_filter=self.line_filter)
        evidence = self.from_records(reader.records())
        return Evidence(evidence.observations, evidence.matches, reader.stats)
