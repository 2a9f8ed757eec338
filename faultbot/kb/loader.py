"""Where the knowledge base comes from: ``load_kb`` gives the ``KnowledgeBase`` (defined in
``knowledge_base``, and named from here by most callers) for a KB folder and its articles.

``load_kb`` returns the compiled KB from the cache when the KB's content has not changed since it
was compiled, so only the first run after an edit pays for parsing and validating every file
(``faultbot.kb.compiler``); a run then reads only the entries and articles it uses.
"""

from __future__ import annotations

from pathlib import Path

from .. import cache
from .diagnostics import Problem
from .digest import KbDigest, kb_digest
from .kb_error import KbError
from .knowledge_base import KnowledgeBase

__all__ = ["KnowledgeBase", "load_kb"]


def load_kb(kb_dir: Path, articles_dir: Path) -> KnowledgeBase:
    """The KB in ``kb_dir`` with the articles in ``articles_dir``: compiled once per content, from
    the cache afterwards. Raises KbError when the KB has problems."""
    kb_dir = kb_dir.resolve()
    if not kb_dir.is_dir():
        raise KbError([Problem(str(kb_dir), 1, "knowledge base folder does not exist")])
    articles_dir = articles_dir.resolve()
    digest = kb_digest(kb_dir, articles_dir)
    return cache.load_or_build("kb", (digest.content, str(kb_dir), str(articles_dir)),
                               lambda: _compiled(kb_dir, articles_dir, digest))


def _compiled(kb_dir: Path, articles_dir: Path, digest: KbDigest) -> KnowledgeBase:
    from .compiler import compile_kb  # the parsers and validators: only when the cache has no compiled KB

    return compile_kb(kb_dir, articles_dir, digest)
