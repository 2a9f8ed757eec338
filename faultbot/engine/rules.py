"""Derivation rules as the agenda sees them: KB rules (kb/rules.yaml) and aggregations over records.

Every rule has an id, a priority and a specificity, and ``fire`` returns the facts it derives with
their provenance; it never mutates memory itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import msgspec

from ..kb.model import FactRef, FactSpec, Rule
from ..match.symptoms import SymptomMatch
from .conditions import Evaluator, LeafResult, Tri, leaves_of
from .facts import Fact, Provenance, ProvenanceSource, WorkingMemory


class Context(msgspec.Struct, frozen=True):
    """What rules may read besides working memory."""

    specs: Mapping[str, FactSpec]
    matches: Sequence[SymptomMatch]
    echo_entries: frozenset[str]       # ids of entries whose faults are usually another's echo


class DerivationRule(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def priority(self) -> int: ...

    @property
    def specificity(self) -> int: ...

    def fire(self, memory: WorkingMemory, context: Context) -> list[Fact]: ...


class KbRule(msgspec.Struct, frozen=True):
    """A derivation rule of kb/rules*.yaml (or a decoder case) as the agenda fires it."""

    rule: Rule

    @property
    def id(self) -> str:
        return self.rule.id

    @property
    def priority(self) -> int:
        return self.rule.priority

    @property
    def specificity(self) -> int:
        return len(leaves_of(self.rule.when))

    def fire(self, memory: WorkingMemory, context: Context) -> list[Fact]:
        leaves: list[LeafResult] = []
        if Evaluator(memory, context.specs).evaluate(self.rule.when, leaves) is not Tri.TRUE:
            return []
        supports = tuple(fact for leaf in leaves if leaf.verdict is Tri.TRUE
                         for fact in memory.facts(leaf.test.fact))
        derived = []
        for name, value in self.rule.then:
            if isinstance(value, FactRef):
                sources = memory.facts(value.fact)
                derived += [Fact(name, f.value, Provenance(ProvenanceSource.DERIVED, rule=self.id, supports=(f,)))
                            for f in sources]
            else:
                derived.append(Fact(name, value, Provenance(ProvenanceSource.DERIVED, rule=self.id, supports=supports)))
        return derived
