"""Reading ``kb/aggregations.yaml``: the tables the engine's aggregations across records read, which
would otherwise be numbers in code. ``heartbeat_priority`` orders the heartbeat statuses (the one
with the highest names the rank that failed first); ``exec_timeout_profiles`` say how each product
and expansion mode turns HCCL_EXEC_TIMEOUT into the timeout that applies.

Like ``settings.yaml``, every value must be written in a section it cites: ``kb lint`` looks for each
status order, product, mode and number word for word (ignoring ``**`` and backticks), so the tables
can only say what the articles say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .fields import Fields, Problems
from .model import Article, ExecTimeoutProfile, FactSpec
from .settings_schema import written_in

AGGREGATIONS_FILE = "aggregations.yaml"
AGGREGATIONS_FIELDS = ("heartbeat_priority", "exec_timeout_profiles")
HEARTBEAT_FIELDS = ("order", "citation")
PROFILE_FIELDS = ("products", "called", "modes", "default", "round_down_to", "cap", "never_when_zero", "citations")
HEARTBEAT_FACT, PRODUCT_FACT, MODE_FACT = "heartbeat_status", "product", "hccl_op_expansion_mode"
NEVER = "never time out"        # what a cited section writes of 0 where it means no timeout
MAX_SECONDS = 2147483647


class _Sources:
    """The article sections a table cites, and whether they write what it says."""

    def __init__(self, articles: Mapping[str, Article], problems: Problems):
        self.articles = articles
        self.problems = problems

    def texts(self, citations: tuple[str, ...], line: int, what: str) -> list[str]:
        found = []
        for citation in citations:
            article_id, _, slug = citation.partition("#")
            section = self.articles[article_id].section(slug) if article_id in self.articles else None
            if section is None:
                self.problems.add(line, f"{what} cites '{citation}', which is not an article section",
                                  "cite an existing article#section (see articles/)")
            else:
                found.append(section.text)
        return found

    def check(self, said: str, texts: list[str], line: int, what: str) -> None:
        if texts and not any(written_in(said, text) for text in texts):
            self.problems.add(line, f"{what}: '{said}' is not written in the sections it cites",
                              "quote the sections' own words, or cite the section that says it")


def _values_of(fields: Fields, key: str, fact: str, facts: Mapping[str, FactSpec]) -> tuple[str, ...]:
    """The texts under ``key``, each a value of the enum fact ``fact``."""
    found = fields.strings(key, required=True, min_items=1)
    allowed = facts[fact].values if fact in facts else ()
    for value in found:
        if value not in allowed:
            fields.problems.add(fields.line_of(key), f"'{value}' is not a value of the fact '{fact}'",
                                f"use one of: {', '.join(allowed)}")
    return found


def _heartbeat(fields: Fields, facts: Mapping[str, FactSpec], sources: _Sources) -> tuple[str, ...]:
    if not fields.has("heartbeat_priority"):
        return ()
    line = fields.line_of("heartbeat_priority")
    table = Fields(fields.raw("heartbeat_priority"), "heartbeat_priority", fields.problems, line, HEARTBEAT_FIELDS)
    if not table.ok:
        return ()
    order = _values_of(table, "order", HEARTBEAT_FACT, facts)
    texts = sources.texts((table.text("citation"),), table.line_of("citation"), "heartbeat_priority")
    sources.check(" > ".join(order), texts, table.line_of("order"), "heartbeat_priority")
    return order


def _whole(fields: Fields, key: str) -> int:
    """A whole number of seconds under ``key``, 0 when absent."""
    value = fields.number(key, 0, 0, MAX_SECONDS)
    if value != int(value):
        fields.problems.add(fields.line_of(key), f"'{key}' of {fields.what} must be whole seconds, found {value}")
    return int(value)


def _profile(raw: Any, line: int, facts: Mapping[str, FactSpec], sources: _Sources) -> ExecTimeoutProfile | None:
    fields = Fields(raw, "an exec_timeout profile", sources.problems, line, PROFILE_FIELDS)
    if not fields.ok:
        return None
    products, modes = _values_of(fields, "products", PRODUCT_FACT, facts), _values_of(fields, "modes", MODE_FACT, facts)
    called = fields.mapping_of("called")
    default, step, cap = _whole(fields, "default"), _whole(fields, "round_down_to"), _whole(fields, "cap")
    never = fields.flag("never_when_zero")
    if not fields.has("default"):
        fields.problems.add(fields.line, f"{fields.what} is missing required field 'default'", "add 'default:' (seconds)")
    if sum((bool(step), bool(cap), never)) > 1:
        fields.problems.add(fields.line, f"{fields.what} says more than one of round_down_to, cap, never_when_zero",
                            "keep the one the cited section gives for this product and mode")
    texts = sources.texts(fields.strings("citations", required=True, min_items=1), fields.line_of("citations"),
                          f"the profile of {', '.join(products)}")
    said = [*(str(called.get(product, product)) for product in products), *modes, str(default),
            *([str(step)] if step else []), *([str(cap)] if cap else []), *([NEVER] if never else [])]
    for words in said:
        sources.check(words, texts, fields.line, f"the profile of {', '.join(products)}")
    for product in called:
        if product not in products:
            fields.problems.add(fields.line_of("called"), f"'called' names '{product}', which the profile does not list",
                                "name a product of 'products:'")
    return ExecTimeoutProfile(products, modes, default, step, cap, never) if products and modes and default else None


def parse_aggregations(raw: Any, problems: Problems, facts: Mapping[str, FactSpec],
                       articles: Mapping[str, Article]) -> tuple[tuple[str, ...], tuple[ExecTimeoutProfile, ...]]:
    """The heartbeat priority (highest first) and the exec-timeout profiles of ``kb/aggregations.yaml``."""
    top = Fields(raw, "the aggregations file", problems, 1, AGGREGATIONS_FIELDS)
    sources = _Sources(articles, problems)
    order = _heartbeat(top, facts, sources) if top.ok else ()
    profiles = tuple(profile for line, item in top.items("exec_timeout_profiles")
                     if (profile := _profile(item, line, facts, sources)) is not None)
    return order, profiles
