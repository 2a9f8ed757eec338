"""Reading one fault entry file (``kb/entries/<component>/<id>.yaml``) into an ``Entry``.

Checks that need only the file and the fact catalogue happen here; checks across entries and
articles (duplicate ids, parents, citations) are in ``crosscheck``.
"""

from __future__ import annotations

import re
from typing import Any

from .condition_schema import parse_condition
from .fact_values import coerce
from .facts_schema import check_pattern
from .fields import Fields, Problems
from .model import (
    AppliesTo,
    Ceiling,
    Citation,
    Entry,
    EntryStatus,
    EntryTest,
    FactSpec,
    Fixes,
    FixStep,
    Severity,
    Symptom,
    SymptomForm,
    Where,
)
from .versions import Scheme, VersionError, VersionRange, parse_range

ENTRY_ID = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$")
ERROR_CODE = re.compile(r"^(?:E[A-Z0-9][0-9A-Z]\d{3}|\d{6})$")
CITATION = re.compile(r"^([a-z0-9]+(?:-[a-z0-9]+)*)#([a-z0-9]+(?:-[a-z0-9]+)*)$")
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")
NO_CONCLUSION = "none"
UNKNOWN_ANSWERS = ("unknown", "skip")

ENTRY_FIELDS = ("id", "title", "status", "component", "severity", "summary", "error_codes",
                "applies_to", "symptoms", "conditions", "cause", "fixes", "citations", "tests", "tags",
                "echo", "concludes_at_most")
APPLIES_FIELDS = ("cann", "hdk", "torch_npu", "products")
SYMPTOM_FIELDS = ("id", "form", "signature", "regex", "weight", "min_score", "anchors", "modules")
FIX_FIELDS = ("workaround", "permanent", "next_checks")
STEP_FIELDS = ("text", "commands", "citation")
TEST_FIELDS = ("name", "log", "answers", "expect", "expect_not")
# (lowest, highest) a symptom may give, and what an absent field means
WEIGHT_RANGE, DEFAULT_WEIGHT = (0.01, 1.0), 0.5
MIN_SCORE_RANGE, DEFAULT_MIN_SCORE = (50.0, 100.0), 85.0


def _range(fields: Fields, key: str, scheme: Scheme) -> VersionRange | None:
    text = fields.text(key, required=False)
    if not text:
        return None
    try:
        return parse_range(text, scheme)
    except VersionError as exc:
        fields.problems.add(fields.line_of(key), f"bad {key} version range '{text}': {exc}")
        return None


def _applies_to(raw: Any, facts: dict[str, FactSpec], problems: Problems, line: int) -> AppliesTo:
    if raw is None:
        return AppliesTo()
    fields = Fields(raw, "applies_to", problems, line, APPLIES_FIELDS)
    products = fields.strings("products")
    product_spec = facts.get("product")
    canonical = []
    for product in products:
        try:
            canonical.append(str(coerce(product_spec, product)) if product_spec else product)
        except ValueError as exc:
            problems.add(fields.line_of("products"), f"unknown product in applies_to: {exc}")
    return AppliesTo(cann=_range(fields, "cann", Scheme.CANN), hdk=_range(fields, "hdk", Scheme.HDK),
                     torch_npu=_range(fields, "torch_npu", Scheme.TORCH_NPU), products=tuple(canonical))


def _symptom(raw: Any, entry_id: str, file: str, problems: Problems, line: int) -> Symptom | None:
    fields = Fields(raw, f"a symptom of '{entry_id}'", problems, line, SYMPTOM_FIELDS)
    if not fields.ok:
        return None
    ident = fields.text("id")
    signature = fields.text("signature", required=False)
    regex = fields.text("regex", required=False)
    if bool(signature) == bool(regex):
        problems.add(fields.line, f"symptom '{ident}' needs exactly one of 'signature' (a message "
                     "example, matched fuzzily) or 'regex' (matched exactly)")
        return None
    if regex and not check_pattern(regex, problems, fields.line_of("regex"), f"regex of symptom '{ident}'"):
        return None
    anchors = fields.strings("anchors")
    for anchor in anchors:
        # a regex's literal text is what remains once its escapes are dropped
        if len(anchor) < 4 or anchor.lower() not in (signature or regex.replace("\\", "")).lower():
            problems.add(fields.line_of("anchors"), f"anchor '{anchor}' of symptom '{ident}' is too "
                         "short or not a literal part of its signature",
                         "use a literal of 4+ characters that every matching line contains")
    if regex and not anchors:
        problems.add(fields.line_of("regex"), f"regex symptom '{ident}' has no anchors",
                     "list literal 'anchors:' the regex requires, for the prefilter")
    form = fields.choice("form", SymptomForm, required=False, default=SymptomForm.ANY)
    if form is SymptomForm.WORDS:
        problems.add(fields.line_of("form"), f"symptom '{ident}' has form 'words', which faultbot keeps for "
                     "failures described in words", "use plog, screen or any")
    return Symptom(
        id=ident, form=form,
        weight=fields.number("weight", DEFAULT_WEIGHT, *WEIGHT_RANGE), where=Where(file, fields.line),
        signature=signature, regex=regex, anchors=anchors,
        min_score=fields.number("min_score", DEFAULT_MIN_SCORE, *MIN_SCORE_RANGE), modules=fields.strings("modules"),
    )


def _steps(raw: list[tuple[int, Any]], what: str, facts: dict[str, FactSpec], problems: Problems) -> tuple[FixStep, ...]:
    steps = []
    for line, item in raw:
        if isinstance(item, str):
            steps.append(FixStep(item.strip()))
            continue
        fields = Fields(item, what, problems, line, STEP_FIELDS)
        if not fields.ok:
            continue
        commands = fields.strings("commands")
        for command in commands:
            for name in PLACEHOLDER.findall(command):
                if name not in facts:
                    problems.add(fields.line_of("commands"), f"command placeholder '{{{name}}}' is not a fact",
                                 "use a fact name from kb/facts.yaml, or write the literal text")
        steps.append(FixStep(fields.text("text"), commands, fields.text("citation", required=False)))
    return tuple(steps)


def _fixes(raw: Any, facts: dict[str, FactSpec], problems: Problems, line: int) -> Fixes:
    fields = Fields(raw, "fixes", problems, line, FIX_FIELDS)
    if not fields.ok:
        return Fixes()
    fixes = Fixes(*(_steps(fields.items(key), f"a {key.replace('_', ' ')} step", facts, problems)
                    for key in FIX_FIELDS))
    if not (fixes.workaround or fixes.permanent or fixes.next_checks):
        problems.add(fields.line, "fixes are empty", "give at least a workaround, a fix or a next check")
    return fixes


def _test(raw: Any, entry_id: str, facts: dict[str, FactSpec], file: str, problems: Problems, line: int) -> EntryTest | None:
    fields = Fields(raw, f"a test of '{entry_id}'", problems, line, TEST_FIELDS)
    if not fields.ok:
        return None
    answers = []
    answer_map = fields.mapping_of("answers")
    for fact, value in answer_map.items():
        if fact not in facts:
            problems.add(answer_map.line_of(fact), f"test answers unknown fact '{fact}'")
            continue
        if str(value).lower() in UNKNOWN_ANSWERS:
            answers.append((fact, UNKNOWN_ANSWERS[0]))
            continue
        try:
            coerce(facts[fact], value)
        except ValueError as exc:
            problems.add(answer_map.line_of(fact), f"test answer for '{fact}' is invalid: {exc}")
        answers.append((fact, str(value)))
    expect = fields.text("expect", required=False) or None
    expect_not = fields.text("expect_not", required=False) or None
    if not expect and not expect_not:
        problems.add(fields.line, f"test of '{entry_id}' says nothing to check",
                     f"add 'expect: <id or {NO_CONCLUSION}>' or 'expect_not: <id>'")
    return EntryTest(fields.text("name"), fields.text("log"), tuple(answers), expect, expect_not,
                     Where(file, fields.line))


def parse_entry(raw: Any, facts: dict[str, FactSpec], file: str, problems: Problems) -> Entry | None:
    fields = Fields(raw, "the entry", problems, 1, ENTRY_FIELDS)
    if not fields.ok:
        return None
    ident = fields.text("id")
    if ident and not ENTRY_ID.match(ident):
        problems.add(fields.line_of("id"), f"id '{ident}' is not a dotted slug",
                     "use lowercase words with hyphens, joined by dots: component.fault[.cause]")
    error_codes = fields.strings("error_codes")
    for code in error_codes:
        if not ERROR_CODE.match(code):
            problems.add(fields.line_of("error_codes"), f"'{code}' is not an error code",
                         "use the CANN form (EI0002, EZ9999) or a 6-digit ACL code (507014)")
    # a child without symptoms of its own is recognised by its parent's (crosscheck enforces a root has some)
    symptoms = tuple(s for line, item in fields.items("symptoms")
                     if (s := _symptom(item, ident, file, problems, line)) is not None)
    seen_symptoms: set[str] = set()
    for symptom in symptoms:
        if symptom.id in seen_symptoms:
            problems.add(symptom.where.line, f"duplicate symptom id '{symptom.id}'")
        seen_symptoms.add(symptom.id)
    citations = []
    for line, text in fields.items("citations", required=True, min_items=1):
        match = CITATION.match(str(text))
        if not match:
            problems.add(line, f"citation '{text}' is not 'article-id#section-slug'")
            continue
        citations.append(Citation(match.group(1), match.group(2), line))
    conditions = (parse_condition(fields.raw("conditions"), facts, file, problems, fields.line_of("conditions"))
                  if fields.has("conditions") else None)
    tests = tuple(t for line, item in fields.items("tests", required=True)
                  if (t := _test(item, ident, facts, file, problems, line)) is not None)
    entry = Entry(
        id=ident, title=fields.text("title"),
        status=fields.choice("status", EntryStatus, default=EntryStatus.EXPERIMENTAL),
        component=fields.text("component"),
        severity=fields.choice("severity", Severity, default=Severity.MEDIUM),
        error_codes=error_codes,
        applies_to=_applies_to(fields.raw("applies_to"), facts, problems, fields.line_of("applies_to")),
        symptoms=symptoms, conditions=conditions, cause=fields.text("cause"),
        fixes=_fixes(fields.raw("fixes"), facts, problems, fields.line_of("fixes")),
        citations=tuple(citations), tests=tests, where=Where(file, 1),
        summary=fields.text("summary", required=False), tags=fields.strings("tags"),
        echo=fields.flag("echo"),
        concludes_at_most=fields.choice("concludes_at_most", Ceiling, required=False, default=Ceiling.CONFIRMED),
        field_lines=tuple((key, fields.line_of(key)) for key in ENTRY_FIELDS if fields.has(key)),
    )
    return entry
