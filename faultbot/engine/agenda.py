"""Forward chaining: fire derivation rules until no rule derives anything new.

Rules fire in a fixed order (priority, then specificity, then id), so the same input always
derives the same facts in the same order. A rule that raises stops the run with its id.
"""

from __future__ import annotations

from collections.abc import Sequence

from .facts import WorkingMemory
from .rule_error import RuleError
from .rules import Context, DerivationRule

MAX_ROUNDS = 50


def ordered(rules: Sequence[DerivationRule]) -> list[DerivationRule]:
    return sorted(rules, key=lambda r: (-r.priority, -r.specificity, r.id))


def run_to_fixpoint(memory: WorkingMemory, rules: Sequence[DerivationRule], context: Context) -> list[str]:
    """Fire ``rules`` over ``memory`` until nothing changes; returns the ids that fired, in order."""
    fired: list[str] = []
    agenda = ordered(rules)
    for _ in range(MAX_ROUNDS):
        changed = False
        for rule in agenda:
            try:
                derived = rule.fire(memory, context)
            except Exception as error:
                raise RuleError(rule.id, error) from error
            added = [fact for fact in derived if memory.add(fact)]
            if added:
                fired.append(rule.id)
                changed = True
        if not changed:
            return fired
    raise RuleError(agenda[0].id if agenda else "?", RuntimeError(f"no fixpoint after {MAX_ROUNDS} rounds"))
