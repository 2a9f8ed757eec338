"""Shared fixtures: the shipped knowledge base, loaded once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from faultbot.kb.loader import KnowledgeBase, load_kb
from faultbot.paths import default_articles_dir, default_kb_dir

TESTS_DIR = Path(__file__).resolve().parent
REPO_DIR = TESTS_DIR.parent


@pytest.fixture(scope="session")
def kb() -> KnowledgeBase:
    return load_kb(default_kb_dir(), default_articles_dir())
