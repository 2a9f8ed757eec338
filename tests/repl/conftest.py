"""Shared by the chat tests: a data dir of their own, the example log, and chats to drive."""

from __future__ import annotations

from pathlib import Path

import pytest

from faultbot.repl.chat import Chat
from faultbot.repl.locations import sessions_dir
from faultbot.repl.transcript import Transcript

from ..conftest import REPO_DIR

EXAMPLE_LOG = (REPO_DIR / "examples" / "lccl-allreduce-vector-core-timeout.log").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


@pytest.fixture
def chat(kb) -> Chat:
    """A chat that keeps its transcript under the test's data dir."""
    return Chat(kb, Transcript.create(sessions_dir(), kb.kb_dir))
