"""The source articles under ``articles/``: front matter and citable sections.

A section is a heading with an explicit ``{#slug}`` anchor and the text up to the next heading of
the same or a higher level; citations name ``article-id#slug``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from .diagnostics import Problem
from .kb_error import KbError
from .model import Article, Section
from .yaml_source import parse_yaml, read_kb_file

REQUIRED_FRONT_MATTER = ("id", "title", "original_title", "source_url", "published", "language_of_source")
_ANCHOR = re.compile(r"\s*\{#([a-z0-9]+(?:-[a-z0-9]+)*)\}\s*$")
_ANY_ANCHOR = re.compile(r"\{#[^}]*\}\s*$")
_KEY_TERMS = re.compile(r"^\*\*Key terms \(zh\):\*\*\s*(.+)$", re.M)
_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)
# How engineers ask for what a section says: questions separated by ";" (qa/passages.py reads them).
_ASKED_AS = re.compile(r"^\*\*Asked as:\*\*(.*)$")


def _front_matter(text: str, shown_as: str, problems: list[Problem]) -> tuple[dict[str, Any], int]:
    match = _FRONT_MATTER.match(text)
    if not match:
        problems.append(Problem(shown_as, 1, "article has no YAML front matter",
                                "start the file with --- id/title/... --- "))
        return {}, 0
    body_start = match.group(0).count("\n")
    try:
        meta = parse_yaml(match.group(1), shown_as) or {}
    except KbError as exc:
        problems += [Problem(p.file, p.line + 1, f"front matter: {p.message}", p.hint) for p in exc.problems]
        return {}, body_start
    if not isinstance(meta, dict):
        problems.append(Problem(shown_as, 1, "front matter must be a mapping"))
        return {}, body_start
    for key in REQUIRED_FRONT_MATTER:
        if not str(meta.get(key) or "").strip():
            problems.append(Problem(shown_as, 1, f"front matter lacks '{key}'", f"add '{key}:'"))
    return meta, body_start


def _check_asked_as(lines: list[str], shown_as: str, problems: list[Problem]) -> None:
    for number, line in enumerate(lines, 1):
        if (asked := _ASKED_AS.match(line)) and not any(q.strip() for q in asked.group(1).split(";")):
            problems.append(Problem(shown_as, number, "'Asked as' line lists no question",
                                    "list questions that the section answers, separated by ';'"))


def parse_article(text: str, shown_as: str, problems: list[Problem]) -> Article:
    meta, body_start = _front_matter(text, shown_as, problems)
    lines = text.split("\n")
    _check_asked_as(lines, shown_as, problems)
    headings: list[tuple[int, int, str]] = []   # (0-based line, level, inline text)
    tokens = MarkdownIt("commonmark").parse("\n".join(lines[body_start:]))
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            level = int(token.tag[1])
            headings.append((token.map[0] + body_start, level, tokens[index + 1].content))
    sections: dict[str, Section] = {}
    for position, (line, level, content) in enumerate(headings):
        if level == 1:
            continue
        anchor = _ANCHOR.search(content)
        if not anchor:
            bad = _ANY_ANCHOR.search(content)
            problems.append(Problem(shown_as, line + 1,
                                    f"heading '{content}' has {'a malformed' if bad else 'no'} {{#slug}} anchor",
                                    "end it with {#lowercase-words-with-hyphens}"))
            continue
        slug = anchor.group(1)
        end = next((h[0] for h in headings[position + 1:] if h[1] <= level), len(lines))
        body = "\n".join(lines[line + 1:end]).strip()
        if slug in sections:
            problems.append(Problem(shown_as, line + 1, f"duplicate section anchor '#{slug}' "
                                    f"(first at line {sections[slug].line})", "make each anchor unique"))
            continue
        terms = _KEY_TERMS.findall(body)
        key_terms = tuple(t.strip() for found in terms for t in re.split(r"[,，、]", found) if t.strip())
        sections[slug] = Section(slug, content[: anchor.start()].strip(), level, line + 1, body, key_terms)
    return Article(
        id=str(meta.get("id", Path(shown_as).stem)), title=str(meta.get("title", "")),
        original_title=str(meta.get("original_title", "")), source_url=str(meta.get("source_url", "")),
        published=str(meta.get("published", "")), language_of_source=str(meta.get("language_of_source", "")),
        file=shown_as, sections=sections,
    )


def load_articles(directory: Path, shown_prefix: str) -> tuple[dict[str, Article], list[Problem]]:
    """Every article in ``directory`` by id, and the problems found reading them."""
    problems: list[Problem] = []
    articles: dict[str, Article] = {}
    for path in sorted(directory.glob("*.md")):
        if path.name.upper() == "README.MD":
            continue
        shown = f"{shown_prefix}/{path.name}"
        try:
            text = read_kb_file(path, shown, directory)
        except KbError as exc:
            problems += exc.problems
            continue
        article = parse_article(text.replace("\r\n", "\n"), shown, problems)
        if article.id != path.stem:
            problems.append(Problem(shown, 1, f"article id '{article.id}' differs from its file name",
                                    f"name the file {article.id}.md or fix the id"))
        if article.id in articles:
            problems.append(Problem(shown, 1, f"duplicate article id '{article.id}'"))
        articles[article.id] = article
    return articles, problems
