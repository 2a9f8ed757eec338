"""Pulling facts out of log records with the catalogue's extractors, keeping which record said what.

An extractor runs on a record only when one of its literal anchors occurs in the message, so INFO
noise costs one substring scan. Values are typed by the fact's spec; a value that does not fit the
type (an unknown enum spelling) is dropped rather than guessed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ingest.records import LogRecord
from ..kb.fact_values import coerce
from ..kb.model import Extractor, FactCatalogue
from ..match.anchors import AnchorIndex
from ..match.lazy_regex import LazyRegex


@dataclass(frozen=True)
class Observation:
    """One fact value seen in one record."""

    fact: str
    value: object
    text: str              # the text it was read from, as written
    record: LogRecord
    extractor: str


@dataclass(frozen=True)
class _CompiledExtractor:
    spec: Extractor
    regex: LazyRegex


class FactExtractor:
    def __init__(self, catalogue: FactCatalogue, engine: str | None = None):
        self._facts = catalogue.facts
        self._index = AnchorIndex([(_CompiledExtractor(e, LazyRegex(e.pattern)), e.anchors, e.prefilter)
                                   for e in catalogue.extractors], engine)

    @staticmethod
    def _record_fits(extractor: _CompiledExtractor, record: LogRecord) -> bool:
        """The record is of a module and level the extractor reads (records that name none fit)."""
        spec = extractor.spec
        return ((not spec.modules or not record.module or record.module in spec.modules)
                and (not spec.levels or not record.level or record.level in spec.levels))

    def _typed(self, fact: str, text: str) -> object | None:
        try:
            return coerce(self._facts[fact], " ".join(text.split()))
        except ValueError:
            return None

    def extract(self, record: LogRecord) -> list[Observation]:
        found: list[Observation] = []
        if record.error_code:
            found.append(Observation("error_code", record.error_code, record.error_code, record, "record-header"))
        for extractor in self._index.candidates(record.match_text):
            if not self._record_fits(extractor, record):
                continue
            for match in extractor.regex.finditer(record.match_text):
                groups = [(name, text) for name, text in match.groupdict().items() if text is not None]
                for fact, text in groups + list(extractor.spec.sets):
                    value = self._typed(fact, text)
                    if value is not None:
                        found.append(Observation(fact, value, text, record, extractor.spec.id))
        return _unique(found)


def _unique(observations: list[Observation]) -> list[Observation]:
    """One observation per (fact, value) per record: a header code and the same code in the text agree."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for observation in observations:
        key = (observation.fact, str(observation.value))
        if key not in seen:
            seen.add(key)
            kept.append(observation)
    return kept
