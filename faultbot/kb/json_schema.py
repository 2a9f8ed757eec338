"""The KB's file kinds as JSON Schemas (draft 2020-12), so that an editor checks a KB file as a
contributor types it (``faultbot kb schema``; the generated files are kept in ``kb/schema/``).

Made from what the readers themselves use: the field tables of the schema modules (a field added
there and not here stops the generation), the enums of ``model``, their id, code and citation
patterns and their number ranges. A schema says the shape of a file: fields, types, required
fields, allowed words. ``faultbot kb lint`` stays the judge and checks what no schema can: regex
safety, facts that exist, citations that resolve, parents, tests that pass.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from typing import Any

import msgspec

from . import (
    aggregations_schema,
    codes_schema,
    decoders_schema,
    entry_schema,
    facts_schema,
    masks_schema,
    rules_schema,
    settings_schema,
    vocabulary,
)
from .compiler import CODES_FILE, DECODERS_FILE, ENTRIES_DIR, FACTS_FILE, RULES_FILE
from .condition_schema import COMBINATORS
from .model import Ceiling, EntryStatus, FactSource, FactType, Intent, Op, Severity, SymptomForm
from .versions import Scheme

DRAFT = "https://json-schema.org/draft/2020-12/schema"
Schema = dict[str, Any]

_NOT_BLANK = r"\S"
# words on one line, no control characters: a phrase of the vocabulary, a documented setting value
_ONE_LINE = r"^[^\u0000-\u001f\u007f]*[^\s\u0000-\u001f\u007f][^\u0000-\u001f\u007f]*$"
_HEX = r"^\s*(?:0[xX])?[0-9a-fA-F]+\s*$"
_ROOT_ID = r"^[^.]+\.[^.]+$"               # component.fault: an entry that refines none


def _text(description: str = "", filled: bool = False) -> Schema:
    """Text; ``filled`` text may not be blank."""
    return _described({"type": "string", **({"pattern": _NOT_BLANK} if filled else {})}, description)


def _described(schema: Schema, description: str) -> Schema:
    return {**schema, "description": description} if description else schema


def _words(enum: Iterable[Enum | str], description: str = "") -> Schema:
    return _described({"enum": [e.value if isinstance(e, Enum) else e for e in enum]}, description)


def _number(low: float, high: float, description: str = "") -> Schema:
    return _described({"type": "number", "minimum": low, "maximum": high}, description)


def _list(item: Schema, description: str = "", min_items: int = 0, lone: bool = True) -> Schema:
    """A list of ``item``; as the readers take it, a lone text stands for a one-item list."""
    many: Schema = {"type": "array", "items": item, **({"minItems": min_items} if min_items else {})}
    if not lone:
        return _described(many, description)
    return _described({"anyOf": [{**item, "type": "string"}, many]}, description)


_SCALAR: Schema = {"type": ["string", "number", "boolean"]}
_WORD: Schema = {"type": ["string", "number"]}   # an item of a list of words: numbers read as text
_FACT_NAME: Schema = {"type": "string", "pattern": facts_schema.FACT_NAME.pattern}
_CITATION: Schema = {"type": "string", "pattern": entry_schema.CITATION.pattern}
_FACT_REF: Schema = {"type": "object", "properties": {"fact": _FACT_NAME}, "required": ["fact"],
                     "additionalProperties": False}


def _one_line(max_chars: int) -> Schema:
    """A short text on one line; numbers read as text."""
    return {"anyOf": [{"type": "string", "pattern": _ONE_LINE, "maxLength": max_chars}, {"type": "number"}]}


def _record(names: Iterable[str], properties: Mapping[str, Schema], required: Iterable[str] = (),
            **more: Any) -> Schema:
    """A mapping whose fields are exactly the reader's table ``names``, each with its schema."""
    names = tuple(names)
    if set(names) != set(properties):
        raise ValueError(f"the schema of {', '.join(names)} differs from the reader's fields: "
                         f"{', '.join(sorted(set(names) ^ set(properties)))}")
    required = list(required)
    return {"type": "object", "properties": {name: properties[name] for name in names},
            **({"required": required} if required else {}), "additionalProperties": False, **more}


def _facts_map(value: Schema, description: str = "") -> Schema:
    """``{fact: value}``: what a rule or a decoder case asserts, a test's answers."""
    return _described({"type": "object", "propertyNames": _FACT_NAME, "additionalProperties": value}, description)


def _one_of_fields(names: Iterable[str]) -> list[Schema]:
    return [{"required": [name]} for name in names]


# What each fact-test operator takes (kb/README.md#conditions).
_COMPARAND: Schema = {"anyOf": [{"type": ["number", "string"]}, _FACT_REF]}
_OPERANDS: dict[Op, Schema] = {
    Op.EQUALS: _SCALAR,
    Op.IN: {"type": "array", "items": _SCALAR, "minItems": 1},
    Op.VERSION_IN: _text("a version range such as '>=8.0.RC2,<8.2.RC1'"),
    Op.REGEX: _text("a safe regex the value must contain a match of"),
    Op.GT: _COMPARAND, Op.GE: _COMPARAND, Op.LT: _COMPARAND, Op.LE: _COMPARAND,
    Op.EXISTS: {"type": "boolean"},
}


def _condition_defs() -> dict[str, Schema]:
    """``condition``: all / any / not over fact tests, one key each (recursive)."""
    if set(_OPERANDS) != set(Op):
        raise ValueError(f"no schema for the operators {', '.join(op.value for op in set(Op) - set(_OPERANDS))}")
    condition: Schema = {"$ref": "#/$defs/condition"}
    combined: dict[str, Schema] = {"all": {"type": "array", "items": condition, "minItems": 1},
                                   "any": {"type": "array", "items": condition, "minItems": 1},
                                   "not": condition}
    fact_test = {"type": "object", "properties": {"fact": _FACT_NAME, **{op.value: _OPERANDS[op] for op in Op}},
                 "required": ["fact"], "minProperties": 2, "maxProperties": 2, "additionalProperties": False,
                 "description": "{fact: NAME, OPERATOR: VALUE}, with one operator"}
    return {"condition": {"oneOf": [*(_record([key], {key: combined[key]}, [key]) for key in COMBINATORS),
                                    {"$ref": "#/$defs/fact_test"}]},
            "fact_test": fact_test}


def _entry() -> Schema:
    e = entry_schema
    step = {"anyOf": [{"type": "string"}, _record(e.STEP_FIELDS, {
        "text": _text(filled=True), "commands": _list({"type": "string"}, "shown as code; {fact} is filled from the log"),
        "citation": _CITATION}, ["text"])]}
    steps = _list(step)
    given = {"anyOf": [{"type": "string"}, {"type": "array", "minItems": 1}]}
    fixes = _record(e.FIX_FIELDS, {
        "workaround": _described(steps, "what to do now"), "permanent": _described(steps, "what fixes it for good"),
        "next_checks": _described(steps, "what to check next")},
        anyOf=[{"required": [key], "properties": {key: given}} for key in e.FIX_FIELDS],
        description="at least one step, under workaround, permanent or next_checks")
    symptom = _record(e.SYMPTOM_FIELDS, {
        "id": _text("unique within the entry", filled=True),
        "form": _words((f for f in SymptomForm if f is not SymptomForm.WORDS), "where the line is printed"),
        "signature": _text("an example message as the log prints it, matched fuzzily", filled=True),
        "regex": _text("an exact pattern (Python syntax); needs anchors", filled=True),
        "weight": _number(*e.WEIGHT_RANGE, "how strongly this symptom alone points at the entry"),
        "min_score": _number(*e.MIN_SCORE_RANGE, "fuzzy score a signature needs"),
        "anchors": _list({"type": "string", "minLength": 4}, "literals every matching line contains"),
        "modules": _list({"type": "string"}, "only records of these plog modules"),
    }, ["id"], oneOf=_one_of_fields(("signature", "regex")),
        **{"if": {"required": ["regex"]}, "then": {"required": ["anchors"]}})
    expected = {"anyOf": [{"type": "string", "pattern": e.ENTRY_ID.pattern}, {"const": e.NO_CONCLUSION}]}
    test = _record(e.TEST_FIELDS, {
        "name": _text("what the example shows", filled=True),
        "log": _text("the log, as an engineer would paste it", filled=True),
        "answers": _facts_map(_SCALAR, "answers to the questions ('unknown' to skip one)"),
        "expect": _described(expected, f"the id concluded first, or '{e.NO_CONCLUSION}'"),
        "expect_not": _described(expected, "an id that must not be concluded"),
    }, ["name", "log"], anyOf=_one_of_fields(("expect", "expect_not")))
    applies = _record(e.APPLIES_FIELDS, {
        "cann": _text("CANN versions, e.g. '>=8.0.RC2,<8.2.RC1'"), "hdk": _text("HDK versions"),
        "torch_npu": _text("torch_npu versions"), "products": _list({"type": "string"}, "product values")})
    error_code = {"anyOf": [{"type": "string", "pattern": e.ERROR_CODE.pattern},
                            {"type": "integer", "minimum": 100000, "maximum": 999999}]}
    return _record(e.ENTRY_FIELDS, {
        "id": {"type": "string", "pattern": e.ENTRY_ID.pattern,
               "description": "component.fault[.cause], also the file name; a child refines its parent"},
        "title": _text("one line an engineer recognises the fault by", filled=True),
        "status": _words(EntryStatus),
        "component": _text("hccl, lccl, runtime, ...: the folder under entries/", filled=True),
        "severity": _words(Severity),
        "summary": _text("two or three sentences shown above the cause"),
        "error_codes": _list(error_code, "CANN codes (EI0002) or 6-digit ACL codes (507014)"),
        "applies_to": _described(applies, "conditions: outside these versions and products the entry does not apply"),
        "symptoms": _list(symptom, "log signatures; a child without any is recognised by its parent's", lone=False),
        "conditions": {"$ref": "#/$defs/condition"},
        "cause": _text("why it happens, in a few sentences", filled=True),
        "fixes": fixes,
        "citations": _list(_CITATION, "article-id#section-slug", min_items=1),
        "tests": _list(test, "at least one positive (expect: this id) and one negative test", min_items=2, lone=False),
        "tags": _list(_WORD, "free words for search"),
        "echo": {"type": "boolean", "description": "usually the echo of another rank's failure"},
        "concludes_at_most": _words((c for c in Ceiling if c is not Ceiling.CONFIRMED),
                                    "the most this entry's conclusion may claim"),
    }, ["id", "title", "status", "component", "severity", "cause", "fixes", "citations", "tests"],
        **{"if": {"properties": {"id": {"pattern": _ROOT_ID}}, "required": ["id"]},
           "then": {"required": ["symptoms"], "properties": {"symptoms": {"minItems": 1}}}},
        **{"$defs": _condition_defs()})


def _facts() -> Schema:
    f = facts_schema
    ask = _record(f.ASK_FIELDS, {
        "question": _text(filled=True), "why": _text("what the answer changes", filled=True),
        "how_to_find": _list(_WORD, "commands or files", min_items=1), "example": _text()},
        ["question", "why", "how_to_find"])
    fact = _record(f.FACT_FIELDS, {
        "type": _words(FactType), "description": _text(filled=True),
        "sources": _list(_words(FactSource), min_items=1), "scheme": _words(Scheme, "for versions"),
        "values": _list(_WORD, "for enums: the canonical spellings"),
        "aliases": {"type": "object", "additionalProperties": _WORD,
                    "description": "for enums: other spellings, each mapped to one of the values"},
        "unit": _text(), "ask": ask,
        "per_occurrence": {"type": "boolean", "description": "differs on every report of the same thing"},
    }, ["type", "description", "sources"], allOf=[
        {"if": {"properties": {"type": {"const": FactType.VERSION.value}}}, "then": {"required": ["scheme"]}},
        {"if": {"properties": {"type": {"const": FactType.ENUM.value}}},
         "then": {"required": ["values"], "properties": {"values": {"minItems": 1}}}}])
    extractor = _record(f.EXTRACTOR_FIELDS, {
        "id": _text(filled=True), "regex": _text("named groups (?P<fact>...) capture facts", filled=True),
        "anchors": _list({"type": "string", "minLength": 3}, "literals one of which a line must contain"),
        "prefilter": _text("a simple ASCII regex every match contains"),
        "modules": _list(_WORD), "levels": _list(_words(f.LEVELS)),
        "sets": _facts_map(_SCALAR, "constant facts set on a match"), "description": _text(),
    }, ["id", "regex"], anyOf=_one_of_fields(("anchors", "prefilter")))
    return _record(f.CATALOGUE_FIELDS, {
        "facts": {"type": "object", "propertyNames": _FACT_NAME, "additionalProperties": fact},
        "extractors": _list(extractor, lone=False)})


def _rules() -> Schema:
    r = rules_schema
    assertion = _facts_map({"anyOf": [_SCALAR, _FACT_REF]}, "{fact: value}, or {fact: {fact: OTHER}} to copy one")
    rule = _record(r.RULE_FIELDS, {
        "id": _text(filled=True), "priority": _number(*r.PRIORITY_RANGE, "higher fires first"),
        "citation": _CITATION, "when": {"$ref": "#/$defs/condition"},
        "then": {**assertion, "minProperties": 1}, "description": _text(),
    }, ["id", "when", "then"])
    return _record([r.RULES_KEY], {r.RULES_KEY: _list(rule, lone=False)}, **{"$defs": _condition_defs()})


def _decoders() -> Schema:
    d = decoders_schema
    tests = {"hex": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string", "pattern": _HEX}]},
             Op.EQUALS.value: _SCALAR, Op.IN.value: _OPERANDS[Op.IN], Op.REGEX.value: _OPERANDS[Op.REGEX]}
    case = _record(d.CASE_FIELDS, {
        "name": _text(), **{key: tests[key] for key in d.TEST_KEYS},
        "means": _text("what the value means, in words an engineer can act on", filled=True),
        "then": _facts_map(_SCALAR, "facts asserted when the case holds"), "citation": _CITATION,
    }, ["means"], oneOf=_one_of_fields(d.TEST_KEYS))
    decoder = _record(d.DECODER_FIELDS, {
        "id": _text(filled=True), "fact": _FACT_NAME, "label": _text(filled=True), "citation": _CITATION,
        "cases": _list(case, "tried in order: the first that holds gives the words", min_items=1, lone=False),
        "otherwise": _text("said of a value no case covers"), "description": _text(),
        "asked_as": _list(_WORD, "how questions name the field"),
        "context": _list(_WORD, "words that tell it from a field of the same name"),
    }, ["id", "fact", "label", "citation", "cases"])
    return _record([d.DECODERS_KEY], {d.DECODERS_KEY: _list(decoder, lone=False)})


def _codes() -> Schema:
    c = codes_schema
    words = {"type": "object", "additionalProperties": _WORD}
    code_class = _record(c.CLASS_FIELDS, {
        "first": _number(*c.CODE_NUMBER_RANGE), "last": _number(*c.CODE_NUMBER_RANGE),
        "name": _text(filled=True), "meaning": _text(filled=True)}, ["name", "meaning"])
    def digits(count: int, what: str) -> Schema:
        return _described({"type": "object", "propertyNames": {"pattern": f"^[0-9]{{{count}}}$"},
                           "additionalProperties": _WORD}, what)
    torch_npu = _record(c.TORCH_NPU_FIELDS, {
        "citation": _CITATION, "submodules": digits(c.SUBMODULE_DIGITS, "ERR02200: 02, the submodule"),
        "codes": digits(c.CODE_DIGITS, "ERR02200: 200, the code"),
        "says": _text(filled=True)}, ["submodules", "codes"])
    acl = _record(c.ACL_FIELDS, {
        "citation": _CITATION, "classes": digits(c.ACL_CLASS_DIGITS, "507015: 5, the class"),
        "unclassified": _described({"type": "string", "pattern": f"^[0-9]{{{c.ACL_CODE_DIGITS}}}$"},
                                   "the code of every error the ACL layer cannot classify"),
        "named_in": _list(_CITATION, "sections whose tables name codes: | 507015 | `ACL_ERROR_...` | what it is |")},
        ["citation", "classes"])
    return _record(c.CODEBOOK_FIELDS, {
        "citation": _CITATION, "levels": _described(words, "first letter: E, W, I"), "levels_citation": _CITATION,
        "level_notes": _described(words, "what a code of a level does and does not tell"),
        "modules": _described(words, "second character: the module"), "modules_citation": _CITATION,
        "classes": _list(code_class, "number ranges and what they mean", min_items=1, lone=False),
        "classes_citation": _CITATION,
        "torch_npu": _described(torch_npu, "torch_npu's ERR codes: ERR, submodule, code"),
        "acl": _described(acl, "aclError return codes: six digits, the first the class"),
    }, ["citation", "levels", "modules", "classes"])


def _vocabulary() -> Schema:
    v = vocabulary
    phrase = _one_line(v.MAX_PHRASE_CHARS)
    phrases = {"type": "array", "items": phrase, "minItems": 1}
    return _record(v.VOCABULARY_FIELDS, {
        "synonyms": {"type": "array", "minItems": 1, "items": {**phrases, "minItems": 2},
                     "description": "groups of one concept: the articles' phrase first, then what engineers type"},
        "intents": {"type": "object", "propertyNames": _words(Intent), "additionalProperties": phrases,
                    "description": "what a question asks for, by the phrases that ask it"},
        "out_of_scope": phrases,
        "unstated": phrases,
        "context": phrases,
    }, ["synonyms", "intents"])


# The fields of a setting's value: settings_schema writes them in place (hoist them there to a table).
_SETTING_VALUE_FIELDS = ("value", "citation", "when", "release", "means")


def _settings() -> Schema:
    s = settings_schema
    texts = _list(_one_line(s.MAX_TEXT_CHARS))
    value = _record(_SETTING_VALUE_FIELDS, {
        "value": _described(texts, "the value in the article's words"),
        "citation": _described(_CITATION, "the article section that writes the value, word for word"),
        "when": _described(texts, "the products, then the modes, it holds for; none: everywhere"),
        "release": _described(texts, "the release it held in, when it no longer holds"),
        "means": _described(texts, "for a special value, what it does"),
    }, ["value", "citation"])
    setting = _record(("name", "called", *s.KINDS), {
        "name": {"type": "string", "pattern": s._NAME.pattern, "description": "the variable as the articles write it"},
        "called": _described(texts, "other names questions use for it"),
        **{kind: _list(value, lone=False) for kind in s.KINDS},
    }, ["name"], anyOf=_one_of_fields(s.KINDS))
    return _record(["settings"], {"settings": _list(setting, min_items=1, lone=False)}, ["settings"])


def _masks() -> Schema:
    m = masks_schema
    mask = _record(m.MASK_FIELDS, {
        "name": {"type": "string", "pattern": m.NAME.pattern, "description": "a slug for messages"},
        "regex": _text("a safe regex; {ipv4}, {timestamp}, {path_char} are the shapes shared with /export --redact",
                       filled=True),
        "token": {"type": "string", "pattern": m.TOKEN.pattern, "description": "the placeholder a match becomes"},
        "why": _text("what the mask is for", filled=True),
        "example": _text("a text the mask applies to", filled=True),
        "masked": _text("what this mask alone makes of the example", filled=True),
    }, m.MASK_FIELDS)
    return _record(["masks"], {"masks": _list(mask, "applied in this order", min_items=1, lone=False)}, ["masks"])


def _aggregations() -> Schema:
    a = aggregations_schema
    words = _list(_WORD, min_items=1)
    seconds = {"type": "integer", "minimum": 0, "maximum": a.MAX_SECONDS}
    heartbeat = _record(a.HEARTBEAT_FIELDS, {
        "order": _described(words, "values of the fact heartbeat_status, highest first"),
        "citation": _described(_CITATION, "the section that ranks them"),
    }, a.HEARTBEAT_FIELDS)
    profile = _record(a.PROFILE_FIELDS, {
        "products": _described(words, "values of the fact product"),
        "called": {"type": "object", "additionalProperties": {"type": "string"},
                   "description": "{product: the cited sections' name for it}"},
        "modes": _described(words, "values of the fact hccl_op_expansion_mode"),
        "default": _described(seconds, "seconds, when the variable is not set"),
        "round_down_to": _described(seconds, "rounded down to a multiple of this, and at least this"),
        "cap": _described(seconds, "0, or anything above it, is treated as it"),
        "never_when_zero": {"type": "boolean", "description": "0 means never time out"},
        "citations": _list(_CITATION, "the sections that state it", min_items=1),
    }, ["products", "modes", "default", "citations"])
    return _record(a.AGGREGATIONS_FIELDS, {
        "heartbeat_priority": heartbeat,
        "exec_timeout_profiles": _list(profile, "how a product and mode turn HCCL_EXEC_TIMEOUT into the timeout "
                                       "that applies", lone=False),
    })


class FileKind(msgspec.Struct, frozen=True):
    """One kind of KB file: its schema and the files of the KB folder it describes."""

    name: str
    title: str
    files: tuple[str, ...]     # glob patterns, relative to the KB folder
    build: Callable[[], Schema]


def _data_files(main_file: str) -> tuple[str, str]:
    """``facts.yaml`` and ``facts/*.yaml``: a file kind that areas of the KB may split."""
    return main_file, f"{main_file.removesuffix('.yaml')}/*.yaml"


KINDS: dict[str, FileKind] = {kind.name: kind for kind in (
    FileKind("entry", "a fault entry", (f"{ENTRIES_DIR}/**/*.yaml",), _entry),
    FileKind("facts", "the fact catalogue and its extractors", _data_files(FACTS_FILE), _facts),
    FileKind("rules", "derivation rules", _data_files(RULES_FILE), _rules),
    FileKind("decoders", "field decoders", _data_files(DECODERS_FILE), _decoders),
    FileKind("codes", "the structure of error codes", (CODES_FILE,), _codes),
    FileKind("vocabulary", "the words questions are asked with", (vocabulary.VOCABULARY_FILE,), _vocabulary),
    FileKind("settings", "the environment variables and their documented values", (settings_schema.SETTINGS_FILE,),
         _settings),
    FileKind("masks", "the variable parts of log messages, masked before matching", (masks_schema.MASKS_FILE,), _masks),
    FileKind("aggregations", "the tables the engine's aggregations read", (aggregations_schema.AGGREGATIONS_FILE,),
             _aggregations),
)}


def json_schema(kind: str) -> Schema:
    """The JSON Schema of the KB file kind ``kind`` (a key of ``KINDS``)."""
    found = KINDS[kind]
    return {"$schema": DRAFT,
            "title": f"faultbot knowledge base: {found.title}",
            "description": f"The files {', '.join('kb/' + pattern for pattern in found.files)}, as kb/README.md "
                           "describes them. 'faultbot kb lint' also checks what a schema cannot: regexes, facts, "
                           "citations, tests.",
            "$comment": f"Generated by 'faultbot kb schema --kind {kind}': edit the readers in faultbot/kb/, not this.",
            **found.build()}
