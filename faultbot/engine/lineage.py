"""What an entry means once its family is taken into account: inherited symptoms and conditions.

A child refines its parent: it is recognised by its own symptoms and its ancestors', and it holds
only when its ancestors' conditions, its ``applies_to`` ranges and its own conditions all hold.
Built once per knowledge base, so every evaluation sees the very same condition objects.
"""

from __future__ import annotations

from ..kb.loader import KnowledgeBase
from ..kb.model import AllOf, Condition, Entry, FactTest, Op


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
    def __init__(self, kb: KnowledgeBase):
        self.kb = kb
        own: dict[str, list[Condition]] = {
            e.id: [*applicability(e), *([e.conditions] if e.conditions is not None else [])] for e in kb.entries}
        self._ancestors = {e.id: self._chain(e) for e in kb.entries}
        self._conditions: dict[str, Condition | None] = {}
        for entry in kb.entries:
            parts = [part for member in (*self._ancestors[entry.id], entry) for part in own[member.id]]
            self._conditions[entry.id] = (None if not parts else parts[0] if len(parts) == 1
                                          else AllOf(tuple(parts), entry.where))

    def _chain(self, entry: Entry) -> tuple[Entry, ...]:
        chain = []
        parent_id = entry.parent_id
        while parent_id and (parent := self.kb.entry(parent_id)) is not None:
            chain.append(parent)
            parent_id = parent.parent_id
        return tuple(reversed(chain))

    def ancestors(self, entry: Entry) -> tuple[Entry, ...]:
        """Root first, ``entry`` excluded."""
        return self._ancestors[entry.id]

    def condition(self, entry: Entry) -> Condition | None:
        return self._conditions[entry.id]

    def is_echo(self, entry: Entry) -> bool:
        return entry.echo or any(a.echo for a in self._ancestors[entry.id])


def depth(entry: Entry) -> int:
    return entry.id.count(".")
