"""What an entry means once its family is taken into account: inherited symptoms and conditions.

A child refines its parent: it is recognised by its own symptoms and its ancestors', and it holds
only when its ancestors' conditions, its ``applies_to`` ranges and its own conditions all hold.
Built once per knowledge base, so every evaluation sees the very same condition objects.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..kb.loader import KnowledgeBase
from ..kb.model import AllOf, Condition, Entry, FactTest, Op, parent_of


def applicability(entry: Entry) -> list[FactTest]:
    """``applies_to`` as fact tests: version ranges and products are conditions like any other."""
    applies = entry.applies_to
    tests = [FactTest(fact, Op.VERSION_IN, rng, entry.where)
             for fact, rng in (("cann_version", applies.cann), ("hdk_version", applies.hdk),
                               ("torch_npu_version", applies.torch_npu)) if rng is not None]
    if applies.products:
        tests.append(FactTest("product", Op.IN, applies.products, entry.where))
    return tests


class Lineage:
    """The families of a knowledge base, from its index: an entry is read whole only when a
    diagnosis needs its conditions or symptoms."""

    def __init__(self, kb: KnowledgeBase):
        self.kb = kb
        index = kb.index
        known = set(index.ids)
        self._ancestor_ids = {ident: _chain(ident, known) for ident in index.ids}
        self.echo_ids = frozenset(ident for ident in index.ids
                                  if ident in index.echo or not index.echo.isdisjoint(self._ancestor_ids[ident]))
        self._conditions: dict[str, Condition | None] = {}
        self._families: dict[frozenset[str], list[Entry]] = {}

    def ancestors(self, entry: Entry) -> tuple[Entry, ...]:
        """Root first, ``entry`` excluded."""
        return tuple(self.kb.entry_table[ident] for ident in self._ancestor_ids[entry.id])

    def condition(self, entry: Entry) -> Condition | None:
        if entry.id not in self._conditions:
            parts = [part for member in (*self.ancestors(entry), entry) for part in _own_conditions(member)]
            self._conditions[entry.id] = (None if not parts else parts[0] if len(parts) == 1
                                          else AllOf(tuple(parts), entry.where))
        return self._conditions[entry.id]

    def is_echo(self, entry: Entry) -> bool:
        return entry.id in self.echo_ids

    def families_of(self, entry_ids: Iterable[str]) -> list[Entry]:
        """The entries that are, or refine, one of ``entry_ids``, by id (remembered: question
        selection asks again for every answer it tries)."""
        named = frozenset(entry_ids)
        if named not in self._families:
            self._families[named] = [self.kb.entry_table[ident] for ident in self.kb.index.ids
                                     if ident in named or not named.isdisjoint(self._ancestor_ids[ident])]
        return self._families[named]


def _chain(entry_id: str, known: set[str]) -> tuple[str, ...]:
    chain = []
    parent_id = parent_of(entry_id)
    while parent_id and parent_id in known:
        chain.append(parent_id)
        parent_id = parent_of(parent_id)
    return tuple(reversed(chain))


def _own_conditions(entry: Entry) -> list[Condition]:
    return [*applicability(entry), *([entry.conditions] if entry.conditions is not None else [])]


def depth(entry: Entry) -> int:
    return entry.id.count(".")
