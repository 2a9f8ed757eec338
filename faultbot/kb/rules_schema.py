"""Reading ``kb/rules.yaml``: derivation rules (when a condition holds, assert facts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .condition_schema import facts_used, parse_condition
from .fact_values import coerce
from .fields import Fields, Problems
from .model import Condition, FactRef, FactSpec, Where

_RULE_FIELDS = ("id", "priority", "citation", "when", "then", "description")


@dataclass(frozen=True)
class Rule:
    id: str
    priority: int
    when: Condition
    then: tuple[tuple[str, object], ...]     # (fact, typed value or FactRef)
    citation: str
    where: Where

    @property
    def inputs(self) -> set[str]:
        return facts_used(self.when) | {v.fact for _, v in self.then if isinstance(v, FactRef)}


def _rule(raw: Any, facts: dict[str, FactSpec], file: str, problems: Problems, line: int) -> Rule | None:
    fields = Fields(raw, "a rule", problems, line, _RULE_FIELDS)
    if not fields.ok:
        return None
    ident = fields.text("id")
    when = parse_condition(fields.raw("when"), facts, file, problems, fields.line_of("when"))
    then_map = fields.mapping_of("then", required=True) or {}
    then: list[tuple[str, object]] = []
    for fact, value in then_map.items():
        line_of = then_map.line_of(fact)
        if fact not in facts:
            problems.add(line_of, f"rule '{ident}' asserts unknown fact '{fact}'", "declare it in kb/facts.yaml")
            continue
        if isinstance(value, dict):
            source = value.get("fact")
            if set(value) != {"fact"} or source not in facts:
                problems.add(line_of, f"rule '{ident}': '{fact}' must be a literal or {{fact: <known fact>}}")
                continue
            then.append((fact, FactRef(source)))
            continue
        try:
            then.append((fact, coerce(facts[fact], value)))
        except ValueError as exc:
            problems.add(line_of, f"rule '{ident}': value for '{fact}' is invalid: {exc}")
    if not then_map:
        problems.add(fields.line, f"rule '{ident}' asserts nothing", "add 'then: {fact: value}'")
    if when is None:
        return None
    return Rule(ident, int(fields.number("priority", 0, -100, 100)), when, tuple(then),
                fields.text("citation", required=False), Where(file, fields.line))


def parse_rules(documents: list[tuple[Any, Problems]], facts: dict[str, FactSpec]) -> tuple[Rule, ...]:
    """The rules of ``kb/rules.yaml`` and ``kb/rules/*.yaml``; rule ids are unique across files."""
    rules: list[Rule] = []
    seen: dict[str, str] = {}
    for raw, problems in documents:
        top = Fields(raw, "the rules file", problems, 1, ("rules",))
        for line, item in top.items("rules"):
            rule = _rule(item, facts, problems.file, problems, line)
            if rule is None:
                continue
            if rule.id in seen:
                problems.add(line, f"duplicate rule id '{rule.id}' (first in {seen[rule.id]})")
            seen.setdefault(rule.id, f"{problems.file}:{line}")
            rules.append(rule)
    return tuple(rules)
