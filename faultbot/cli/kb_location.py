"""Which knowledge base and articles a command uses: ``--kb`` / ``--articles``, else (for ``kb``
commands run inside a faultbot checkout, found from the working directory as git finds its
repository) the checkout's, else the shipped ones."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..paths import default_articles_dir, default_kb_dir
from .errors import UsageError


def checkout_root(start: Path | None = None) -> Path | None:
    """The nearest folder at or above ``start`` (the working directory) that holds a faultbot
    source checkout: its ``pyproject.toml`` names faultbot and it has ``kb/`` and ``articles/``."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        project = folder / "pyproject.toml"
        if (folder / "kb" / "facts.yaml").is_file() and (folder / "articles").is_dir() and project.is_file():
            try:
                if 'name = "faultbot"' in project.read_text(encoding="utf-8", errors="replace"):
                    return folder
            except OSError:
                continue
    return None


def kb_paths(args: argparse.Namespace) -> tuple[Path, Path]:
    kb_dir = args.kb
    if kb_dir is None and getattr(args, "command", None) == "kb" and not os.environ.get("FAULTBOT_KB"):
        root = checkout_root()
        if root is not None:
            return root / "kb", args.articles or root / "articles"
    kb_dir = kb_dir or default_kb_dir()
    if args.articles:
        return kb_dir, args.articles
    beside = kb_dir.resolve().parent / "articles"
    return kb_dir, beside if args.kb and beside.is_dir() else default_articles_dir()


def writable_kb(kb_dir: Path) -> Path:
    """``kb_dir`` when a draft may be written there; an installed package's KB is refused."""
    installed = {Path(p).resolve() for p in sys.path if p.endswith(("site-packages", "dist-packages"))}
    resolved = kb_dir.resolve()
    if any(resolved.is_relative_to(site) for site in installed):
        raise UsageError(f"{kb_dir} is the KB inside an installed package; run this in a faultbot checkout "
                         "(git clone ..., then pip install -e '.[test]'), or give --kb DIR")
    return kb_dir
