"""The aclError codes the tables of article sections name (kb/codes.yaml, ``acl.named_in``): a row
`| 107027 | `ACL_ERROR_RT_STREAM_CAPTURED` | what it is |`, read into the code book when the KB loads,
so that a code is named as its article names it, with one source of truth."""

from __future__ import annotations

import re
from collections.abc import Mapping

from msgspec.structs import replace

from .diagnostics import Problem
from .model import Article, NamedCode, ReturnCodes

_ROW = re.compile(r"^\|\s*(\d{6})\s*\|\s*`(ACL_[A-Z0-9_]+)`\s*\|\s*(.+?)\s*\|\s*$")


def with_named_codes(codes: ReturnCodes, articles: Mapping[str, Article], shown: str) -> tuple[ReturnCodes, list[Problem]]:
    """``codes`` with every code the ``named_in`` sections' tables name (the first section naming
    a code wins), and a problem for a section that names none."""
    named: dict[str, NamedCode] = {}
    problems = []
    for citation in codes.named_in:
        article_id, _, slug = citation.partition("#")
        article = articles.get(article_id)
        section = article.sections.get(slug) if article else None
        if section is None:
            continue    # an unknown section is reported with the code book's other citations
        rows = [row for line in section.text.split("\n") if (row := _ROW.match(line.strip()))]
        if not rows:
            problems.append(Problem(shown, 1, f"acl.named_in section '{citation}' has no table row naming a code",
                                    "cite a section with rows like | 507015 | `ACL_ERROR_RT_AICORE_EXCEPTION` | ... |"))
        for row in rows:
            named.setdefault(row.group(1), NamedCode(row.group(2), row.group(3).replace("**", ""), citation))
    return replace(codes, named=named), problems
