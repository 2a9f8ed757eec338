"""KB entries as plain data for JSON output (part of the ``"schema": 1`` contract)."""

from __future__ import annotations

from ..kb.model import Article, Citation, Entry, FixStep
from .safe_text import json_safe


def citation_dict(citation: Citation | str, articles: dict[str, Article]) -> dict[str, str]:
    article_id, _, slug = str(citation).partition("#")
    article = articles.get(article_id)
    section = article.section(slug) if article else None
    return {"ref": str(citation), "article": article.title if article else article_id,
            "section": section.title if section else slug, "url": article.source_url if article else ""}


def _step(step: FixStep) -> dict[str, object]:
    return {"text": step.text, "commands": list(step.commands), "citation": step.citation or None}


def fixes_dict(entry: Entry) -> dict[str, list[dict[str, object]]]:
    return {"workaround": [_step(s) for s in entry.fixes.workaround],
            "permanent": [_step(s) for s in entry.fixes.permanent],
            "next_checks": [_step(s) for s in entry.fixes.next_checks]}


def entry_dict(entry: Entry, articles: dict[str, Article]) -> dict[str, object]:
    applies = entry.applies_to
    return json_safe({  # type: ignore[return-value]
        "id": entry.id, "title": entry.title, "status": entry.status.value,
        "component": entry.component, "severity": entry.severity.value,
        "error_codes": list(entry.error_codes), "summary": entry.summary, "cause": entry.cause,
        "applies_to": {"cann": str(applies.cann) if applies.cann else None,
                       "hdk": str(applies.hdk) if applies.hdk else None,
                       "torch_npu": str(applies.torch_npu) if applies.torch_npu else None,
                       "products": list(applies.products)},
        "parent": entry.parent_id, "fixes": fixes_dict(entry),
        "citations": [citation_dict(c, articles) for c in entry.citations],
        "file": entry.where.file,
    })
