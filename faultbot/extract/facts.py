"""Pulling facts out of log records with the catalogue's extractors, keeping which record said what.

An extractor runs on a record only when one of its literal anchors occurs in the message, so INFO
noise costs one substring scan. Values are typed by the fact's spec; a value that does not fit the
type (an unknown enum spelling) is dropped rather than guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..ingest.records import LogRecord
from ..kb.fact_values import coerce
from ..kb.facts_schema import FactCatalogue
from ..kb.model import Extractor


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
    regex: re.Pattern[str]


class FactExtractor:
    def __init__(self, catalogue: FactCatalogue):
        self._facts = catalogue.facts
        self._extractors = tuple(_CompiledExtractor(e, re.compile(e.pattern)) for e in catalogue.extractors)
        anchors = sorted({a for e in catalogue.extractors for a in e.anchors}, key=len, reverse=True)
        self._anchor_scan = re.compile("|".join(map(re.escape, anchors))) if anchors else None

    def _present_anchors(self, message: str) -> set[str]:
        """Anchors in ``message``; an anchor inside another found at the same place counts too."""
        if self._anchor_scan is None:
            return set()
        found = {m.group(0) for m in self._anchor_scan.finditer(message)}
        return found | {a for e in self._extractors for a in e.spec.anchors if a not in found and a in message} \
            if found else found

    @staticmethod
    def _applies(extractor: _CompiledExtractor, record: LogRecord, present: set[str]) -> bool:
        spec = extractor.spec
        if spec.modules and record.module and record.module not in spec.modules:
            return False
        # Extractors with only a prefilter regex run on every record; their regex decides.
        return not spec.anchors or any(anchor in present for anchor in spec.anchors)

    def _typed(self, fact: str, text: str) -> object | None:
        try:
            return coerce(self._facts[fact], " ".join(text.split()))
        except ValueError:
            return None

    def extract(self, record: LogRecord) -> list[Observation]:
        found: list[Observation] = []
        if record.error_code:
            found.append(Observation("error_code", record.error_code, record.error_code, record, "record-header"))
        present = self._present_anchors(record.match_text)
        for extractor in self._extractors:
            if not self._applies(extractor, record, present):
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
