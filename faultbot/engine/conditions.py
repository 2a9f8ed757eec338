"""Three-valued evaluation of KB conditions against working memory.

A fact test is unknown when its fact is missing, so "we do not know yet" never reads as "no".
Evaluation also returns every leaf test with its verdict, which the explanations and the question
selection use.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from enum import Enum
from functools import lru_cache

import msgspec

from ..kb.model import AllOf, AnyOf, Condition, FactRef, FactSource, FactSpec, FactTest, NotOf, Op
from .facts import WorkingMemory


class Tri(Enum):
    TRUE = "true"
    FALSE = "false"
    UNKNOWN = "unknown"

    def __invert__(self) -> Tri:
        return {Tri.TRUE: Tri.FALSE, Tri.FALSE: Tri.TRUE}.get(self, Tri.UNKNOWN)


class LeafResult(msgspec.Struct, frozen=True):
    """The verdict of one fact test of a condition, with the facts it read."""

    test: FactTest
    verdict: Tri
    values: tuple[object, ...]


@lru_cache(maxsize=512)
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


_COMPARE: dict[Op, Callable[[object, object], bool]] = {
    Op.GT: lambda a, b: a > b, Op.GE: lambda a, b: a >= b,  # type: ignore[operator]
    Op.LT: lambda a, b: a < b, Op.LE: lambda a, b: a <= b,  # type: ignore[operator]
}


def _holds(test: FactTest, value: object, operand: object) -> bool:
    if test.op is Op.EQUALS:
        return value == operand
    if test.op is Op.IN:
        return value in operand  # type: ignore[operator]
    if test.op is Op.VERSION_IN:
        return bool(operand.contains(value))  # type: ignore[attr-defined]
    if test.op is Op.REGEX:
        return _regex(str(operand)).search(str(value)) is not None
    try:
        return _COMPARE[test.op](value, operand)
    except TypeError:
        return False


def holds(test: FactTest, value: object) -> bool:
    """Whether one value passes a fact test whose operand is a literal (decoders test value by value)."""
    return _holds(test, value, test.value)


class Evaluator:
    """Evaluates conditions over one working memory; ``overrides`` pins leaf verdicts for what-if runs.
    Without a log (``from_log`` False: a failure told in words) no fact is absent for good."""

    def __init__(self, memory: WorkingMemory, specs: Mapping[str, FactSpec],
                 overrides: Mapping[int, Tri] | None = None, from_log: bool = True):
        self.memory = memory
        self.specs = specs
        self.overrides = overrides or {}
        self.from_log = from_log

    def _closed_world(self, fact: str) -> bool:
        """Facts only logs or rules provide are absent, not unknown, when nothing provided them."""
        spec = self.specs.get(fact)
        return self.from_log and spec is not None and FactSource.USER not in spec.sources

    def _leaf(self, test: FactTest) -> LeafResult:
        values = tuple(self.memory.values(test.fact))
        if id(test) in self.overrides:
            return LeafResult(test, self.overrides[id(test)], values)
        if test.op is Op.EXISTS:
            if values:
                verdict = Tri.TRUE
            elif self._closed_world(test.fact) or self.memory.answered(test.fact):
                verdict = Tri.FALSE
            else:
                verdict = Tri.UNKNOWN
            return LeafResult(test, verdict if test.value else ~verdict, values)
        if not values:
            # A fact nobody can be asked for stays absent for good: its tests are false.
            return LeafResult(test, Tri.FALSE if self._closed_world(test.fact) else Tri.UNKNOWN, values)
        operand = test.value
        if isinstance(operand, FactRef):
            others = self.memory.values(operand.fact)
            if not others:
                return LeafResult(test, Tri.UNKNOWN, values)
            operand = others[0]
        verdict = Tri.TRUE if any(_holds(test, value, operand) for value in values) else Tri.FALSE
        return LeafResult(test, verdict, values)

    def evaluate(self, condition: Condition | None, leaves: list[LeafResult] | None = None) -> Tri:
        """The verdict of ``condition`` (TRUE when there is none); leaf results are appended to ``leaves``."""
        if condition is None:
            return Tri.TRUE
        if isinstance(condition, FactTest):
            result = self._leaf(condition)
            if leaves is not None:
                leaves.append(result)
            return result.verdict
        if isinstance(condition, NotOf):
            return ~self.evaluate(condition.item, leaves)
        verdicts = [self.evaluate(item, leaves) for item in condition.items]
        decisive, other = (Tri.FALSE, Tri.TRUE) if isinstance(condition, AllOf) else (Tri.TRUE, Tri.FALSE)
        if decisive in verdicts:
            return decisive
        return Tri.UNKNOWN if Tri.UNKNOWN in verdicts else other


def leaves_of(condition: Condition | None) -> list[FactTest]:
    if condition is None:
        return []
    if isinstance(condition, FactTest):
        return [condition]
    if isinstance(condition, NotOf):
        return leaves_of(condition.item)
    assert isinstance(condition, (AllOf, AnyOf))
    return [leaf for item in condition.items for leaf in leaves_of(item)]
