"""Which knowledge base and articles a command uses: ``--kb`` / ``--articles``, else the shipped ones."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..paths import default_articles_dir, default_kb_dir


def kb_paths(args: argparse.Namespace) -> tuple[Path, Path]:
    kb_dir = args.kb or default_kb_dir()
    if args.articles:
        return kb_dir, args.articles
    beside = kb_dir.resolve().parent / "articles"
    return kb_dir, beside if args.kb and beside.is_dir() else default_articles_dir()
