"""Reading ``kb/rules.yaml``: derivation rules (when a condition holds, assert facts)."""

from __future__ import annotations

from typing import Any

from .condition_schema import parse_condition
from .fact_values import coerce
from .fields import Fields, Problems, items_with_unique_ids
from .model import FactRef, FactSpec, Rule, Where
from .yaml_source import LineDict

RULES_KEY = "rules"
RULE_FIELDS = ("id", "priority", "citation", "when", "then", "description")
PRIORITY_RANGE = (-100, 100)


def parse_then(then_map: LineDict, owner: str, facts: dict[str, FactSpec],
               problems: Problems) -> tuple[tuple[str, object], ...]:
    """The facts a rule (or a decoder case) asserts: ``{fact: literal}`` or ``{fact: {fact: other}}``."""
    then: list[tuple[str, object]] = []
    for fact, value in then_map.items():
        line_of = then_map.line_of(fact)
        if fact not in facts:
            problems.add(line_of, f"{owner} asserts unknown fact '{fact}'", "declare it in kb/facts.yaml")
            continue
        if isinstance(value, dict):
            source = value.get("fact")
            if set(value) != {"fact"} or source not in facts:
                problems.add(line_of, f"{owner}: '{fact}' must be a literal or {{fact: <known fact>}}")
                continue
            then.append((fact, FactRef(source)))
            continue
        try:
            then.append((fact, coerce(facts[fact], value)))
        except ValueError as exc:
            problems.add(line_of, f"{owner}: value for '{fact}' is invalid: {exc}")
    return tuple(then)


def _rule(raw: Any, facts: dict[str, FactSpec], file: str, problems: Problems, line: int) -> Rule | None:
    fields = Fields(raw, "a rule", problems, line, RULE_FIELDS)
    if not fields.ok:
        return None
    ident = fields.text("id")
    when = parse_condition(fields.raw("when"), facts, file, problems, fields.line_of("when"))
    then_map = fields.mapping_of("then", required=True)
    then = parse_then(then_map, f"rule '{ident}'", facts, problems) if then_map else ()
    if not then_map:
        problems.add(fields.line, f"rule '{ident}' asserts nothing", "add 'then: {fact: value}'")
    if when is None:
        return None
    return Rule(ident, int(fields.number("priority", 0, *PRIORITY_RANGE)), when, then,
                fields.text("citation", required=False), Where(file, fields.line))


def parse_rules(documents: list[tuple[Any, Problems]], facts: dict[str, FactSpec]) -> tuple[Rule, ...]:
    """The rules of ``kb/rules.yaml`` and ``kb/rules/*.yaml``; rule ids are unique across files."""
    return items_with_unique_ids(documents, RULES_KEY, "rule",
                                 lambda item, problems, line: _rule(item, facts, problems.file, problems, line))
