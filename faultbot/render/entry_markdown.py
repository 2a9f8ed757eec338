"""A KB entry as Markdown, the way an engineer reads it: what it is, cause, fixes, sources."""

from __future__ import annotations

from ..kb.loader import KnowledgeBase
from ..kb.model import Article, Entry, Fill, as_written, citation_line, step_lines
from .safe_text import printable

FIX_HEADINGS = (("workaround", "Immediate workaround"), ("permanent", "Permanent fix"),
                ("next_checks", "Next checks"))


def fix_sections(entry: Entry, fields: tuple[str, ...], fill: Fill = as_written,
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


def cause_lines(entry: Entry, fill: Fill = as_written) -> list[str]:
    """Summary and cause, under one heading."""
    return ["", "## Cause", "", *([fill(entry.summary), ""] if entry.summary else []), fill(entry.cause)]


def cause_and_fixes(entry: Entry, fill: Fill = as_written, articles: dict[str, Article] | None = None) -> list[str]:
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
