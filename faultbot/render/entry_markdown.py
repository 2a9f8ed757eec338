"""A KB entry as Markdown, the way an engineer reads it: what it is, cause, fixes, sources."""

from __future__ import annotations

from ..kb.articles import Article
from ..kb.loader import KnowledgeBase
from ..kb.model import Citation, Entry, FixStep

_FIX_HEADINGS = (("workaround", "Immediate workaround"), ("permanent", "Permanent fix"),
                 ("next_checks", "Next checks"))


def citation_line(citation: Citation | str, articles: dict[str, Article]) -> str:
    """``title — section — URL`` for a citation, as everywhere faultbot names a source."""
    article_id, _, slug = str(citation).partition("#")
    article = articles.get(article_id)
    if article is None:
        return str(citation)
    section = article.section(slug)
    section_title = section.title if section else slug
    return f"{article.title} — {section_title} — {article.source_url}"


def _step(step: FixStep, articles: dict[str, Article]) -> list[str]:
    lines = [f"- {step.text}"]
    lines += [f"  ```bash\n  {command}\n  ```" for command in step.commands]
    if step.citation:
        lines.append(f"  *Source: {citation_line(step.citation, articles)}*")
    return lines


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
    if entry.summary:
        parts += ["", entry.summary]
    parts += ["", "## Cause", "", entry.cause]
    for field, heading in _FIX_HEADINGS:
        steps = getattr(entry.fixes, field)
        if steps:
            parts += ["", f"## {heading}", ""]
            for step in steps:
                parts += _step(step, kb.articles)
    if entry.parent_id or kb.children(entry.id):
        parts += ["", "## Related entries", ""]
        if entry.parent_id:
            parts.append(f"- refines `{entry.parent_id}`")
        parts += [f"- refined by `{child.id}` — {child.title}" for child in kb.children(entry.id)]
    parts += ["", "## Sources", ""]
    parts += [f"- {citation_line(citation, kb.articles)}" for citation in entry.citations]
    return "\n".join(parts) + "\n"
