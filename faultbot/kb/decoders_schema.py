"""Reading ``kb/decoders.yaml`` and ``kb/decoders/*.yaml``: field decoders, what a raw value of a
log field (retCode, errcode, cqeStatus, hcclRet ...) means, in words an engineer can act on.

A decoder names one fact and lists cases tried in order; the first case whose test holds gives the
sentence. Cases may also assert facts (``then``): those become derivation rules like the ones of
``kb/rules.yaml``, so the engine reasons with what the diagnosis text says.
"""

from __future__ import annotations

from typing import Any

from .condition_schema import parse_condition
from .fields import Fields, Problems, items_with_unique_ids
from .model import Decoder, DecoderCase, FactSpec, FactTest, FactType, Op, Rule, Where
from .rules_schema import parse_then
from .yaml_source import LineDict

DECODERS_KEY = "decoders"
DECODER_FIELDS = ("id", "fact", "label", "citation", "cases", "otherwise", "description", "asked_as", "context")
TEST_KEYS = ("hex", Op.EQUALS.value, Op.IN.value, Op.REGEX.value)
CASE_FIELDS = ("name", *TEST_KEYS, "means", "then", "citation")


def _hex_test(fact: str, spec: FactSpec, value: Any, where: Where,
              problems: Problems) -> tuple[str, FactTest] | None:
    """``hex: 0x26`` matches a text field however the log pads or cases it (0x26, 0x026, 0X26)."""
    try:
        number = value if isinstance(value, int) and not isinstance(value, bool) else int(str(value), 16)
    except ValueError:
        number = -1
    if number < 0:
        problems.add(where.line, f"'hex' needs a non-negative number such as 0x26, found {value!r}")
        return None
    if spec.type is not FactType.STRING:
        problems.add(where.line, f"'hex' reads a text field; '{fact}' is {spec.type.value}", "use 'equals'")
        return None
    return f"0x{number:x}", FactTest(fact, Op.REGEX, f"(?i)^(?:0x)?0*{number:x}$", where)


def _case_test(fields: Fields, decoder_fact: str, facts: dict[str, FactSpec], problems: Problems,
               index: int) -> tuple[str, FactTest] | None:
    present = [key for key in TEST_KEYS if fields.has(key)]
    if len(present) != 1:
        problems.add(fields.line, f"a decoder case needs exactly one of {', '.join(TEST_KEYS)}; "
                     f"found {', '.join(present) or 'none'}")
        return None
    (key,) = present
    value = fields.raw(key)
    where = Where(problems.file, fields.line_of(key))
    if key == "hex":
        return _hex_test(decoder_fact, facts[decoder_fact], value, where, problems)
    raw = LineDict({"fact": decoder_fact, key: value}, where.line, {key: where.line})
    test = parse_condition(raw, facts, problems.file, problems, where.line)
    if not isinstance(test, FactTest):
        return None
    if test.op is Op.IN:
        return "|".join(map(str, test.value)), test  # type: ignore[call-overload]
    return (str(test.value) if test.op is Op.EQUALS else f"case{index}"), test


def _case(raw: Any, decoder_id: str, decoder_fact: str, facts: dict[str, FactSpec], problems: Problems,
          line: int, index: int) -> DecoderCase | None:
    fields = Fields(raw, "a decoder case", problems, line, CASE_FIELDS)
    if not fields.ok:
        return None
    keyed = _case_test(fields, decoder_fact, facts, problems, index)
    means = " ".join(fields.text("means").split())
    then_map = fields.mapping_of("then")
    then = parse_then(then_map, f"decoder '{decoder_id}'", facts, problems) if then_map else ()
    if keyed is None:
        return None
    key, test = keyed
    return DecoderCase(fields.text("name", required=False) or key, test, means, then,
                       fields.text("citation", required=False), Where(problems.file, fields.line), fields.has("hex"))


def _decoder(raw: Any, facts: dict[str, FactSpec], problems: Problems, line: int) -> Decoder | None:
    fields = Fields(raw, "a decoder", problems, line, DECODER_FIELDS)
    if not fields.ok:
        return None
    ident, fact = fields.text("id"), fields.text("fact")
    if fact not in facts:
        problems.add(fields.line_of("fact"), f"decoder '{ident}' reads unknown fact '{fact}'",
                     "declare it in kb/facts.yaml")
        return None
    cases = [_case(item, ident, fact, facts, problems, item_line, index)
             for index, (item_line, item) in enumerate(fields.items("cases", required=True, min_items=1), 1)]
    first_line: dict[str, int] = {}
    for case in (c for c in cases if c is not None):
        if case.key in first_line:
            problems.add(case.where.line, f"decoder '{ident}' has a second case for {case.key} (first at line "
                         f"{first_line[case.key]})", "each value is decoded once: merge the cases")
        first_line.setdefault(case.key, case.where.line)
    return Decoder(ident, fact, fields.text("label"), tuple(c for c in cases if c is not None),
                   " ".join(fields.text("otherwise", required=False).split()), fields.text("citation"),
                   Where(problems.file, fields.line), fields.strings("asked_as"), fields.strings("context"))


def parse_decoders(documents: list[tuple[Any, Problems]], facts: dict[str, FactSpec]) -> tuple[Decoder, ...]:
    """Every decoder of the decoder files; ids are unique across files."""
    return items_with_unique_ids(documents, DECODERS_KEY, "decoder",
                                 lambda item, problems, line: _decoder(item, facts, problems, line))


def decoder_rules(decoders: tuple[Decoder, ...]) -> tuple[Rule, ...]:
    """The cases that assert facts, as derivation rules (id ``<decoder>=<case name>``)."""
    return tuple(Rule(decoder.rule_id(case), 0, case.test, case.then, case.citation or decoder.citation, case.where)
                 for decoder in decoders for case in decoder.cases if case.then)
