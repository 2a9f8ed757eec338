"""Working memory: every fact known during a diagnosis, with where it came from.

A fact comes from a log record, an engineer's answer, a default, or a derivation rule that names
the facts supporting it. Asserting an equal fact twice changes nothing; answers take precedence
over what logs say about the same fact.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import Enum

import msgspec

from ..equality import equal_apart_from
from ..ingest.records import LogRecord


class ProvenanceSource(str, Enum):
    """Where one value of a fact came from (the catalogue's kb.model.FactSource says where a fact may)."""

    LOG = "log"
    ANSWER = "answer"
    DERIVED = "derived"
    DEFAULT = "default"


class Provenance(msgspec.Struct, frozen=True):
    """Where a fact came from: a log record, an answer, a default, or a rule and the facts it used."""

    source: ProvenanceSource
    record: LogRecord | None = None
    rule: str = ""
    supports: tuple[Fact, ...] = ()
    note: str = ""

    def describe(self) -> str:
        if self.source is ProvenanceSource.LOG and self.record is not None:
            origin = self.record.origin
            return f"log {origin.source}:{origin.line}"
        if self.source is ProvenanceSource.DERIVED:
            return f"rule {self.rule}" + (f" ({self.note})" if self.note else "")
        if self.source is ProvenanceSource.DEFAULT:
            return f"default ({self.note})" if self.note else "default"
        return "your answer"


@equal_apart_from("provenance")
class Fact(msgspec.Struct, frozen=True):
    """A fact's value in working memory, with where it came from."""

    name: str
    value: object
    provenance: Provenance

    @property
    def key(self) -> tuple[str, str]:
        return self.name, repr(self.value)


class WorkingMemory:
    """Facts by name, in the order they were asserted; answers shadow other sources."""

    def __init__(self, facts: Iterable[Fact] = (), unknown: Iterable[str] = ()):
        self._facts: dict[str, list[Fact]] = {}
        self._keys: set[tuple[object, ...]] = set()
        self.unknown_answers: frozenset[str] = frozenset(unknown)
        for fact in facts:
            self.add(fact)

    def add(self, fact: Fact) -> bool:
        """Assert ``fact``; False when it was already known from the same record or rule."""
        provenance = fact.provenance
        key = (*fact.key, provenance.source.value, id(provenance.record) if provenance.record else provenance.rule)
        if key in self._keys:
            return False
        self._keys.add(key)
        self._facts.setdefault(fact.name, []).append(fact)
        return True

    def facts(self, name: str) -> list[Fact]:
        found = self._facts.get(name, [])
        answered = [f for f in found if f.provenance.source is ProvenanceSource.ANSWER]
        return answered or found

    def values(self, name: str) -> list[object]:
        """The distinct values of ``name``, first seen first (a set, not a list search: a line may
        name thousands of error codes)."""
        seen: dict[object, object] = {}
        unhashable: list[object] = []
        for fact in self.facts(name):
            try:
                seen.setdefault(fact.value, fact.value)
            except TypeError:
                if fact.value not in unhashable:
                    unhashable.append(fact.value)
        return [*seen.values(), *unhashable]

    def known(self, name: str) -> bool:
        return name in self._facts

    def answered(self, name: str) -> bool:
        return name in self.unknown_answers or any(
            f.provenance.source is ProvenanceSource.ANSWER for f in self._facts.get(name, []))

    def __iter__(self) -> Iterator[Fact]:
        for facts in self._facts.values():
            yield from facts

    def names(self) -> list[str]:
        return list(self._facts)

    def copy(self) -> WorkingMemory:
        return WorkingMemory(iter(self), self.unknown_answers)
