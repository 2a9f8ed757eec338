"""Reading ``kb/facts.yaml``: the fact catalogue (every fact an entry may use) and its extractors."""

from __future__ import annotations

import re
from typing import Any

from ..fullwidth import full_width_in
from .fields import Fields, Problems
from .model import Extractor, FactCatalogue, FactQuestion, FactSource, FactSpec, FactType, Where
from .regex_safety import check_regex
from .versions import Scheme

FACT_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
CATALOGUE_FIELDS = ("facts", "extractors")
FACT_FIELDS = ("type", "description", "sources", "scheme", "values", "aliases", "unit", "ask", "per_occurrence")
ASK_FIELDS = ("question", "why", "how_to_find", "example")
EXTRACTOR_FIELDS = ("id", "regex", "anchors", "prefilter", "modules", "levels", "sets", "description")
LEVELS = ("FATAL", "ERROR", "WARNING", "EVENT", "INFO", "DEBUG", "TRACE")
# What every prefilter engine (hyperscan, re2, re) reads alike: literals, classes, bounded repeats.
_SIMPLE_REGEX = re.compile(r"^(?:[\w\- :=.,]|\\[dswDSW.\[\]()]|\[[^\]\[]+\]|\{\d+(?:,\d+)?\}|[+*?])+$")


def _question(raw: Any, name: str, problems: Problems, line: int) -> FactQuestion | None:
    fields = Fields(raw, f"ask of fact '{name}'", problems, line, ASK_FIELDS)
    if not fields.ok:
        return None
    return FactQuestion(
        text=fields.text("question"),
        why=fields.text("why"),
        how_to_find=fields.strings("how_to_find", required=True, min_items=1),
        example=fields.text("example", required=False),
    )


def _fact(name: str, raw: Any, file: str, problems: Problems, line: int) -> FactSpec | None:
    if not FACT_NAME.match(name):
        problems.add(line, f"fact name '{name}' is not snake_case", "use lowercase letters, digits and _")
    fields = Fields(raw, f"fact '{name}'", problems, line, FACT_FIELDS)
    if not fields.ok:
        return None
    fact_type = fields.choice("type", FactType)
    scheme = fields.choice("scheme", Scheme, required=fact_type is FactType.VERSION)
    values = fields.strings("values", required=fact_type is FactType.ENUM, min_items=1 if fact_type is FactType.ENUM else 0)
    aliases: list[tuple[str, str]] = []
    alias_map = fields.mapping_of("aliases")
    for alias, canonical in alias_map.items():
        if canonical not in values:
            problems.add(alias_map.line_of(alias), f"alias '{alias}' of fact '{name}' points to "
                         f"'{canonical}', which is not one of its values", f"use one of: {', '.join(values)}")
        aliases.append((str(alias), str(canonical)))
    sources = []
    for source_line, source in fields.items("sources", required=True, min_items=1):
        try:
            sources.append(FactSource(source))
        except ValueError:
            problems.add(source_line, f"source '{source}' of fact '{name}' is unknown",
                         f"use: {', '.join(s.value for s in FactSource)}")
    question = _question(fields.raw("ask"), name, problems, fields.line_of("ask")) if fields.has("ask") else None
    if fact_type is None or (fact_type is FactType.VERSION and scheme is None):
        return None
    return FactSpec(
        name=name, type=fact_type, description=fields.text("description"), sources=tuple(sources),
        where=Where(file, line), scheme=scheme, values=values, aliases=tuple(aliases),
        unit=fields.text("unit", required=False), question=question,
        per_occurrence=fields.flag("per_occurrence"),
    )


def check_pattern(pattern: str, problems: Problems, line: int, what: str) -> bool:
    issues = list(check_regex(pattern))
    full_width = full_width_in(pattern)
    if full_width:
        issues.append(f"holds full-width punctuation ({full_width}), which log lines are read with as ASCII; "
                      "write the ASCII characters")
    for issue in issues:
        problems.add(line, f"{what}: {issue}", "fix the regex; KB regexes must compile and run in linear time")
    return not issues


def _extractor(raw: Any, facts: dict[str, FactSpec], file: str, problems: Problems, line: int) -> Extractor | None:
    fields = Fields(raw, "extractor", problems, line, EXTRACTOR_FIELDS)
    if not fields.ok:
        return None
    ident = fields.text("id")
    pattern = fields.text("regex")
    what = f"regex of extractor '{ident}'"
    if not pattern or not check_pattern(pattern, problems, fields.line_of("regex"), what):
        return None
    compiled = re.compile(pattern)
    for group in compiled.groupindex:
        if group not in facts:
            problems.add(fields.line_of("regex"), f"{what} captures '{group}', which is not a fact "
                         "in the catalogue", "declare the fact under 'facts:' or rename the group")
    sets_map = fields.mapping_of("sets")
    for fact in sets_map:
        if fact not in facts:
            problems.add(sets_map.line_of(fact), f"extractor '{ident}' sets unknown fact '{fact}'",
                         "declare it under 'facts:'")
    if not compiled.groupindex and not sets_map:
        problems.add(fields.line_of("regex"), f"extractor '{ident}' yields no fact",
                     "add named groups (?P<fact_name>...) or 'sets:'")
    anchors = fields.strings("anchors")
    for anchor in anchors:
        if len(anchor) < 3:
            problems.add(fields.line_of("anchors"), f"anchor '{anchor}' of extractor '{ident}' is "
                         "too short to filter anything", "use a literal of 3+ characters the regex needs")
    prefilter = fields.text("prefilter", required=False)
    if prefilter and not (prefilter.isascii() and _SIMPLE_REGEX.match(prefilter)):
        problems.add(fields.line_of("prefilter"), f"prefilter of extractor '{ident}' is not a simple ASCII regex",
                     "use literals, character classes and bounded repeats only; put non-ASCII text in 'anchors'")
    elif prefilter:
        # Without hyperscan or re2 the prefilter runs under re on every line: the same lint as any KB regex.
        check_pattern(prefilter, problems, fields.line_of("prefilter"), f"prefilter of extractor '{ident}'")
    levels = fields.strings("levels")
    for level in levels:
        if level not in LEVELS:
            problems.add(fields.line_of("levels"), f"extractor '{ident}' names unknown level '{level}'",
                         f"use: {', '.join(LEVELS)}")
    if not anchors and not prefilter:
        problems.add(fields.line_of("regex"), f"extractor '{ident}' has neither anchors nor a prefilter",
                     "list literal 'anchors:' the regex needs, or a simple 'prefilter:' regex every match contains")
    return Extractor(
        id=ident, pattern=pattern, anchors=anchors, modules=fields.strings("modules"), prefilter=prefilter,
        sets=tuple((str(k), str(v)) for k, v in sets_map.items()), where=Where(file, fields.line), levels=levels,
    )


def parse_catalogue(documents: list[tuple[Any, Problems]]) -> FactCatalogue:
    """The catalogue from one or more files (``kb/facts.yaml`` and ``kb/facts/*.yaml``): all facts
    are read first, so any file's extractors may capture any file's facts."""
    facts: dict[str, FactSpec] = {}
    declared_in: dict[str, str] = {}
    tops = []
    for raw, problems in documents:
        top = Fields(raw, "the fact catalogue", problems, 1, CATALOGUE_FIELDS)
        tops.append((top, problems))
        fact_map = top.mapping_of("facts")
        for name, spec in fact_map.items():
            if name in facts:
                problems.add(fact_map.line_of(name), f"fact '{name}' is already declared in {declared_in[name]}",
                             "declare each fact once")
                continue
            fact = _fact(name, spec, problems.file, problems, fact_map.line_of(name))
            if fact is not None:
                facts[name] = fact
                declared_in[name] = problems.file
    extractors = []
    seen: dict[str, str] = {}
    for top, problems in tops:
        for line, item in top.items("extractors"):
            extractor = _extractor(item, facts, problems.file, problems, line)
            if extractor is None:
                continue
            if extractor.id in seen:
                problems.add(line, f"duplicate extractor id '{extractor.id}' (first in {seen[extractor.id]})",
                             "give each extractor its own id")
            seen.setdefault(extractor.id, f"{problems.file}:{line}")
            extractors.append(extractor)
    return FactCatalogue(facts, tuple(extractors))
