"""Where the shipped knowledge base and articles live.

A wheel carries them as the data packages ``faultbot._kb`` and ``faultbot._articles``; an editable
install or a source checkout finds them at the top of the repository, beside the package.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parent.parent


def _data_dir(package: str, repo_dir: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return _REPO_ROOT / repo_dir


def default_kb_dir() -> Path:
    """``$FAULTBOT_KB`` when set, else the shipped knowledge base."""
    override = os.environ.get("FAULTBOT_KB")
    return Path(override) if override else _data_dir("faultbot._kb", "kb")


def default_articles_dir() -> Path:
    """``$FAULTBOT_ARTICLES`` when set, else the shipped articles."""
    override = os.environ.get("FAULTBOT_ARTICLES")
    return Path(override) if override else _data_dir("faultbot._articles", "articles")
