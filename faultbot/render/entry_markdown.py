"""A KB entry as Markdown, the way an engineer reads it: what it is, cause, fixes, sources."""

from __future__ import annotations

from collections.abc import Callable

from ..kb.loader import KnowledgeBase
from ..kb.model import Article, Citation, Entry, FixStep
from .safe_text import printable

FIX_HEADINGS = (("workaround", "Immediate workaround"), ("permanent", "Permanent fix"),
                ("next_checks", "Next checks"))
Fill = Callable[[str], str]


def _as_written(text: str) -> str:
    return text


def citation_line(citation: Citation | str, articles: dict[str, Article]) -> str:
    """``title — section — URL`` for a citation, as everywhere faultbot names a source."""
    article_id, _, slug = str(citation).partition("#")
    article = articles.get(article_id)
    if article is None:
        return str(citation)
    section = article.section(slug)
    section_title = section.title if section else slug
    return f"{article.title} — {section_title} — {article.source_url}"


def step_lines(step: FixStep, fill: Fill = _as_written, articles: dict[str, Article] | None = None) -> list[str]:
    """A fix step as a list item with its commands as code; its source when ``articles`` are given.
    ``fill`` puts the diagnosis's values into ``{fact}`` placeholders."""
    lines = [f"- {fill(step.text)}"]
    lines += [f"  ```bash\n  {fill(command)}\n  ```" for command in step.commands]
    if step.citation and articles is not None:
        lines.append(f"  *Source: {citation_line(step.citation, articles)}*")
    return lines


def fix_sections(entry: Entry, fields: tuple[str, ...], fill: Fill = _as_written,
                 articles: dict[str, Article] | None = None) -> list[str]:
    """The entry's fix steps of ``fields`` (workaround, permanent, next_checks), each under its heading."""
    parts: list[str] = []
    for field, heading in FIX_HEADINGS:
        steps = getattr(entry.fixes, field)
        if field in fields and steps:
            parts += ["", f"## {heading}", ""]
            for step in steps:
                parts += step_lines(step, fill, articles)
    return parts


def cause_lines(entry: Entry, fill: Fill = _as_written) -> list[str]:
    """Summary and cause, under one heading."""
    return ["", "## Cause", "", *([fill(entry.summary), ""] if entry.summary else []), fill(entry.cause)]


def cause_and_fixes(entry: Entry, fill: Fill = _as_written, articles: dict[str, Article] | None = None) -> list[str]:
    """Summary and cause, then workaround, permanent fix and next checks, each under its heading."""
    return cause_lines(entry, fill) + fix_sections(entry, tuple(field for field, _ in FIX_HEADINGS), fill, articles)


def entry_markdown(entry: Entry, kb: KnowledgeBase) -> str:
    parts = [f"# {entry.title}", "",
             f"`{entry.id}` · {entry.component} · severity {entry.severity.value} · {entry.status.value}"]
    if entry.error_codes:
        parts[-1] += f" · error codes {', '.join(entry.error_codes)}"
    applies = entry.applies_to
    scope = [f"{name} {rng}" for name, rng in (("CANN", applies.cann), ("HDK", applies.hdk),
                                                ("torch_npu", applies.torch_npu)) if rng]
    if applies.products:
        scope.append("products " + ", ".join(applies.products))
    if scope:
        parts += ["", "Applies to: " + "; ".join(scope)]
    parts += cause_and_fixes(entry, articles=kb.articles)
    if entry.parent_id or kb.children(entry.id):
        parts += ["", "## Related entries", ""]
        if entry.parent_id:
            parts.append(f"- refines `{entry.parent_id}`")
        parts += [f"- refined by `{child.id}` — {child.title}" for child in kb.children(entry.id)]
    parts += ["", "## Sources", ""]
    parts += [f"- {citation_line(citation, kb.articles)}" for citation in entry.citations]
    return printable("\n".join(parts) + "\n")
