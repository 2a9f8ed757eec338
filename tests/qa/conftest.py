"""Shared by the question-answering tests: the knowledge index, built once; no test touches the real data dir."""

from __future__ import annotations

import pytest

from faultbot.qa.index import KnowledgeIndex


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture(scope="session")
def index(kb) -> KnowledgeIndex:
    return KnowledgeIndex.from_kb(kb)
