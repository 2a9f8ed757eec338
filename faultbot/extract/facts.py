"""Pulling facts out of log records with the catalogue's extractors, keeping which record said what.

An extractor runs on a record only when one of its literal anchors occurs in the message, so INFO
noise costs one substring scan. Values are typed by the fact's spec; a value that does not fit the
type (an unknown enum spelling) is dropped rather than guessed. An extractor whose regex ran past
the time budget (faultbot/match/regex_budget.py) is left out from then on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property, partial
from typing import NamedTuple

import msgspec

from ..ingest.number_shapes import Kinds, reads_numbers_blindly
from ..ingest.records import LogRecord
from ..kb.fact_values import coerce
from ..kb.model import FactCatalogue
from ..match.anchors import AnchorIndex, Unsure
from ..match.recent import Recent
from ..match.regex_budget import OverBudget


class Observation(msgspec.Struct, frozen=True):
    """One fact value seen in one record."""

    fact: str
    value: object
    text: str              # the text it was read from, as written
    record: LogRecord
    extractor: str


class _CompiledExtractor(NamedTuple):
    """An extractor as records are read with it: a row of plain values (see SymptomMatcher)."""

    id: str
    pattern: str
    sets: tuple[tuple[str, str], ...]
    modules: tuple[str, ...]
    levels: tuple[str, ...]

    def fits(self, module: str | None, level: str | None) -> bool:
        """A record of this module and level is one the extractor reads (records that name none fit)."""
        return ((not self.modules or not module or module in self.modules)
                and (not self.levels or not level or level in self.levels))


class FactExtractor:
    def __init__(self, catalogue: FactCatalogue, engine: str | None = None):
        self._facts = catalogue.facts
        self._index = AnchorIndex([(_CompiledExtractor(e.id, e.pattern, e.sets, e.modules, e.levels), e.anchors,
                                    e.prefilter) for e in catalogue.extractors], engine)
        self._regexes: dict[str, re.Pattern[str]] = {}
        self._left_out: set[str] = set()     # extractors that ran past the time budget

    def __getstate__(self) -> dict[str, object]:
        state = {**self.__dict__, "_regexes": {}, "_left_out": set()}
        state.pop("_recent", None)
        return state

    @cached_property
    def _recent(self) -> Recent[tuple[tuple[str, str, str, int, int], ...]]:
        return Recent(self._read)

    def _regex(self, pattern: str) -> re.Pattern[str]:
        compiled = self._regexes.get(pattern)
        if compiled is None:
            compiled = self._regexes[pattern] = re.compile(pattern)
        return compiled

    def _typed(self, fact: str, text: str) -> object | None:
        try:
            return coerce(self._facts[fact], " ".join(text.split()))
        except ValueError:
            return None

    def _reading(self, text: str, module: str | None, level: str | None) -> Iterator[_CompiledExtractor]:
        """The extractors that read ``text`` in a record of this module and level."""
        left_out = self._left_out
        for extractor in self._index.candidates(text):
            if extractor.fits(module, level) and not (left_out and extractor.id in left_out):
                yield extractor

    def _read(self, text: str, module: str | None, level: str | None) -> tuple[tuple[str, str, str, int, int], ...]:
        """(extractor id, fact, text of the value, where it starts and ends) for every value the
        extractors read in ``text``; a value the extractor sets whatever the text says is at (-1, -1)."""
        read: list[tuple[str, str, str, int, int]] = []
        for extractor in self._reading(text, module, level):
            try:
                for match in self._regex(extractor.pattern).finditer(text):
                    for fact, value_text in match.groupdict().items():
                        if value_text is not None:
                            read.append((extractor.id, fact, value_text, *match.span(fact)))
                    for fact, value_text in extractor.sets:
                        read.append((extractor.id, fact, value_text, -1, -1))
            except OverBudget:
                raise OverBudget(f"extractor {extractor.id}", partial(self._left_out.add, extractor.id)) from None
        return tuple(read)

    def extract(self, record: LogRecord) -> list[Observation]:
        found: list[Observation] = []
        if record.error_code:
            found.append(Observation("error_code", record.error_code, record.error_code, record, "record-header"))
        read: set[tuple[str, str]] = set()      # a line naming one code ten thousand times types it once
        for extractor_id, fact, value_text, _, _ in self._recent(record.match_text, record.module, record.level):
            if (fact, value_text) in read:
                continue
            read.add((fact, value_text))
            value = self._typed(fact, value_text)
            if value is not None:
                found.append(Observation(fact, value, value_text, record, extractor_id))
        return _unique(found)

    def values_read(self, text: str, module: str | None, level: str | None,
                    leaving_out: frozenset[str]) -> tuple[tuple[str, str], ...]:
        """What ``extract`` would read in a record of this text, module and level, as (fact, text)
        pairs, facts in ``leaving_out`` left out: equal pairs mean equal facts."""
        return tuple([(fact, " ".join(value_text.split())) for _, fact, value_text, _, _ in self._recent(text, module, level)
                      if fact not in leaving_out])

    def values_at(self, text: str, module: str | None, level: str | None, leaving_out: frozenset[str], kinds: Kinds,
                  wildcards: str) -> tuple[tuple[tuple[str, str, int, int], ...], Unsure] | None:
        """``values_read`` with where in ``text`` each value was read ((-1, -1): set whatever the text
        says), and the patterns (``AnchorIndex.unsure``) in whose absence every text of its shape
        (faultbot/ingest/number_shapes.py: numbers of ``kinds``, ``wildcards``) gives its values at
        those places: the same extractors read them all, each reading the digits of numbers blindly.
        None when not so."""
        unsure = self._index.unsure(wildcards, kinds)
        if unsure is None or not all(reads_numbers_blindly(extractor.pattern, 0, kinds)
                                     for extractor in self._reading(text, module, level)):
            return None
        return tuple([(fact, value_text, start, end) for _, fact, value_text, start, end in self._recent(text, module, level)
                      if fact not in leaving_out]), unsure


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
