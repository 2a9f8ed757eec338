"""Reading an entry's ``conditions:`` tree (all / any / not over fact tests) and type-checking it
against the fact catalogue."""

from __future__ import annotations

from typing import Any

from .fact_values import NUMERIC_TYPES, coerce
from .facts_schema import check_pattern
from .fields import Problems
from .model import AllOf, AnyOf, Condition, FactRef, FactSpec, FactTest, FactType, NotOf, Op, Where
from .versions import VersionError, parse_range
from .yaml_source import LineDict, LineList

_ORDERING_OPS = (Op.GT, Op.GE, Op.LT, Op.LE)
COMBINATORS = ("all", "any", "not")


def _line(raw: Any, default: int) -> int:
    return getattr(raw, "line", default)


def _literal(spec: FactSpec, value: Any, problems: Problems, line: int) -> Any:
    try:
        return coerce(spec, value)
    except ValueError as exc:
        problems.add(line, f"value for fact '{spec.name}' is invalid: {exc}")
        return None


def _operand(spec: FactSpec, value: Any, facts: dict[str, FactSpec], problems: Problems, line: int) -> Any:
    if isinstance(value, dict):
        other = value.get("fact")
        if set(value) != {"fact"} or other not in facts:
            problems.add(line, f"comparison operand {dict(value)} must be {{fact: <known fact>}}",
                         "name a fact from kb/facts.yaml")
            return None
        if facts[other].type not in NUMERIC_TYPES:
            problems.add(line, f"fact '{other}' is {facts[other].type.value}, not a number")
        return FactRef(other)
    return _literal(spec, value, problems, line)


def _fact_test(raw: LineDict, facts: dict[str, FactSpec], file: str, problems: Problems) -> FactTest | None:
    name = raw.get("fact")
    line = raw.line
    ops = [key for key in raw if key != "fact"]
    unknown = [key for key in ops if key not in {op.value for op in Op}]
    if unknown or len(ops) != 1:
        problems.add(line, f"a fact test needs 'fact' and exactly one of "
                     f"{', '.join(op.value for op in Op)}; found {', '.join(ops) or 'none'}")
        return None
    if name not in facts:
        problems.add(raw.line_of("fact"), f"condition uses unknown fact '{name}'",
                     "declare it in kb/facts.yaml or fix the name")
        return None
    spec, op, value = facts[name], Op(ops[0]), raw[ops[0]]
    value_line = raw.line_of(ops[0])
    parsed: Any
    if op is Op.VERSION_IN:
        # a version fact always has its scheme (the catalogue refuses one without)
        if spec.type is not FactType.VERSION or spec.scheme is None:
            problems.add(value_line, f"version_in needs a version fact; '{name}' is {spec.type.value}")
            return None
        try:
            parsed = parse_range(str(value), spec.scheme)
        except VersionError as exc:
            problems.add(value_line, f"bad version range for '{name}': {exc}")
            return None
    elif op is Op.REGEX:
        if not isinstance(value, str) or not check_pattern(value, problems, value_line, f"regex on '{name}'"):
            return None
        parsed = value
    elif op in _ORDERING_OPS:
        if spec.type not in NUMERIC_TYPES and spec.type is not FactType.VERSION:
            problems.add(value_line, f"'{op.value}' compares numbers or versions; '{name}' is {spec.type.value}")
            return None
        parsed = _operand(spec, value, facts, problems, value_line)
    elif op is Op.IN:
        if not isinstance(value, LineList) or not value:
            problems.add(value_line, f"'in' needs a non-empty list of values for '{name}'")
            return None
        parsed = tuple(_literal(spec, item, problems, value.line_of(i)) for i, item in enumerate(value))
    elif op is Op.EXISTS:
        if not isinstance(value, bool):
            problems.add(value_line, "'exists' takes true or false")
            return None
        parsed = value
    else:
        parsed = _literal(spec, value, problems, value_line)
    if parsed is None:
        return None
    return FactTest(name, op, parsed, Where(file, line))


def parse_condition(raw: Any, facts: dict[str, FactSpec], file: str, problems: Problems,
                    line: int) -> Condition | None:
    """The condition tree of ``raw`` (as parse_yaml reads it), or None after reporting why it is not one."""
    if not isinstance(raw, LineDict):
        problems.add(_line(raw, line), "a condition must be a mapping: {all: [...]}, {any: [...]}, "
                     "{not: ...} or {fact: NAME, <op>: VALUE}")
        return None
    where = Where(file, raw.line)
    keys = set(raw)
    if "fact" in keys:
        return _fact_test(raw, facts, file, problems)
    if len(keys) != 1 or not keys <= set(COMBINATORS):
        problems.add(raw.line, f"a condition has one key of {', '.join(COMBINATORS)} or 'fact'; "
                     f"found {', '.join(sorted(keys)) or 'none'}")
        return None
    (key,) = keys
    body = raw[key]
    if key == "not":
        item = parse_condition(body, facts, file, problems, raw.line_of(key))
        return NotOf(item, where) if item is not None else None
    if not isinstance(body, LineList) or not body:
        problems.add(raw.line_of(key), f"'{key}' needs a non-empty list of conditions")
        return None
    items = [parse_condition(item, facts, file, problems, body.line_of(i)) for i, item in enumerate(body)]
    parsed = tuple(item for item in items if item is not None)
    if len(parsed) != len(items):
        return None
    return (AllOf if key == "all" else AnyOf)(parsed, where)
