"""An answer to a question as Markdown: the passage's sentences and their sources, or "not in my
knowledge base" with search terms to try. ``faultbot ask`` and the chat answer alike."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..kb.model import Article
from ..qa.answer import Answer
from .entry_markdown import citation_line
from .safe_text import printable


def sources_markdown(citations: Iterable[str], articles: Mapping[str, Article], heading: str = "Sources") -> str:
    cited = list(citations)
    return "\n".join([f"**{heading}:**", "", *(f"- {citation_line(c, articles)}" for c in cited)]) if cited else ""


def answer_markdown(answer: Answer, articles: Mapping[str, Article]) -> str:
    if not answer.found:
        terms = ", ".join(f"`{term}`" for term in answer.suggestions)
        hint = f" Search terms to try: {terms} (`/search TERM` in the chat)." if terms else ""
        return printable(f"**Not in my knowledge base.**{hint}")
    return printable("\n\n".join((answer.text or "", sources_markdown(answer.citations, articles))))
